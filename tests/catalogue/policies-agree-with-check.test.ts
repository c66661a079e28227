/**
 * A policy never contradicts the check (issue 124): for any allowedLocations (regions, countries,
 * EU, EEA, Google's multi- and dual-regions) and any stated location, the deployment check allows
 * a resource exactly when the generated AWS, Azure and Google documents would let it be created
 * there, each document read as its vendor evaluates it. The region deny keeps the essentials
 * Control Tower's Region deny exempts, names the others it blocks (decided by
 * @cloud-copilot/iam-simulate), and says where Bedrock's cross-Region inference applies.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { PolicyRequestError } from "../../catalogue/policies/errors.ts";
import { AWS_REGION_DENY_ESSENTIALS } from "../../catalogue/policies/locations.ts";
import { locationAnswers } from "../../catalogue/templates/rules/locations.ts";
import type { Deployment, StatedLocation } from "../../catalogue/templates/model/deployment.ts";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";
import { scpDecision } from "../helpers/scp-simulation.ts";

const catalogue = realCatalogue();
const regionsOf = (providerId: string) => catalogue.providerById.get(providerId)!.regions;
const gcpMultis = (catalogue.multiRegions ?? []).filter((multi) => multi.providerId === "gcp");
const awsRegions = regionsOf("aws").filter((region) => region.market !== "eu-sovereign");

/** The check's verdict on one stated location: true, false, or null (not known). */
function checkAllows(allowedLocations: string[], stated: Omit<StatedLocation, "from" | "type" | "attribute">) {
  const deployment = {
    format: "terraform-plan",
    items: [],
    parameterTypes: [],
    cdk: false,
    sam: false,
    expanded: [],
    notRead: [],
    locations: [{ from: "r", type: "t", attribute: "location", ...stated }],
  } as unknown as Deployment;
  return locationAnswers(catalogue, deployment, allowedLocations)[0]!.allowed;
}

/** Google's gcp.resourceLocations, as its constraint reads a list of values. */
function gcpAllows(values: readonly string[], location: string): boolean {
  const value = location.toLowerCase();
  if (values.includes(value)) return true;
  return values.some((allowed) => {
    const group = /^in:(.+)-locations$/.exec(allowed)?.[1];
    if (!group) return false;
    // The EU value group: Google's regions in member states (multi- and dual-regions are listed
    // by their own values, so this model claims nothing of the group's membership for them).
    if (group === "eu")
      return regionsOf("gcp").some((region) => region.id === value && LOCATION_EU.has(region.country));
    return value === group;
  });
}
const LOCATION_EU = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "),
);

const place = fc.oneof(
  fc.constantFrom("EU", "EEA", "US", "DE", "FR", "GB", "CH", "JP", "NL", "FI", "IE"),
  fc.constantFrom(...gcpMultis.map((multi) => multi.value)),
  fc.constantFrom(...regionsOf("gcp").map((region) => region.id)),
  fc.constantFrom(...awsRegions.map((region) => region.id)),
  fc.constantFrom(...regionsOf("azure").map((region) => region.id)),
);
const places = fc.uniqueArray(place, { minLength: 1, maxLength: 4 });

/** The document, or undefined when the request names no region of the vendor (a 400). */
function documentOf<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch (error) {
    if (error instanceof PolicyRequestError) return undefined;
    throw error;
  }
}

