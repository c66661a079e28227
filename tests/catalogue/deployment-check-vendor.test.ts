/**
 * Issue 96, "Shown by": the deployment check on eight vendor deployments vendored in 2026-11
 * (tests/fixtures/deployments/vendor-2026-11/: four of aws-samples/serverless-patterns, four of
 * Azure/azure-quickstart-templates, one with nested deployments), each with the list a platform
 * engineer would write for it (expectations.json, written before the test). The check runs with that
 * list and again with its suggestedServiceIds; every verdict is then evaluated by what nobody here
 * wrote: @cloud-copilot/iam-simulate under the generated allow-list SCPs (AWS), and the built-in
 * "Allowed resource types" rule Azure Policy applies, as Microsoft publishes it, evaluated type by
 * type in Indexed mode (Azure). The resource types are listed by walking each file here, not by
 * the check's reader, so a type the reader misses shows.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import type { PolicyVerdict } from "../../catalogue/templates/check.ts";
import { triggeredNeeds } from "../../catalogue/templates/rules/needs.ts";
import { deploymentRequirements } from "../../catalogue/templates/rules/policies.ts";
import { templateIndex } from "../../catalogue/templates/index.node.ts";
import { readDeployment } from "../../catalogue/templates/read.ts";
import { realCatalogue } from "../helpers/app.ts";
import {
  armTypes,
  awsSimulator,
  azurePolicyDenies as ruleDenies,
  table,
  type ArmResource,
} from "../helpers/vendor-verdicts.ts";

const catalogue = realCatalogue();
const index = templateIndex(catalogue);
const FOLDER = new URL("../fixtures/deployments/vendor-2026-11/", import.meta.url);

interface Expectation {
  readonly id: string;
  readonly providerId: "aws" | "azure";
  readonly file: string;
  readonly approved: readonly string[];
  readonly expected: {
    readonly firstList: "allowed" | "denied";
    readonly afterSuggestions: "allowed";
    readonly suggestedAdds: readonly string[];
  };
}
const { deployments } = JSON.parse(readFileSync(new URL("expectations.json", FOLDER), "utf8")) as {
  deployments: Expectation[];
};
const text = (entry: Expectation) => readFileSync(new URL(entry.file, FOLDER), "utf8");

// --- AWS: iam-simulate under the generated SCPs; Azure: the built-in rule (helpers/vendor-verdicts.ts)

const { allows: simulatorAllows, allowsAll: simulatorAllowsAll } = awsSimulator(catalogue);
const azurePolicyDenies = (type: string, ids: readonly string[]) => ruleDenies(catalogue, index, type, ids);

/** The CloudFormation resource types the file declares (a `Type: AWS::…` line), read here without the check. */
const cloudFormationTypes = (source: string) =>
  new Set([...source.matchAll(/^\s+Type:\s*["']?(AWS::[A-Za-z0-9]+::[A-Za-z0-9]+)/gm)].map((match) => match[1]!));

// --- The check, before and after, and the vendors' semantics -----------------------------------

interface Row {
  deployment: string;
  listSize: number;
  before: string;
  added: readonly string[];
  after: string;
  agrees: boolean;
}
const rows: Row[] = [];
const said = (verdict: PolicyVerdict) =>
  verdict.allowed ? "allowed" : verdict.notEvaluated?.length ? "notEvaluated" : `denied (${verdict.denied.length})`;

afterAll(() => {
  const header = ["deployment", "list", "verdict before", "suggested added", "verdict after", "external tool agrees"];
  const lines = rows.map((row) => [
    row.deployment,
    String(row.listSize),
    row.before,
    row.added.join(", ") || "—",
    row.after,
    row.agrees ? "Y" : "N",
  ]);
  console.log(table(header, lines));
});

describe("the vendored deployments of 2026-11", () => {
  it("are four AWS and four Azure ones, each with its source and licence beside it", () => {
    expect(deployments.map((entry) => entry.providerId).sort()).toEqual([
      ...Array(4).fill("aws"),
      ...Array(4).fill("azure"),
    ]);
    for (const entry of deployments) {
      const source = readFileSync(new URL(`${entry.id}/SOURCE.md`, FOLDER), "utf8");
      expect(source, entry.id).toMatch(/Commit: `[0-9a-f]{40}`/);
      expect(source, entry.id).toMatch(/Licence: (MIT-0|MIT) \(`\.\.\/LICENSE-[a-z-]+`/);
      for (const id of entry.approved) expect(catalogue.bySlug.has(id), id).toBe(true);
    }
    // At least one Azure template deploys through a nested deployment.
    expect(
      deployments.some(
        (entry) => entry.providerId === "azure" && text(entry).includes('"Microsoft.Resources/deployments"'),
      ),
    ).toBe(true);
  });
});

describe.each(deployments.map((entry) => [entry.id, entry] as const))("%s", (_id, entry) => {
  it("verdict from the user's list, then from suggestedServiceIds, each agreeing with the vendor's semantics", async () => {
    const source = text(entry);
    const deployment = readDeployment(source);
    const first = checkTemplate(catalogue, source, entry.approved);
    const [before, suggestionsVerdict] = first.verdicts.filter((verdict) => verdict.providerId === entry.providerId);
    expect(before, "a verdict from the user's list").toBeDefined();

    // Every resource type of the file (walked here) is read by the check.
    const readTypes = new Set(deployment.items.map((item) => item.item.toLowerCase()));
    const fileTypes =
      entry.providerId === "azure"
        ? armTypes((JSON.parse(source) as { resources: ArmResource[] }).resources)
        : cloudFormationTypes(source);
    for (const type of fileTypes) {
      const serverless = type.startsWith("AWS::Serverless::");
      const read = serverless
        ? deployment.expanded.some((line) => line.startsWith(`${type} →`))
        : readTypes.has(type.toLowerCase());
      expect(read, `${type} read`).toBe(true);
    }

    const required = [
      ...deploymentRequirements(index, deployment, triggeredNeeds(deployment, index))
        .byVendor.get(entry.providerId)!
        .values(),
    ].map((need) => need.identifier);
    expect(required.length).toBeGreaterThan(0);

    // The check's suggestions, used as the list: allowed, nothing missing.
    const suggested = first.suggestedServiceIds;
    const second = checkTemplate(catalogue, source, suggested);
    const after = second.verdicts.find((verdict) => verdict.providerId === entry.providerId)!;
    expect(after.allowed, `allowed with [${suggested.join(", ")}]`).toBe(true);
    expect(second.missingServiceIds).toEqual([]);
    // The first answer's own verdict from its suggestions (none when the list was already allowed).
    const fromSuggestions = suggestionsVerdict ?? before!;
    expect(fromSuggestions.allowed).toBe(true);
    expect(fromSuggestions.approvedServiceIds).toEqual(suggested);

    // The vendor's semantics, identifier by identifier, for both lists.
    const disagreements: string[] = [];
    const deniedBefore = new Set(before!.denied.map((denied) => denied.identifier.toLowerCase()));
    const identifiers = entry.providerId === "azure" ? [...fileTypes] : required;
    for (const identifier of identifiers) {
      const engineBefore =
        entry.providerId === "aws"
          ? await simulatorAllowsAll(identifier, entry.approved)
          : !azurePolicyDenies(identifier, entry.approved);
      if (engineBefore === deniedBefore.has(identifier.toLowerCase()))
        disagreements.push(
          `${identifier} under the user's list: check ${engineBefore ? "denies" : "allows"} it, the engine the opposite`,
        );
      const engineAfter =
        entry.providerId === "aws"
          ? await simulatorAllowsAll(identifier, suggested)
          : !azurePolicyDenies(identifier, suggested);
      if (!engineAfter) disagreements.push(`${identifier} denied by the engine under suggestedServiceIds`);
    }
    // Azure: what the check required is what the file holds (nothing needed beyond its types here).
    if (entry.providerId === "azure")
      for (const type of required)
        expect(
          [...fileTypes].map((fileType) => fileType.toLowerCase()),
          `${type} is a type of the file`,
        ).toContain(type.toLowerCase());

    const added = suggested.filter((id) => !entry.approved.includes(id));
    rows.push({
      deployment: entry.id,
      listSize: entry.approved.length,
      before: said(before!),
      added,
      after: said(after),
      agrees: disagreements.length === 0,
    });
    expect(disagreements).toEqual([]);
    expect(before!.allowed ? "allowed" : "denied", "the expected verdict from the user's list").toBe(
      entry.expected.firstList,
    );
    expect(added, "what the check adds").toEqual(entry.expected.suggestedAdds);
    expect(first.missingServiceIds).toEqual(entry.expected.suggestedAdds);
    // Nothing the first list denies is left unexplained: each has services that would allow it.
    for (const denied of before!.denied) expect(denied.approve.length, denied.identifier).toBeGreaterThan(0);
  });
});

/**
 * From an empty list the check suggests what the deployment's services and needs take, no more:
 * before, the actions a Lambda function's or a DynamoDB table's CloudFormation handler may call
 * (ec2:Describe*, kms:, kinesis:, elasticfilesystem:) each got a service of their own (aws-client-vpn,
 * the first of the seven sharing the ec2 prefix, aws-kms, aws-kinesis-data-streams, aws-efs…) though
 * aws-lambda's and aws-dynamodb's documents, being added, already allow them.
 */
const FROM_NOTHING: Record<string, readonly string[]> = {
  "aws-apigw-lambda-dynamodb": [
    "aws-api-gateway",
    "aws-cloudformation",
    "aws-dynamodb",
    "aws-iam",
    "aws-lambda",
    "aws-s3",
  ],
  "aws-apigw-sfn-crud": [
    "aws-api-gateway",
    "aws-cloudformation",
    "aws-cloudwatch-logs",
    "aws-dynamodb",
    "aws-iam",
    "aws-s3",
    "aws-step-functions",
  ],
  "aws-apigw-vpclink-alb-ecs": [
    "aws-api-gateway",
    "aws-cloudformation",
    "aws-cloudwatch-logs",
    "aws-ec2",
    "aws-ecs",
    "aws-elb",
    "aws-iam",
    "aws-s3",
  ],
  "aws-apigw-rest-api-eventbridge-sqs": [
    "aws-api-gateway",
    "aws-cloudformation",
    "aws-cloudwatch-logs",
    "aws-eventbridge",
    "aws-iam",
    "aws-lambda",
    "aws-s3",
    "aws-sqs",
  ],
};

describe.each(Object.entries(FROM_NOTHING))("%s from an empty list", (id, expected) => {
  it("suggests only the services it uses and its needs' services, and iam-simulate allows every action under them", async () => {
    const entry = deployments.find((candidate) => candidate.id === id)!;
    const source = text(entry);
    const answer = checkTemplate(catalogue, source, []);
    expect(answer.missingServiceIds).toEqual(expected);
    expect(answer.suggestedServiceIds).toEqual(expected);
    const used = new Set([...answer.services.map((service) => service.id), "aws-s3", "aws-cloudformation"]);
    for (const suggested of answer.suggestedServiceIds) expect(used.has(suggested), suggested).toBe(true);
    const deployment = readDeployment(source);
    const required = deploymentRequirements(index, deployment, triggeredNeeds(deployment, index)).byVendor.get("aws")!;
    const refused: string[] = [];
    for (const { identifier } of required.values())
      if (!(await simulatorAllowsAll(identifier, answer.suggestedServiceIds))) refused.push(identifier);
    expect(refused).toEqual([]);
    expect(answer.verdicts.at(-1)!.allowed).toBe(true);
  });
});

/**
 * The user's lists allow every Azure sample, so the rule's deny is exercised with each service of
 * the list left out in turn (a list a user might write): every type the check denies, the built-in
 * rule denies, and every type it allows, the rule lets through.
 */
describe.each(deployments.filter((entry) => entry.providerId === "azure").map((entry) => [entry.id, entry] as const))(
  "%s with one service of the list left out",
  (_id, entry) => {
    it("denies what Azure Policy's rule denies, type by type, and nothing else", () => {
      const source = text(entry);
      const types = armTypes((JSON.parse(source) as { resources: ArmResource[] }).resources);
      let denials = 0;
      for (const left of entry.approved) {
        const list = entry.approved.filter((id) => id !== left);
        const verdict = checkTemplate(catalogue, source, list).verdicts.find((each) => each.providerId === "azure")!;
        const denied = new Set(verdict.denied.map((each) => each.identifier.toLowerCase()));
        for (const type of types)
          expect(denied.has(type.toLowerCase()), `${type} without ${left}`).toBe(azurePolicyDenies(type, list));
        denials += denied.size;
      }
      expect(denials, "some list denies something").toBeGreaterThan(0);
    });
  },
);

describe("the ECS sample's run-time calls", () => {
  // An SCP binds the task execution role too: pulling the ECR image (ECRImageURI) and writing the
  // awslogs stream are that role's calls when a task starts, after the stack's own calls succeed.
  const RUN_TIME = [
    "ecr:GetAuthorizationToken",
    "ecr:BatchCheckLayerAvailability",
    "ecr:GetDownloadUrlForLayer",
    "ecr:BatchGetImage",
    "logs:CreateLogStream",
    "logs:PutLogEvents",
  ];

  it("are the ones its execution role's own policy grants, and aws-ecs's document allows them without aws-ecr", async () => {
    const entry = deployments.find((candidate) => candidate.id === "aws-apigw-vpclink-alb-ecs")!;
    const source = text(entry);
    for (const action of RUN_TIME) expect(source).toContain(`- ${action}`);
    const list = entry.approved.filter((id) => id !== "aws-ecr" && id !== "aws-fargate");
    const answer = checkTemplate(catalogue, source, [...list, "aws-s3"]);
    expect(answer.verdicts[0]!.allowed).toBe(true);
    const refused: string[] = [];
    for (const action of RUN_TIME) if (!(await simulatorAllows(action, [...list, "aws-s3"]))) refused.push(action);
    expect(refused).toEqual([]);
    // Without aws-ecs nothing brings them: the simulator refuses the pull.
    expect(await simulatorAllows("ecr:BatchGetImage", ["aws-vpc", "aws-elb", "aws-s3"])).toBe(false);
  });
});
