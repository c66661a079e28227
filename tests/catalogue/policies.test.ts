import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  gcpOrgPolicy,
  policyAnswer,
  scpAnswer,
  scpPolicy,
  azurePolicySet,
} from "../../catalogue/policies/documents.ts";
import { PolicyRequestError } from "../../catalogue/policies/errors.ts";
import { SCP_MAX_CHARACTERS } from "../../catalogue/base/limits.ts";
import { AWS_ESSENTIAL_PREFIXES } from "../../catalogue/policies/essentials.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const awsIds = catalogue.services.filter((s) => s.providerId === "aws").map((s) => s.slug);

describe("policy generators", () => {
  it("tell which other catalogue services the shared identifiers approve, and through which identifier", () => {
    const scp = scpPolicy(catalogue, ["aws-vpc", "aws-fargate", "aws-documentdb"]);
    const implied = new Map(scp.implied.map((entry) => [entry.id, entry]));
    expect(implied.get("aws-ec2")).toMatchObject({ identifiers: ["ec2"], linkedTo: ["aws-vpc"] });
    expect(implied.get("aws-eks")).toMatchObject({ identifiers: ["eks"], linkedTo: ["aws-fargate"] });
    expect(implied.get("aws-ecs")).toMatchObject({ identifiers: ["ecs"], linkedTo: ["aws-fargate"], complete: true });
    expect(implied.get("aws-neptune")?.linkedTo).toEqual(["aws-documentdb"]);
    // Implied through the essentials alone (iam, sts, signin): linkedTo says so (1.8.0).
    expect(implied.get("aws-iam")?.linkedTo).toEqual(["essentials"]);

    const azure = azurePolicySet(catalogue, ["azure-app-service"]);
    const web = azure.implied.filter((entry) => entry.identifiers.includes("Microsoft.Web/sites")).map((e) => e.id);
    expect(web).toEqual(expect.arrayContaining(["azure-functions", "azure-logic-apps"]));
  });

  it("list every approved GCP API name, and the unconfirmed ones in explain mode", () => {
    const unconfirmed = catalogue.services.find(
      (s) =>
        s.providerId === "gcp" &&
        catalogue.bySlug.get(s.slug)!.policyIdentifiers.apiServices?.some((api) => !api.restrictServiceUsage),
    )!;
    const api = catalogue.bySlug
      .get(unconfirmed.slug)!
      .policyIdentifiers.apiServices!.find((a) => !a.restrictServiceUsage)!.name;
    const result = gcpOrgPolicy(catalogue, [unconfirmed.slug], { essentials: false });
    expect(result.policy.spec.rules[0]!.values.allowedValues).toContain(api);
    expect(result.unconfirmed).toContain(api);
    expect(result.skipped).toEqual([]);
  });

  it("refuse with a reason when nothing is left to allow", () => {
    expect(() => scpPolicy(catalogue, ["aws-deeplens"])).toThrow(PolicyRequestError);
    expect(() => scpPolicy(catalogue, ["aws-deeplens"])).toThrow(/has no IAM service prefix \(aws-deeplens\)/);
    expect(() => azurePolicySet(catalogue, ["aws-s3", "gcp-bigquery"])).toThrow(
      /None of the 2 approved services is an Azure service/,
    );
    expect(() => gcpOrgPolicy(catalogue, [])).toThrow(PolicyRequestError);
  });

  it("split an allow-list into SCPs within the size limit, each filled before the next, losing and repeating nothing", () => {
    fc.assert(
      fc.property(fc.subarray(awsIds, { minLength: 1 }), fc.boolean(), (ids, essentials) => {
        let result;
        try {
          result = scpPolicy(catalogue, ids, { strategy: "allow-list", essentials });
        } catch (error) {
          expect(error).toBeInstanceOf(PolicyRequestError);
          return;
        }
        const parts = result.policies ?? [result.policy];
        const actions = parts.flatMap((part) => part.Statement[0]!.Action!);
        expect(new Set(actions).size).toBe(actions.length);
        const expected = [
          ...new Set([
            ...ids.flatMap((id) => catalogue.bySlug.get(id)!.policyIdentifiers.iamPrefixes ?? []),
            ...(essentials ? AWS_ESSENTIAL_PREFIXES : []),
          ]),
        ].sort();
        // Whole prefixes first, in order; then the dependencies under prefixes not allowed whole.
        const prefixActions = actions.filter((action) => action.endsWith(":*") && !action.slice(0, -2).includes("*"));
        expect(prefixActions.map((action) => action.replace(/:\*$/, ""))).toEqual(expected);
        const extra = actions.slice(prefixActions.length);
        expect(extra).toEqual(
          result.dependencies
            .map((dependency) => dependency.identifier)
            .filter((identifier) => !expected.includes(identifier.split(":")[0]!))
            .sort(),
        );
        for (const part of parts) expect(JSON.stringify(part).length).toBeLessThanOrEqual(SCP_MAX_CHARACTERS);
        if (parts.length > 1) {
          const total = parts.reduce((sum, part) => sum + JSON.stringify(part).length, 0);
          expect(total).toBeGreaterThan(SCP_MAX_CHARACTERS * (parts.length - 1) * 0.9);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("answer the bare document by default and the explanation on request", () => {
    const result = azurePolicySet(catalogue, ["azure-blob-storage"]);
    expect(policyAnswer(result, {})).toBe(result.policy);
    expect(policyAnswer(result, { explain: true })).toBe(result);
    const scp = scpPolicy(catalogue, ["aws-s3"]);
    expect(scpAnswer(scp, {})).toEqual(scp.policy);
    expect(() => scpAnswer(scp, { part: 1 })).toThrow(/strategy=allow-list only/);
  });
});