describe("the location policies against the deployment check (issue 124)", () => {
  it("Google: the check allows a location exactly when gcp.resourceLocations does", () => {
    const locations = fc.oneof(
      fc.constantFrom(...regionsOf("gcp").map((region) => region.id)),
      fc.constantFrom(...gcpMultis.map((multi) => multi.value.toLowerCase())),
    );
    fc.assert(
      fc.property(places, locations, (allowedLocations, location) => {
        const result = documentOf(() => gcpOrgPolicy(catalogue, ["gcp-cloud-storage"], { allowedLocations }));
        if (!result) return;
        const values = result.policies![1]!.spec.rules[0]!.values.allowedValues;
        const check = checkAllows(allowedLocations, { providerId: "gcp", value: location });
        expect(check, `${allowedLocations.join(",")} @ ${location}`).toBe(gcpAllows(values, location));
      }),
      { numRuns: 300 },
    );
  });

  it("Azure: the check allows a region exactly when 'Allowed locations' does", () => {
    fc.assert(
      fc.property(
        places,
        fc.constantFrom(...regionsOf("azure").map((region) => region.id)),
        (allowedLocations, location) => {
          const result = documentOf(() => azurePolicySet(catalogue, ["azure-blob-storage"], { allowedLocations }));
          if (!result) return;
          const listed = result.policy.properties.parameters.allowedLocations!.defaultValue;
          expect(checkAllows(allowedLocations, { providerId: "azure", value: location })).toBe(
            listed.includes(location),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("AWS: the check allows a region of the SCP's partition exactly when the region deny lets a request there", async () => {
    const samples = fc.sample(fc.tuple(places, fc.constantFrom(...awsRegions.map((region) => region.id))), 60);
    for (const [allowedLocations, region] of samples) {
      const result = documentOf(() => scpPolicy(catalogue, ["aws-s3"], { allowedLocations }));
      if (!result) continue;
      const decision = await scpDecision("s3:CreateBucket", [result.policy], "FullAWSAccess", { region });
      expect(
        checkAllows(allowedLocations, { providerId: "aws", value: region }),
        `${allowedLocations.join(",")} @ ${region}`,
      ).toBe(decision === "Allowed");
    }
  });

  it("lets a nam4 bucket be created under allowedLocations [nam4], and us and nam4 ones under [US]", () => {
    const nam4 = gcpOrgPolicy(catalogue, ["gcp-cloud-storage"], { allowedLocations: ["nam4"] }).policies![1]!;
    expect(nam4.spec.rules[0]!.values.allowedValues).toEqual([
      "in:us-central1-locations",
      "in:us-east1-locations",
      "nam4",
    ]);
    const us = gcpOrgPolicy(catalogue, ["gcp-cloud-storage"], { allowedLocations: ["US"] }).policies![1]!;
    expect(us.spec.rules[0]!.values.allowedValues).toEqual(expect.arrayContaining(["us", "nam4"]));
    expect(checkAllows(["nam4"], { providerId: "gcp", value: "NAM4" })).toBe(true);
    expect(checkAllows(["US"], { providerId: "gcp", value: "US" })).toBe(true);
    // A dual-region half outside the places is refused by both.
    expect(checkAllows(["us-central1"], { providerId: "gcp", value: "nam4" })).toBe(false);
    const central = gcpOrgPolicy(catalogue, ["gcp-cloud-storage"], { allowedLocations: ["us-central1"] }).policies![1]!;
    expect(central.spec.rules[0]!.values.allowedValues).not.toContain("nam4");
  });
});

describe("the region deny and the essentials (issue 124)", () => {
  const decide = (action: string, policy: ScpDocumentT) =>
    scpDecision(action, [policy], "FullAWSAccess", { region: "us-east-1" });

  it("lets the account and billing essentials Control Tower exempts be used from us-east-1 with EU allowed", async () => {
    const { policy } = scpPolicy(catalogue, ["aws-s3"], { allowedLocations: ["EU"] });
    for (const action of [
      "account:GetAlternateContact",
      "billing:GetBillingData",
      "payments:ListPaymentPreferences",
      "invoicing:GetInvoicePDF",
      "freetier:GetFreeTierUsage",
      "consolidatedbilling:ListLinkedAccounts",
    ])
      expect(await decide(action, policy), action).toBe("Allowed");
    expect(AWS_REGION_DENY_ESSENTIALS).toHaveLength(6);
    // A regional workload action outside the list stays denied.
    expect(await decide("s3:CreateBucket", policy)).toBe("ExplicitlyDenied");
  });

  it("names each essential it still blocks outside the allowed regions, and only those", async () => {
    const { policy, notes } = scpPolicy(catalogue, ["aws-s3"], { allowedLocations: ["EU"] });
    const named = notes.find((note) => note.startsWith("Essentials the region deny blocks"))!;
    expect(named).toBeDefined();
    for (const [prefix, action] of [
      ["tax", "tax:GetTaxInterview"],
      ["supportplans", "supportplans:GetSupportPlan"],
      ["sso", "sso:GetApplicationGrant"],
      ["identitystore", "identitystore:GetUserId"],
    ] as const) {
      expect(await decide(action, policy), action).toBe("ExplicitlyDenied");
      expect(named).toContain(`${prefix}:*`);
    }
    for (const prefix of ["account", "billing", "payments", "iam", "organizations"])
      expect(named).not.toContain(` ${prefix}:*`);
    const none = scpPolicy(catalogue, ["aws-s3"], { allowedLocations: ["EU"], essentials: false });
    expect(none.notes.some((note) => note.startsWith("Essentials the region deny blocks"))).toBe(false);
  });

  it("says where Bedrock's cross-Region inference applies, only when Bedrock is approved", () => {
    const bedrock = scpPolicy(catalogue, ["aws-bedrock"], { allowedLocations: ["EU"] });
    expect(bedrock.notes.join(" ")).toMatch(/cross-Region inference.*inference profile/);
    expect(bedrock.notes.join(" ")).toMatch(/Bedrock-CRIS\.json/);
    const s3 = scpPolicy(catalogue, ["aws-s3"], { allowedLocations: ["EU"] });
    expect(s3.notes.join(" ")).not.toMatch(/cross-Region inference/);
  });
});
