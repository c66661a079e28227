/**
 * Issue 96, "True verdicts": what the deployment check says is denied, missing or needed is what the
 * documents and the vendors' pages say, no more: an API the constraint does not govern is never
 * denied, every service the verdict needs is in missingServiceIds, a tool's needs are not the
 * deployment's, a template's runtime needs are read from its properties, and what was not read
 * (a linked template) is said so rather than allowed.
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { templateIndex } from "../../catalogue/templates/index.node.ts";
import { whatToAdd } from "../../catalogue/templates/answer/render.ts";
import { readDeployment } from "../../catalogue/templates/read.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("missingServiceIds holds every service whose approval the verdict needs", () => {
  it("a list without aws-cloudformation: the stack operations are denied, and aws-cloudformation is missing", () => {
    const answer = checkTemplate(catalogue, { Resources: { Bucket: { Type: "AWS::S3::Bucket" } } }, ["aws-s3"]);
    const [first, last] = answer.verdicts;
    expect(first!.denied.map((entry) => entry.identifier)).toContain("cloudformation:CreateStack");
    expect(answer.missingServiceIds).toEqual(["aws-cloudformation"]);
    expect(answer.suggestedServiceIds).toEqual(["aws-cloudformation", "aws-s3"]);
    expect(last!.allowed).toBe(true);
    expect(whatToAdd(answer)).toBe("Add to your list: aws-cloudformation.");
  });

  it("the sentence never says the list holds every service while something stays denied", () => {
    const denied = {
      providerId: "gcp" as const,
      approvedServiceIds: ["gcp-eventarc"],
      allowed: false,
      checked: 2,
      denied: [{ identifier: "x.googleapis.com", neededFor: ["x.googleapis.com"], approve: [] }],
      wider: [],
    };
    expect(whatToAdd({ missingServiceIds: [], verdicts: [denied] })).toBe(
      "No catalogue service would allow what stays denied: x.googleapis.com.",
    );
    expect(whatToAdd({ missingServiceIds: [], verdicts: [{ ...denied, allowed: true, denied: [] }] })).toBe(
      "Your list holds every service this deployment uses.",
    );
  });
});

describe("Google: an API gcp.restrictServiceUsage does not govern is never denied", () => {
  const index = templateIndex(catalogue);

  it("APIs nothing can approve and the supported list does not name are listed as not governed, with why", () => {
    const apis = [
      "run.googleapis.com",
      "cloudapis.googleapis.com",
      "storage-api.googleapis.com",
      "storage-component.googleapis.com",
      "sql-component.googleapis.com",
      "firebase.googleapis.com",
    ];
    const answer = checkTemplate(catalogue, apis, ["gcp-cloud-run"]);
    const [first] = answer.verdicts;
    expect(first!.denied).toEqual([]);
    expect(first!.allowed).toBe(true);
    expect(first!.notGoverned.map((entry) => entry.identifier)).toEqual(apis.slice(1).sort());
    for (const entry of first!.notGoverned) expect(entry.reason).toContain("gcp-restrict-service-usage.txt");
    expect(answer.missingServiceIds).toEqual([]);
    const said = answer.statements.find((statement) => statement.kind === "not-governed")!;
    expect(said.text).toContain("5 APIs this deployment needs are not governed by gcp.restrictServiceUsage");
    expect(said.checked).toContain(
      "https://cloud.google.com/resource-manager/docs/organization-policy/restricting-resources-supported-services",
    );
  });

  it("an API the vendored list would hold and does not is not governed, even when a service could approve it", () => {
    const unlisted = "bigqueryml.googleapis.com";
    expect(index.gcpGoverned(unlisted)).toBe(false);
    expect(index.gcpGoverned("bigquery.googleapis.com")).toBe(true);
    // Past the vendored part, only a service's own confirmation decides.
    expect(index.gcpGoverned("cloudapis.googleapis.com")).toBeUndefined();
    expect(index.gcpGoverned("storage.googleapis.com")).toBe(true);
  });

  it("an API the constraint governs stays denied, even when nothing can approve it", () => {
    const listed = "automotiveaiagent.googleapis.com";
    expect(index.gcpGoverned(listed)).toBe(true);
    const answer = checkTemplate(catalogue, ["run.googleapis.com", listed], ["gcp-cloud-run"]);
    expect(answer.verdicts[0]!.denied.map((entry) => entry.identifier)).toEqual([listed]);
    expect(answer.verdicts[0]!.notGoverned).toEqual([]);
  });
});

describe("a tool's needs are not the deployment's", () => {
  it("sam logs (logs:FilterLogEvents) is a tool need of a SAM template, and no verdict denies it", () => {
    const template = {
      Transform: "AWS::Serverless-2016-10-31",
      Resources: { Fn: { Type: "AWS::Serverless::Function", Properties: { Runtime: "python3.12", Role: "arn" } } },
    };
    const answer = checkTemplate(catalogue, template, ["aws-lambda", "aws-cloudformation", "aws-s3"]);
    expect(answer.implicitNeeds.map((need) => need.id)).not.toContain("sam-logs");
    expect(answer.toolNeeds.map((need) => [need.id, need.identifiers, need.approve])).toEqual([
      ["sam-logs", ["logs:FilterLogEvents"], ["aws-cloudwatch-logs"]],
    ]);
    for (const verdict of answer.verdicts)
      expect(verdict.denied.map((entry) => entry.identifier)).not.toContain("logs:FilterLogEvents");
    expect(answer.missingServiceIds).not.toContain("aws-cloudwatch-logs");
    const said = answer.statements.find((statement) => statement.text.startsWith("A tool need, not the deployment's"));
    expect(said?.text).toContain("sam logs");
    expect(said?.text).toContain("no verdict counts it");
  });
});

describe("what was not read is said so, never allowed", () => {
  const linked = (extra: object[] = []) => ({
    $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
    contentVersion: "1.0.0.0",
    resources: [
      ...extra,
      {
        type: "Microsoft.Resources/deployments",
        apiVersion: "2022-09-01",
        name: "linkedTemplate",
        properties: {
          mode: "Incremental",
          templateLink: { uri: "https://mystorageaccount.blob.core.windows.net/AzureTemplates/newStorageAccount.json" },
        },
      },
    ],
  });

  it("an ARM linked template (templateLink) is listed in notEvaluated, and the Azure verdict is not allowed", () => {
    const answer = checkTemplate(catalogue, linked(), ["azure-blob-storage"]);
    expect(answer.notEvaluated).toEqual([
      "linkedTemplate: linked template https://mystorageaccount.blob.core.windows.net/AzureTemplates/newStorageAccount.json (resources[0].properties.templateLink)",
    ]);
    const azure = answer.verdicts.filter((verdict) => verdict.providerId === "azure");
    expect(azure.length).toBeGreaterThan(0);
    for (const verdict of azure) {
      expect(verdict.allowed).toBe(false);
      expect(verdict.notEvaluated).toEqual(answer.notEvaluated);
    }
    const said = answer.statements.filter((statement) => statement.kind === "not-evaluated");
    expect(said.map((statement) => statement.text).join(" ")).toContain("1 linked template was not read");
    expect(answer.statements.find((statement) => statement.kind === "verdict")!.text).toContain("no verdict is given");
    expect(whatToAdd(answer)).toContain("Part of the deployment was not read");
  });

  it("what was read beside it is still checked, and an inline nested template is read as before", () => {
    const storage = { type: "Microsoft.Storage/storageAccounts", name: "sa", location: "westeurope" };
    const answer = checkTemplate(catalogue, linked([storage]), ["azure-blob-storage"]);
    expect(answer.services.map((service) => service.id)).toContain("azure-blob-storage");
    expect(answer.verdicts[0]!.denied).toEqual([]);
    expect(answer.verdicts[0]!.allowed).toBe(false);
    const inline = {
      ...linked(),
      resources: [
        {
          type: "Microsoft.Resources/deployments",
          name: "inline",
          properties: { mode: "Incremental", template: { resources: [storage] } },
        },
      ],
    };
    const read = checkTemplate(catalogue, inline, ["azure-blob-storage"]);
    expect(read.notEvaluated).toEqual([]);
    expect(read.verdicts[0]!.allowed).toBe(true);
  });
});

describe("Fn::ForEach and YAML merge keys: every resource is read", () => {
  it("expands Fn::ForEach over a literal collection, each output resource's type read (nested loops too)", () => {
    const template = {
      Transform: "AWS::LanguageExtensions",
      Resources: {
        "Fn::ForEach::Topics": [
          "TopicName",
          ["Success", "Failure"],
          {
            "SnsTopic${TopicName}": {
              Type: "AWS::SNS::Topic",
              Properties: { TopicName: { "Fn::Sub": "${TopicName}" } },
            },
            "Fn::ForEach::Queues": ["Queue", ["A", "B"], { "Queue${TopicName}${Queue}": { Type: "AWS::SQS::Queue" } }],
          },
        ],
      },
    };
    const deployment = readDeployment(template);
    expect(deployment.items.map((item) => [item.item, item.from])).toEqual([
      ["AWS::SNS::Topic", ["SnsTopicSuccess", "SnsTopicFailure"]],
      ["AWS::SQS::Queue", ["QueueSuccessA", "QueueSuccessB", "QueueFailureA", "QueueFailureB"]],
    ]);
    expect(deployment.loops).toBeUndefined();
    const answer = checkTemplate(catalogue, template, ["aws-sns", "aws-sqs", "aws-cloudformation"]);
    expect(answer.services.map((service) => service.id)).toEqual(["aws-sns", "aws-sqs"]);
  });

  it("a collection given by Ref still yields each resource type once, and a statement says the loop was not expanded", () => {
    const template = {
      Transform: "AWS::LanguageExtensions",
      Parameters: { Names: { Type: "CommaDelimitedList" } },
      Resources: {
        "Fn::ForEach::Buckets": ["Name", { Ref: "Names" }, { "Bucket${Name}": { Type: "AWS::S3::Bucket" } }],
      },
    };
    const answer = checkTemplate(catalogue, template, ["aws-s3", "aws-cloudformation"]);
    expect(answer.services.map((service) => [service.id, service.items.map((item) => item.item)])).toEqual([
      ["aws-s3", ["AWS::S3::Bucket"]],
    ]);
    const said = answer.statements.find((statement) => statement.text.includes("Fn::ForEach"))!;
    expect(said.kind).toBe("read");
    expect(said.text).toContain("Buckets (its collection depends on parameter Names, which the input gives no value");
    // Given the parameter, the loop is expanded: one bucket per name.
    const given = checkTemplate(catalogue, template, ["aws-s3"], undefined, undefined, {
      inputs: { Names: "logs,data" },
    });
    expect(given.services[0]!.items[0]!.from).toEqual(["Bucketlogs", "Bucketdata"]);
    expect(given.statements.some((statement) => statement.text.includes("Fn::ForEach"))).toBe(false);
  });

  it("reads a whole resource defined by a YAML merge key (<<: *anchor)", () => {
    const yaml = [
      "Resources:",
      "  First: &queue",
      "    Type: AWS::SQS::Queue",
      "  Second:",
      "    <<: *queue",
      "  Topic:",
      "    <<: &topic",
      "      Type: AWS::SNS::Topic",
      "",
    ].join("\n");
    const deployment = readDeployment(yaml);
    expect(deployment.items.map((item) => [item.item, item.from])).toEqual([
      ["AWS::SNS::Topic", ["Topic"]],
      ["AWS::SQS::Queue", ["First", "Second"]],
    ]);
  });
});

describe("runtime needs the template shows are read from its properties", () => {
  // AWS's task-definition example for the awslogs driver (AmazonECS developer guide, using_awslogs).
  const taskDefinition = (create: unknown) => ({
    Resources: {
      Task: {
        Type: "AWS::ECS::TaskDefinition",
        Properties: {
          ContainerDefinitions: [
            {
              Name: "app",
              Image: "public.ecr.aws/docker/library/httpd:latest",
              LogConfiguration: {
                LogDriver: "awslogs",
                Options: {
                  "awslogs-create-group": create,
                  "awslogs-group": "firelens-container",
                  "awslogs-region": "us-west-2",
                  "awslogs-stream-prefix": "firelens",
                },
              },
            },
          ],
        },
      },
    },
  });

  it('an ECS task definition with awslogs-create-group "true" needs logs:CreateLogGroup, with the vendor page', () => {
    const answer = checkTemplate(catalogue, taskDefinition("true"), ["aws-ecs", "aws-cloudformation"]);
    const need = answer.implicitNeeds.find((row) => row.id === "ecs-awslogs-create-group")!;
    expect(need.identifiers).toEqual(["logs:CreateLogGroup"]);
    expect(need.source.url).toBe("https://docs.aws.amazon.com/AmazonECS/latest/developerguide/using_awslogs.html");
    const [first, last] = answer.verdicts;
    expect(first!.denied.find((entry) => entry.identifier === "logs:CreateLogGroup")?.neededFor).toEqual([
      "ecs-awslogs-create-group",
    ]);
    expect(answer.missingServiceIds).toContain("aws-cloudwatch-logs");
    expect(last!.denied.map((entry) => entry.identifier)).not.toContain("logs:CreateLogGroup");
  });

  it("the same task definition without it (or false) needs nothing more", () => {
    for (const create of [false, "false", undefined]) {
      const answer = checkTemplate(catalogue, taskDefinition(create), ["aws-ecs", "aws-cloudformation"]);
      expect(answer.implicitNeeds.map((row) => row.id)).not.toContain("ecs-awslogs-create-group");
    }
  });
});
