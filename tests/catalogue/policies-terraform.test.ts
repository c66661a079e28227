/**
 * The policies as Terraform/OpenTofu configuration (format=terraform, Accept: text/x-hcl): each
 * .tf parsed with HashiCorp's HCL parser (@cdktf/hcl2json, hcl v2 in WebAssembly), the document
 * inside read back and compared with the JSON document the API answers for the same request.
 */
import { parse } from "@cdktf/hcl2json";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { build, realCatalogue, tempStore, URLS, workerCatalogueSource } from "../helpers/app.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { hclString, scpTerraform } from "../../catalogue/policies/terraform.ts";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";

type Hcl = Record<string, unknown>;
/** A block as hcl2json gives it: a list of one body per occurrence. */
const one = (value: unknown): Hcl => {
  expect(Array.isArray(value) && value.length === 1, JSON.stringify(value)).toBe(true);
  return (value as Hcl[])[0]!;
};
/**
 * A template's literal value: hcl2json keeps templates as written, and in Terraform's JSON syntax
 * as in HCL, $${ and %%{ read as ${ and %{.
 */
const literal = (text: unknown) => String(text).replace(/([$%])\1\{/g, "$1{");
const json = (text: unknown): unknown => JSON.parse(literal(text));

async function post(url: string, body: unknown, accept?: string) {
  const app = await build();
  const response = await app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
    payload: JSON.stringify(body),
  });
  return response;
}

/** The .tf and the JSON document the same request answers without format. */
async function both(path: string, query: string, body: unknown) {
  const tf = await post(`${path}?format=terraform${query ? `&${query}` : ""}`, body);
  expect(tf.statusCode, tf.body).toBe(200);
  expect(tf.headers["content-type"]).toBe("text/x-hcl; charset=utf-8");
  const document = await post(`${path}${query ? `?${query}` : ""}`, body);
  expect(document.statusCode).toBe(200);
  return { hcl: (await parse("policy.tf", tf.body)) as Hcl, document: JSON.parse(document.body) as unknown, tf };
}

const resources = (hcl: Hcl, type: string) => (hcl.resource as Record<string, Record<string, unknown>>)[type]!;

