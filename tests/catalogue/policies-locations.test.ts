/**
 * allowedLocations in the three policies (issue 97): each vendor's location rule, resolved from the
 * catalogue's provider regions. The AWS region deny is checked with @cloud-copilot/iam-policy and
 * decided by @cloud-copilot/iam-simulate with aws:RequestedRegion inside and outside the list; the
 * Azure initiative is read and written back by the @azure/arm-policy model, as
 * policies-vendors.test.ts does; the Google policies' values are Google's value groups. The 400s go
 * through the API, whose answers build() checks against OpenAPI.
 */
import { validateServiceControlPolicy } from "@cloud-copilot/iam-policy";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AZURE_ALLOWED_LOCATIONS_DEFINITION,
  AZURE_ALLOWED_RESOURCE_GROUP_LOCATIONS_DEFINITION,
  azurePolicySet,
  gcpOrgPolicy,
  scpPolicy,
} from "../../catalogue/policies/documents.ts";
import { PolicyRequestError } from "../../catalogue/policies/errors.ts";
import { AWS_REGION_DENY_NOT_ACTION, LOCATION_GROUPS } from "../../catalogue/policies/locations.ts";
import { SCP_MAX_CHARACTERS } from "../../catalogue/base/limits.ts";
import { EU_EEA_COUNTRIES, type ScpDocumentT } from "../../catalogue/schema/index.ts";
import { build, postToNewApp, realCatalogue } from "../helpers/app.ts";
import { armPolicyMappers, azureSerializer } from "../helpers/azure-serializer.ts";
import { scpDecision } from "../helpers/scp-simulation.ts";

const catalogue = realCatalogue();

/** The error a generator throws, or a failure when it answers. */
function refusal(call: () => unknown): PolicyRequestError {
  try {
    call();
  } catch (error) {
    if (error instanceof PolicyRequestError) return error;
    throw error;
  }
  throw new Error("expected a PolicyRequestError");
}

/** What iam-simulate decides for an action asked in a region, by a principal allowed everything. */
const decide = (
  action: string,
  region: string,
  scps: readonly ScpDocumentT[],
  options: { principal?: string; beside?: "FullAWSAccess" | "alone" } = {},
) => scpDecision(action, scps, options.beside ?? "FullAWSAccess", { principal: options.principal, region });

const regionsOf = (scp: ScpDocumentT) => scp.Statement[1]?.Condition?.StringNotEquals?.["aws:RequestedRegion"];

describe("the location groups", () => {
  it("EEA is the catalogue's EU/EEA country list, and EU that list without IS, LI and NO", () => {
    expect(new Set(LOCATION_GROUPS.get("EEA"))).toEqual(EU_EEA_COUNTRIES);
    expect(new Set(LOCATION_GROUPS.get("EU"))).toEqual(
      new Set([...EU_EEA_COUNTRIES].filter((country) => !["IS", "LI", "NO"].includes(country))),
    );
  });
});

