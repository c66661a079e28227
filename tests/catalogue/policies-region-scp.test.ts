/**
 * The AWS region deny's exemptions against AWS's current sample (issue 112), vendored byte for byte
 * in catalogue/reference/aws-scp-examples/, decided by @cloud-copilot/iam-simulate; and explain
 * naming the approved services offered in none of the allowed regions, on every policy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { AWS_GLOBAL_SERVICE_EXEMPTIONS, AWS_REGION_DENY_NOT_ACTION } from "../../catalogue/policies/locations.ts";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";
import { scpDecision } from "../helpers/scp-simulation.ts";

const catalogue = realCatalogue();
const SAMPLE = join(
  import.meta.dirname,
  "../../catalogue/reference/aws-scp-examples/Deny-access-to-AWS-based-on-the-requested-AWS-region.json",
);
const sample = JSON.parse(readFileSync(SAMPLE, "utf8")) as { Statement: { NotAction: string[] }[] };

const decide = (action: string, region: string, scps: readonly ScpDocumentT[]) =>
  scpDecision(action, scps, "FullAWSAccess", { region });

describe("the region deny's exemptions", () => {
  it("are AWS's current sample's NotAction, in its order", () => {
    expect(sample.Statement).toHaveLength(1);
    expect([...AWS_GLOBAL_SERVICE_EXEMPTIONS]).toEqual(sample.Statement[0]!.NotAction);
    // What the archived copy lacked or held (the finding), so a stale copy fails here.
    for (const added of [
      "route53-recovery-cluster:*",
      "route53-recovery-control-config:*",
      "route53-recovery-readiness:*",
      "s3:ListMultiRegionAccessPoints",
    ])
      expect(AWS_GLOBAL_SERVICE_EXEMPTIONS).toContain(added);
    expect(AWS_GLOBAL_SERVICE_EXEMPTIONS).not.toContain("supportplans:*");
  });

  it("let Route 53 ARC's control plane be used from us-west-2 with aws-arc approved and EU allowed", async () => {
    const { policy } = scpPolicy(catalogue, ["aws-arc"], { allowedLocations: ["EU"] });
    expect(policy.Statement[1]!.NotAction).toEqual(AWS_REGION_DENY_NOT_ACTION);
    expect(await decide("route53-recovery-control-config:CreateCluster", "us-west-2", [policy])).toBe("Allowed");
    // With the archived exemptions (no ARC prefixes), the same request was denied.
    const archived: ScpDocumentT = {
      ...policy,
      Statement: policy.Statement.map((statement, index) =>
        index === 1
          ? {
              ...statement,
              NotAction: AWS_REGION_DENY_NOT_ACTION.filter((action) => !action.startsWith("route53-recovery-")),
            }
          : statement,
      ),
    };
    expect(await decide("route53-recovery-control-config:CreateCluster", "us-west-2", [archived])).toBe(
      "ExplicitlyDenied",
    );
    // A regional ARC action outside the allowed regions is still denied.
    expect(await decide("arc-zonal-shift:StartZonalShift", "us-west-2", [policy])).toBe("ExplicitlyDenied");
  });
});

describe("explain on approved services offered in none of the allowed regions", () => {
  it("names Device Farm (us-west-2 only) on the SCP, and not S3", () => {
    const notes = scpPolicy(catalogue, ["aws-device-farm", "aws-s3"], { allowedLocations: ["EU"] }).notes.join(" ");
    expect(notes).toMatch(
      /Approved but offered in none of the allowed regions, by their own region lists \(as of \d{4}-\d{2}-\d{2}\): AWS Device Farm \(aws-device-farm: us-west-2 only\)\./,
    );
    expect(notes).not.toMatch(/\(aws-s3:/);
  });

  /** An approved regional service of a provider whose own regions hold none of `allowed`, from the catalogue. */
  const offeredElsewhere = (providerId: string, allowed: string) =>
    [...catalogue.bySlug.values()].find(
      (record) =>
        record.service.providerId === providerId &&
        !record.service.lifecycle &&
        record.placement?.kind === "regional" &&
        (record.policyIdentifiers.resourceTypes?.length ?? 0) + (record.policyIdentifiers.apiServices?.length ?? 0) >
          0 &&
        !record.regions.some((region) => region.id === allowed),
    )!;

  it("names one on the Azure policy set and on the Google Cloud organization policy too", () => {
    const azure = offeredElsewhere("azure", "westeurope");
    const azureNotes = azurePolicySet(catalogue, [azure.service.slug], { allowedLocations: ["westeurope"] }).notes;
    expect(azureNotes.join(" ")).toContain(`${azure.service.name} (${azure.service.slug}: `);
    const gcp = offeredElsewhere("gcp", "europe-west3");
    const gcpNotes = gcpOrgPolicy(catalogue, [gcp.service.slug], { allowedLocations: ["europe-west3"] }).notes;
    expect(gcpNotes.join(" ")).toContain(`${gcp.service.name} (${gcp.service.slug}: `);
  });

  it("counts the approved services whose own regions are not known, and says what global means", () => {
    const providerLevel = [...catalogue.bySlug.values()].find(
      (record) => record.service.providerId === "aws" && record.placement?.kind === "provider-level",
    )!;
    const notes = scpPolicy(catalogue, [providerLevel.service.slug], { allowedLocations: ["EU", "global"] }).notes;
    expect(notes.join(" ")).toMatch(/1 approved AWS service's own regions are not known \(provider level\)/);
    expect(notes).toContainEqual(expect.stringMatching(/^global \(allowedLocations\): AWS.s global services/));
  });
});