describe("format=terraform", () => {
  it("carries the AWS SCP unchanged into aws_organizations_policy, attached to var.target_id", async () => {
    const body = {
      approvedServiceIds: ["aws-s3", "aws-lambda"],
      exemptPrincipalArns: ["arn:aws:iam::*:role/AWSControlTowerExecution"],
    };
    const { hcl, document, tf } = await both("/v1/policies/alpha-scp", "", body);
    expect(tf.headers["content-disposition"]).toBe('attachment; filename="aws-scp.tf"');
    const policy = one(resources(hcl, "aws_organizations_policy").approved_services);
    expect(policy.type).toBe("SERVICE_CONTROL_POLICY");
    expect(json(policy.content)).toEqual(document);
    const attachment = one(resources(hcl, "aws_organizations_policy_attachment").approved_services);
    expect(attachment).toEqual({
      policy_id: "${aws_organizations_policy.approved_services.id}",
      target_id: "${var.target_id}",
    });
    expect(one((hcl.variable as Hcl).target_id).type).toBe("${string}");
  });

  it("writes the allow-list SCP, and the one part asked for", async () => {
    const body = { approvedServiceIds: ["aws-s3", "aws-ec2"] };
    const { hcl, document } = await both("/v1/policies/alpha-scp", "strategy=allow-list", body);
    expect(json(one(resources(hcl, "aws_organizations_policy").approved_services).content)).toEqual(document);
    const part = await both("/v1/policies/alpha-scp", "strategy=allow-list&part=1", body);
    expect(json(one(resources(part.hcl, "aws_organizations_policy").approved_services_part1).content)).toEqual(
      part.document,
    );
  });

  it("writes every SCP an allow-list needs, each attached to the target, when no part is asked", async () => {
    const aws = realCatalogue()
      .services.filter((service) => service.providerId === "aws")
      .map((service) => service.slug);
    const body = { approvedServiceIds: aws };
    // The bare JSON is a 400 that points to part and explain; the .tf holds them all.
    expect((await post("/v1/policies/alpha-scp?strategy=allow-list", body)).statusCode).toBe(400);
    const tf = await post("/v1/policies/alpha-scp?strategy=allow-list&format=terraform", body);
    expect(tf.statusCode, tf.body).toBe(200);
    const explained = await post("/v1/policies/alpha-scp?strategy=allow-list&explain=true", body);
    const { policies } = JSON.parse(explained.body) as { policies?: unknown[] };
    expect(policies!.length).toBeGreaterThan(1);
    const parsed = (await parse("aws-scp.tf", tf.body)) as Hcl;
    const written = resources(parsed, "aws_organizations_policy");
    const attached = resources(parsed, "aws_organizations_policy_attachment");
    expect(Object.keys(written)).toEqual(policies!.map((_, index) => `approved_services_part${index + 1}`));
    for (const [index, policy] of policies!.entries()) {
      const name = `approved_services_part${index + 1}`;
      expect(json(one(written[name]).content), name).toEqual(policy);
      expect(one(attached[name]).target_id).toBe("${var.target_id}");
    }
  });

  it("carries the Azure initiative into a management group's policy set definition and assignment", async () => {
    const { hcl, document } = await both("/v1/policies/beta-policy", "", {
      approvedServiceIds: ["azure-blob-storage", "azure-virtual-machines"],
    });
    const set = one(resources(hcl, "azurerm_management_group_policy_set_definition").approved_services);
    const references = set.policy_definition_reference as Hcl[];
    expect({
      properties: {
        displayName: set.display_name,
        description: set.description,
        policyType: set.policy_type,
        metadata: json(set.metadata),
        parameters: json(set.parameters),
        policyDefinitions: references.map((reference) => ({
          policyDefinitionReferenceId: reference.reference_id,
          policyDefinitionId: reference.policy_definition_id,
          parameters: json(reference.parameter_values),
        })),
      },
    }).toEqual(document);
    expect(set.management_group_id).toBe("${var.management_group_id}");
    const assignment = one(resources(hcl, "azurerm_management_group_policy_assignment").approved_services);
    expect(assignment.policy_definition_id).toBe(
      "${azurerm_management_group_policy_set_definition.approved_services.id}",
    );
    expect(assignment.management_group_id).toBe("${var.management_group_id}");
    expect(String(assignment.name).length).toBeLessThanOrEqual(24);
  });

  it("carries the GCP organization policy into google_org_policy_policy, named from var.organization_id", async () => {
    for (const query of ["", "organizationId=123456789012"]) {
      const { hcl, document } = await both("/v1/policies/gamma-org-policy", query, {
        approvedServiceIds: ["gcp-gke", "gcp-cloud-storage"],
      });
      const variable = one((hcl.variable as Hcl).organization_id);
      expect(variable.default).toBe(query ? "123456789012" : undefined);
      const organization = query ? "123456789012" : "ORGANIZATION_ID";
      const policy = one(resources(hcl, "google_org_policy_policy").restrict_service_usage);
      const named = (value: unknown) => String(value).replace("${var.organization_id}", organization);
      expect(named(policy.parent)).toBe(`organizations/${organization}`);
      const rules = (one(policy.spec).rules as Hcl[]).map((rule) => ({
        values: { allowedValues: one(rule.values).allowed_values },
      }));
      expect({ name: named(policy.name), spec: { rules } }).toEqual(document);
    }
  });

  it("answers the same .tf from the sidecar's worker thread, where the policy rows run", async () => {
    const run = vi.spyOn(HeavyWorker.prototype, "run");
    onTestFinished(() => run.mockRestore());
    // The worker loads the run's catalogue, as realCatalogue() does, from a build's JSON. It runs
    // already, as after a first request (the first after idle is answered on the main thread).
    const store = await tempStore();
    const heavyWorker = new HeavyWorker(workerCatalogueSource(), URLS, store);
    heavyWorker.warm();
    const worker = await build({ store, heavyWorker });
    const request = {
      method: "POST" as const,
      url: "/v1/policies/beta-policy?format=terraform",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ approvedServiceIds: ["azure-blob-storage"] }),
    };
    const threaded = await worker.inject(request);
    expect(run.mock.calls.some(([operationId]) => operationId === "generateAzurePolicy")).toBe(true);
    expect(threaded.statusCode).toBe(200);
    expect(threaded.headers["content-disposition"]).toBe('attachment; filename="azure-policy-set.tf"');
    expect(threaded.body).toBe((await (await build()).inject(request)).body);
  });

  it("is chosen by Accept: text/x-hcl too, ?format winning", async () => {
    const body = { approvedServiceIds: ["gcp-gke"] };
    const byAccept = await post("/v1/policies/gamma-org-policy", body, "text/x-hcl");
    expect(byAccept.statusCode).toBe(200);
    expect(byAccept.headers["content-type"]).toBe("text/x-hcl; charset=utf-8");
    expect(byAccept.headers.vary).toMatch(/accept/i);
    const json = await post("/v1/policies/gamma-org-policy?format=json", body, "text/x-hcl");
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    const wildcard = await post("/v1/policies/gamma-org-policy", body, "*/*");
    expect(wildcard.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("is refused with explain, and with an unknown format", async () => {
    const body = { approvedServiceIds: ["azure-blob-storage"] };
    const explained = await post("/v1/policies/beta-policy?format=terraform&explain=true", body);
    expect(explained.statusCode).toBe(400);
    expect(JSON.parse(explained.body).details).toMatch(/explain=true answers JSON/);
    const unknown = await post("/v1/policies/beta-policy?format=hcl", body);
    expect(unknown.statusCode).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("declares the .tf as each policy's alternate answer, with format and Accept", () => {
    const doc = openApiDocument(URLS, ENDPOINTS) as unknown as {
      paths: Record<
        string,
        {
          post: {
            parameters: { name: string; in: string; schema?: { enum?: string[] } }[];
            responses: Record<string, { content: Record<string, unknown> }>;
          };
        }
      >;
    };
    for (const path of ["/v1/policies/alpha-scp", "/v1/policies/beta-policy", "/v1/policies/gamma-org-policy"]) {
      const operation = doc.paths[path]!.post;
      expect(Object.keys(operation.responses["200"]!.content), path).toEqual(["application/json", "text/x-hcl"]);
      const format = operation.parameters.find((parameter) => parameter.name === "format");
      expect(format?.schema?.enum, path).toEqual(["json", "terraform"]);
      expect(operation.parameters.some((parameter) => parameter.in === "header" && parameter.name === "accept")).toBe(
        true,
      );
    }
  });
});

describe("the .tf's strings", () => {
  it("keep template sequences literal in a heredoc: an IAM policy variable is not an interpolation", async () => {
    const document: ScpDocumentT = {
      Version: "2012-10-17",
      Statement: [{ Sid: "S", Effect: "Allow", Action: ["s3:*"], Resource: "*" }],
    };
    // Not an SCP the API writes (no ARN pattern takes a $): the heredoc's escaping on its own.
    const tricky = { ...document, Statement: [{ ...document.Statement[0]!, Sid: "${aws:username} %{x} $${y}" }] };
    const hcl = (await parse("t.tf", scpTerraform([tricky], { strategy: "allow-list" }))) as Hcl;
    expect(json(one(resources(hcl, "aws_organizations_policy").approved_services).content)).toEqual(tricky);
  });

  it("reads back as the string it quotes, template sequences and control characters included", async () => {
    for (const value of [
      'a "b" \\ c',
      "${aws:username}",
      "%{ if }",
      "$${x}",
      "tab\tnew\nline\u0008\u000c\u007f",
      "ü €",
    ]) {
      const parsed = (await parse("t.tf", `x = ${hclString(value)}\n`)) as Hcl;
      expect(literal(parsed.x), value).toBe(value);
    }
  });
});