describe("AWS SCP with allowedLocations", () => {
  const approved = ["aws-s3", "aws-lambda"];

  it("adds a region deny iam-policy accepts, with AWS's global-service exemptions, under the size limit", () => {
    const { policy, characters, notes } = scpPolicy(catalogue, approved, {
      allowedLocations: ["eu-central-1", "eu-west-1"],
    });
    expect(validateServiceControlPolicy(policy)).toEqual([]);
    expect(characters).toBeLessThanOrEqual(SCP_MAX_CHARACTERS);
    expect(policy.Statement).toHaveLength(2);
    const deny = policy.Statement[1]!;
    expect(deny).toMatchObject({ Effect: "Deny", Resource: "*", NotAction: AWS_REGION_DENY_NOT_ACTION });
    expect(regionsOf(policy)).toEqual(["eu-central-1", "eu-west-1"]);
    expect(notes.join(" ")).toMatch(/aws-samples\/service-control-policy-examples\/blob\/35a50b09/);
    expect(notes.join(" ")).toMatch(/cannot cover/);
  });

  it("allows approved actions in an allowed region, denies them elsewhere, and keeps iam:CreateRole usable from anywhere", async () => {
    const { policy } = scpPolicy(catalogue, approved, { allowedLocations: ["eu-central-1", "eu-west-1"] });
    expect(await decide("s3:GetObject", "eu-central-1", [policy])).toBe("Allowed");
    expect(await decide("lambda:InvokeFunction", "eu-west-1", [policy])).toBe("Allowed");
    expect(await decide("s3:GetObject", "us-east-1", [policy])).toBe("ExplicitlyDenied");
    expect(await decide("lambda:InvokeFunction", "ap-southeast-2", [policy])).toBe("ExplicitlyDenied");
    // A global service: its endpoint is in us-east-1, and the exemptions let it through.
    expect(await decide("iam:CreateRole", "us-east-1", [policy])).toBe("Allowed");
    expect(await decide("sts:AssumeRole", "us-east-1", [policy])).toBe("Allowed");
    // Not approved stays denied inside the allowed regions.
    expect(await decide("ec2:RunInstances", "eu-central-1", [policy])).toBe("ExplicitlyDenied");
  });

  it("exempts exemptPrincipalArns from the region deny too", async () => {
    const exempt = "arn:aws:iam::*:role/BreakGlass";
    const { policy } = scpPolicy(catalogue, approved, {
      allowedLocations: ["DE"],
      exemptPrincipalArns: [exempt],
    });
    expect(validateServiceControlPolicy(policy)).toEqual([]);
    expect(policy.Statement[1]!.Condition?.ArnNotLike?.["aws:PrincipalARN"]).toEqual([exempt]);
    const breakGlass = "arn:aws:iam::111122223333:role/BreakGlass";
    expect(await decide("s3:GetObject", "us-east-1", [policy], { principal: breakGlass })).toBe("Allowed");
    expect(await decide("s3:GetObject", "us-east-1", [policy])).toBe("ExplicitlyDenied");
  });

  it("resolves a country and a group to the AWS regions there, in the aws partition", () => {
    const de = scpPolicy(catalogue, approved, { allowedLocations: ["DE"] });
    expect(regionsOf(de.policy)).toEqual(["eu-central-1"]);
    // The European Sovereign Cloud's region is in Germany too, but in its own partition.
    expect(de.notes.join(" ")).toMatch(/Left out of the region deny: eusc-de-east-1/);
    const eu = regionsOf(scpPolicy(catalogue, approved, { allowedLocations: ["EU"] }).policy)!;
    for (const region of ["eu-central-1", "eu-west-1", "eu-west-3", "eu-south-1", "eu-south-2", "eu-north-1"])
      expect(eu).toContain(region);
    for (const region of ["eu-west-2", "eu-central-2", "eusc-de-east-1", "us-east-1"]) expect(eu).not.toContain(region);
  });

  it("answers the aws-eusc partition's SCP for eusc-de-east-1, with arn:aws-eusc exemptions", async () => {
    const exempt = "arn:aws-eusc:iam::*:role/BreakGlass";
    const { policy, notes } = scpPolicy(catalogue, approved, {
      allowedLocations: ["eusc-de-east-1", "DE"],
      exemptPrincipalArns: [exempt],
    });
    expect(validateServiceControlPolicy(policy)).toEqual([]);
    expect(regionsOf(policy)).toEqual(["eusc-de-east-1"]);
    expect(notes.join(" ")).toMatch(/aws-eusc partition/);
    expect(notes.join(" ")).toMatch(/Left out of the region deny: eu-central-1/);
    const app = "arn:aws-eusc:iam::111122223333:role/Developer";
    expect(await decide("s3:GetObject", "eusc-de-east-1", [policy], { principal: app })).toBe("Allowed");
    expect(await decide("s3:GetObject", "eu-central-1", [policy], { principal: app })).toBe("ExplicitlyDenied");
  });

  it("refuses regions of two partitions, and exemptions of another partition than the regions'", () => {
    const mixed = refusal(() =>
      scpPolicy(catalogue, approved, { allowedLocations: ["eusc-de-east-1", "eu-central-1"] }),
    );
    expect(mixed.title).toBe("Invalid request");
    expect(mixed.message).toMatch(/two AWS partitions.*one partition's organization/);
    const foreign = refusal(() =>
      scpPolicy(catalogue, approved, {
        allowedLocations: ["eusc-de-east-1"],
        exemptPrincipalArns: ["arn:aws:iam::*:role/BreakGlass"],
      }),
    );
    expect(foreign.title).toBe("Invalid request");
    expect(foreign.message).toMatch(/not of the aws-eusc partition/);
  });

  it("puts the region deny in the first allow-list SCP, which then denies other regions alone", async () => {
    const result = scpPolicy(catalogue, approved, { strategy: "allow-list", allowedLocations: ["eu-west-3"] });
    const scps = result.policies ?? [result.policy];
    for (const scp of scps) {
      expect(validateServiceControlPolicy(scp)).toEqual([]);
      expect(JSON.stringify(scp).length).toBeLessThanOrEqual(SCP_MAX_CHARACTERS);
    }
    expect(regionsOf(scps[0]!)).toEqual(["eu-west-3"]);
    expect(await decide("s3:GetObject", "eu-west-3", scps, { beside: "alone" })).toBe("Allowed");
    expect(await decide("s3:GetObject", "eu-west-1", scps, { beside: "alone" })).toBe("ExplicitlyDenied");
    expect(await decide("iam:CreateRole", "us-east-1", scps, { beside: "alone" })).toBe("Allowed");
  });

  it("refuses an unknown location naming the nearest, and a list with no AWS region", () => {
    const typo = refusal(() => scpPolicy(catalogue, approved, { allowedLocations: ["eu-centrl-1", "XQ", "EUR"] }));
    expect(typo.title).toBe("Unknown locations");
    expect(typo.message).toMatch(/"eu-centrl-1" \(nearest: eu-central-1/);
    expect(typo.message).toMatch(/"XQ"/);
    expect(typo.message).toMatch(/"EUR" \(nearest: EU/);
    const azureOnly = refusal(() => scpPolicy(catalogue, approved, { allowedLocations: ["westeurope"] }));
    expect(azureOnly.title).toBe("Unknown locations");
    expect(azureOnly.message).toMatch(/is or holds a region of AWS/);
  });
});

describe("POST /v1/policies/alpha-scp with allowedLocations", () => {
  it("answers the SCP with its region deny", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      allowedLocations: ["eu-central-1", "westeurope", "europe-west3"],
    });
    expect(response.status).toBe(200);
    expect(regionsOf(response.body as unknown as ScpDocumentT)).toEqual(["eu-central-1"]);
  });

  it("is a 400 for an unknown location, naming it and the nearest", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      allowedLocations: ["westeurop"],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("Unknown locations");
    expect(response.body.details).toMatch(/"westeurop" \(nearest: westeurope/);
  });

  it("is a 400 for regions of two partitions, saying an SCP lives in one", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      allowedLocations: ["eu-central-1", "eusc-de-east-1"],
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toMatch(/one partition's organization/);
  });

  it("is a 400 for a malformed location", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      allowedLocations: ["eu central 1"],
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/allowedLocations/);
  });
});

// ---------------------------------------------------------------------------------------------
// Azure

describe("Azure initiative with allowedLocations", () => {
  const approved = ["azure-blob-storage", "azure-key-vault"];

  it("references the built-in Allowed locations and Allowed locations for resource groups with the Azure regions, and the SDK reads it back unchanged", () => {
    const { policy, notes } = azurePolicySet(catalogue, approved, {
      allowedLocations: ["westeurope", "DE", "eu-central-1"],
    });
    const model = azureSerializer.deserialize(armPolicyMappers.PolicySetDefinition, policy, "policySetDefinition");
    expect(azureSerializer.serialize(armPolicyMappers.PolicySetDefinition, model, "policySetDefinition")).toEqual(
      policy,
    );
    const locations = policy.properties.parameters.allowedLocations!.defaultValue;
    expect(locations).toContain("westeurope");
    expect(locations).toContain("germanywestcentral");
    expect(locations).not.toContain("eu-central-1");
    expect(locations).not.toContain("northeurope");
    const byId = new Map(
      policy.properties.policyDefinitions.map((reference) => [reference.policyDefinitionId, reference]),
    );
    for (const id of [AZURE_ALLOWED_LOCATIONS_DEFINITION, AZURE_ALLOWED_RESOURCE_GROUP_LOCATIONS_DEFINITION])
      expect(byId.get(id)?.parameters).toEqual({
        listOfAllowedLocations: { value: "[parameters('allowedLocations')]" },
      });
    expect(policy.properties.policyDefinitions).toHaveLength(3);
    expect(notes.join(" ")).toMatch(/"global"/);
  });

  it("leaves the initiative as it was without allowedLocations", () => {
    const { policy } = azurePolicySet(catalogue, approved);
    expect(policy.properties.policyDefinitions).toHaveLength(1);
    expect(policy.properties.parameters.allowedLocations).toBeUndefined();
  });

  it("resolves EU to the Azure regions in EU member states only", () => {
    const { policy } = azurePolicySet(catalogue, approved, { allowedLocations: ["EU"] });
    const locations = policy.properties.parameters.allowedLocations!.defaultValue;
    for (const region of ["westeurope", "northeurope", "francecentral", "germanywestcentral", "swedencentral"])
      expect(locations).toContain(region);
    for (const region of ["uksouth", "switzerlandnorth", "norwayeast", "eastus"])
      expect(locations).not.toContain(region);
    const eea = azurePolicySet(catalogue, approved, { allowedLocations: ["EEA"] }).policy;
    expect(eea.properties.parameters.allowedLocations!.defaultValue).toContain("norwayeast");
  });

  it("refuses a list with no Azure region", () => {
    expect(refusal(() => azurePolicySet(catalogue, approved, { allowedLocations: ["eu-central-1"] })).title).toBe(
      "Unknown locations",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Google Cloud

describe("Google Cloud organization policies with allowedLocations", () => {
  const approved = ["gcp-cloud-storage", "gcp-bigquery"];

  it("adds a gcp.resourceLocations policy: Google's EU value group for EU, a region group per region otherwise", () => {
    const result = gcpOrgPolicy(catalogue, approved, { allowedLocations: ["EU", "europe-west6", "westeurope"] });
    expect(result.policies).toHaveLength(2);
    const [services, locations] = result.policies!;
    expect(services).toEqual(result.policy);
    expect(locations!.name).toBe("organizations/ORGANIZATION_ID/policies/gcp.resourceLocations");
    expect(locations!.spec.rules).toEqual([
      // EU and Zürich: Google's EU multi-region, and the dual-regions all in them (Finland +
      // Netherlands, Frankfurt + Zürich), by their own values (issue 124).
      { values: { allowedValues: ["eu", "eur4", "eur8", "in:eu-locations", "in:europe-west6-locations"] } },
    ]);
    expect(result.notes.join(" ")).toMatch(/only the resource types Google lists as supporting it/);
    const de = gcpOrgPolicy(catalogue, approved, { allowedLocations: ["DE"] }).policies![1]!;
    expect(de.spec.rules[0]!.values.allowedValues).toEqual(["in:europe-west10-locations", "in:europe-west3-locations"]);
  });

  it("answers each policy by part, and a 400 without part", async () => {
    const body = { approvedServiceIds: ["gcp-cloud-storage"], allowedLocations: ["europe-west3"] };
    const none = await postToNewApp("/v1/policies/gamma-org-policy", body);
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("Several policies needed");
    const first = await postToNewApp("/v1/policies/gamma-org-policy?part=1", body);
    expect(first.status).toBe(200);
    expect(first.body.name).toBe("organizations/ORGANIZATION_ID/policies/gcp.restrictServiceUsage");
    const second = await postToNewApp("/v1/policies/gamma-org-policy?part=2&organizationId=123456789012", body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      name: "organizations/123456789012/policies/gcp.resourceLocations",
      spec: { rules: [{ values: { allowedValues: ["in:europe-west3-locations"] } }] },
    });
    const explained = await postToNewApp("/v1/policies/gamma-org-policy?explain=true", body);
    expect(explained.status).toBe(200);
    expect(explained.body.policies).toHaveLength(2);
  });

  it("answers both policies in one .tf with format=terraform", async () => {
    const app = await build();
    const response = await app.inject({
      method: "POST",
      url: "/v1/policies/gamma-org-policy?format=terraform",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ approvedServiceIds: ["gcp-cloud-storage"], allowedLocations: ["EU"] }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/resource "google_org_policy_policy" "restrict_service_usage"/);
    expect(response.body).toMatch(/resource "google_org_policy_policy" "resource_locations"/);
    expect(response.body).toMatch(/\/policies\/gcp\.resourceLocations/);
    expect(response.body).toMatch(/"in:eu-locations"/);
  });

  it("is a 400 for an unknown location on the Azure and Google endpoints too", async () => {
    for (const url of ["/v1/policies/beta-policy", "/v1/policies/gamma-org-policy"]) {
      const response = await postToNewApp(url, { approvedServiceIds: ["aws-s3"], allowedLocations: ["europe-wset3"] });
      expect(response.status, url).toBe(400);
      expect(response.body.details, url).toMatch(/"europe-wset3" \(nearest: europe-west3/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Any list of known locations

describe("any list of known locations", () => {
  const regionsOfProvider = (id: string) => catalogue.providerById.get(id)!.file.regions;
  const known = [
    "EU",
    "EEA",
    ...new Set(["aws", "azure", "gcp"].flatMap((id) => regionsOfProvider(id).map((region) => region.country))),
    ...["aws", "azure", "gcp"].flatMap((id) => regionsOfProvider(id).map((region) => region.id)),
  ].filter((location) => location !== "eusc-de-east-1");
  const lists = fc.uniqueArray(fc.constantFrom(...known), { minLength: 1, maxLength: 8 });
  const awsRegions = new Set(
    regionsOfProvider("aws")
      .filter((r) => r.market === "global")
      .map((r) => r.id),
  );
  const azureRegions = new Set(regionsOfProvider("azure").map((r) => r.id));

  it("gives each vendor only its own regions (AWS: its aws partition), or refuses a list with none of them", () => {
    fc.assert(
      fc.property(lists, (allowedLocations) => {
        const outcomes = [
          () => {
            const { policy } = scpPolicy(catalogue, ["aws-s3"], { allowedLocations });
            expect(validateServiceControlPolicy(policy)).toEqual([]);
            for (const region of regionsOf(policy)!) expect(awsRegions.has(region), region).toBe(true);
          },
          () => {
            const { policy } = azurePolicySet(catalogue, ["azure-blob-storage"], { allowedLocations });
            for (const region of policy.properties.parameters.allowedLocations!.defaultValue)
              expect(azureRegions.has(region), region).toBe(true);
          },
          () => {
            const { policies } = gcpOrgPolicy(catalogue, ["gcp-cloud-storage"], { allowedLocations });
            for (const value of policies![1]!.spec.rules[0]!.values.allowedValues)
              expect(value).toMatch(/^(in:[a-z0-9-]+-locations|us|eu|asia|asia1|eur[0-9]|nam[0-9])$/);
          },
        ];
        for (const outcome of outcomes) {
          try {
            outcome();
          } catch (error) {
            if (!(error instanceof PolicyRequestError)) throw error;
            expect(error.title).toBe("Unknown locations");
            expect(error.message).toMatch(/is or holds a region of/);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
