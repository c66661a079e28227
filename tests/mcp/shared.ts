/**
 * The cases both transports run (stdio.test.ts, http.test.ts): every tool with valid input, whose
 * structured answer must equal the API's JSON for the same request (app.inject), and with invalid
 * input, which must be a tool error (never a crash or a protocol error) carrying the API's Error
 * body where the API has the same request; resources and prompts listed and read.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { RELEASE_META } from "../../mcp/resources.ts";
import { catalogueRelease, releaseLine } from "../../mcp/text.ts";
import { inMcpTerms } from "../../mcp/server.ts";

export interface ApiRequest {
  readonly method?: "GET" | "POST";
  readonly url: string;
  readonly payload?: unknown;
}

export interface ToolCase {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The same question to the API; absent where only the tool's own schema can refuse it. */
  readonly api?: ApiRequest;
  /** What the error text must say when there is no API twin. */
  readonly says?: RegExp;
}

const storage = ["aws-s3", "azure-blob-storage", "gcp-cloud-storage"];
const eleven = [
  "aws-s3",
  "aws-ec2",
  "aws-lambda",
  "aws-sqs",
  "aws-sns",
  "aws-dynamodb",
  "gcp-bigquery",
  "gcp-cloud-storage",
].concat(["azure-blob-storage", "azure-functions", "azure-service-bus"]);

export const VALID: readonly ToolCase[] = [
  {
    tool: "search_services",
    args: { query: "object storage", provider: "aws", limit: 5 },
    api: { url: "/v1/services?q=object%20storage&provider=aws&limit=5" },
  },
  {
    tool: "search_services",
    args: { lifecycle: "retired", freeTier: false, page: 1, limit: 3 },
    api: { url: "/v1/services?lifecycle=retired&freeTier=false&page=1&limit=3" },
  },
  // equivalentsLimit 500 and a maxLength it fits in: every equivalent, the API's answer (the default cut: answers.test.ts).
  {
    tool: "get_service",
    args: { slug: "aws-s3", equivalentsLimit: 500, maxLength: 1_000_000 },
    api: { url: "/v1/services/aws-s3" },
  },
  { tool: "compare_services", args: { ids: storage }, api: { url: `/v1/compare?ids=${storage.join(",")}` } },
  { tool: "exposure_scorecard", args: { ids: storage }, api: { url: `/v1/exposure?ids=${storage.join(",")}` } },
  {
    tool: "lifecycle_upcoming",
    // limit 100: the whole answer, the API's (the default page: answers.test.ts).
    args: { withinDays: 365, provider: "gcp", limit: 100 },
    api: { url: "/v1/lifecycle?within=365d&provider=gcp" },
  },
  {
    tool: "lifecycle_upcoming",
    // maxLength: the 33 entries and their Markdown pass the default 40,000 characters (parts: answers.test.ts).
    args: { status: "deprecated", limit: 100, maxLength: 1_000_000 },
    api: { url: "/v1/lifecycle?status=deprecated" },
  },
  {
    tool: "generate_policy",
    args: { format: "scp", approvedServiceIds: ["aws-s3", "aws-lambda"], explain: true },
    api: {
      method: "POST",
      url: "/v1/policies/alpha-scp?explain=true",
      payload: { approvedServiceIds: ["aws-s3", "aws-lambda"] },
    },
  },
  {
    tool: "generate_policy",
    args: { format: "azure", approvedServiceIds: ["azure-blob-storage"], essentials: false },
    api: {
      method: "POST",
      url: "/v1/policies/beta-policy?essentials=false",
      payload: { approvedServiceIds: ["azure-blob-storage"] },
    },
  },
  {
    tool: "generate_policy",
    args: { format: "gcp", approvedServiceIds: ["gcp-cloud-storage"], organizationId: "123456789012" },
    api: {
      method: "POST",
      url: "/v1/policies/gamma-org-policy?organizationId=123456789012",
      payload: { approvedServiceIds: ["gcp-cloud-storage"] },
    },
  },
  {
    tool: "exit_plan",
    // detail: "full" (in one part) is the API's answer; the default summary is checked in answers.test.ts.
    args: {
      approvedServiceIds: ["aws-s3", "aws-ec2", "aws-sqs"],
      to: { sovereignOption: true },
      detail: "full",
      maxLength: 1_000_000,
    },
    api: {
      method: "POST",
      url: "/v1/exit-plan",
      payload: { approvedServiceIds: ["aws-s3", "aws-ec2", "aws-sqs"], to: { sovereignOption: true } },
    },
  },
  {
    tool: "check_deployment",
    args: { template: ["run.googleapis.com", "eventarc.googleapis.com"], approvedServiceIds: ["gcp-cloud-run"] },
    api: {
      method: "POST",
      url: "/v1/deployments/check",
      payload: { template: ["run.googleapis.com", "eventarc.googleapis.com"], approvedServiceIds: ["gcp-cloud-run"] },
    },
  },
  // The DORA register (1.13.0): the API's answer for the same list, places, target and entity.
  {
    tool: "dora_register",
    args: {
      approvedServiceIds: ["aws-s3", "ovhcloud-object-storage"],
      allowedLocations: ["EU"],
      to: { jurisdictions: ["EU"] },
      entity: { lei: "EXAMPLEBANK000000014", referenceDate: "2026-12-31" },
      maxLength: 1_000_000,
    },
    api: {
      method: "POST",
      url: "/v1/register",
      payload: {
        approvedServiceIds: ["aws-s3", "ovhcloud-object-storage"],
        allowedLocations: ["EU"],
        to: { jurisdictions: ["EU"] },
        entity: { lei: "EXAMPLEBANK000000014", referenceDate: "2026-12-31" },
      },
    },
  },
  // The list filters of 1.11.0: the same lists as the query's comma-separated values.
  {
    tool: "search_services",
    args: { compliance: ["C5", "ens-high"], jurisdiction: ["us"], limit: 5 },
    api: { url: "/v1/services?compliance=C5,ens-high&jurisdiction=us&limit=5" },
  },
  // Provider-wide holdings only when asked (1.12.0).
  {
    tool: "search_services",
    args: { compliance: ["hds"], complianceScope: "all", limit: 5 },
    api: { url: "/v1/services?compliance=hds&complianceScope=all&limit=5" },
  },
  {
    tool: "search_services",
    args: { jurisdiction: ["EU", "ch"], page: 2, limit: 10 },
    api: { url: "/v1/services?jurisdiction=EU,ch&page=2&limit=10" },
  },
  {
    tool: "search_services",
    args: { region: ["eusc-de-east-1"], country: ["de"], limit: 5 },
    api: { url: "/v1/services?region=eusc-de-east-1&country=de&limit=5" },
  },
  {
    tool: "exposure_scorecard",
    args: { ids: storage, regions: ["eu-central-1", "europe-west3"] },
    api: { url: `/v1/exposure?ids=${storage.join(",")}&regions=eu-central-1,europe-west3` },
  },
  {
    tool: "lifecycle_upcoming",
    args: { ids: ["aws-chime", "aws-cloud-directory", "aws-ec2"], limit: 100 },
    api: { url: "/v1/lifecycle?ids=aws-chime,aws-cloud-directory,aws-ec2" },
  },
];

export const INVALID: readonly ToolCase[] = [
  {
    tool: "check_deployment",
    args: { template: { kind: "Deployment" }, approvedServiceIds: ["aws-s3"] },
    api: {
      method: "POST",
      url: "/v1/deployments/check",
      payload: { template: { kind: "Deployment" }, approvedServiceIds: ["aws-s3"] },
    },
  },
  {
    tool: "dora_register",
    args: { approvedServiceIds: ["aws-s3"], listId: "x" },
    says: /approvedServiceIds or listId/,
  },
  { tool: "search_services", args: { limit: 500 }, says: /limit/ },
  { tool: "search_services", args: { provider: 42 }, says: /provider/ },
  { tool: "get_service", args: { slug: "no-such-service" }, api: { url: "/v1/services/no-such-service" } },
  { tool: "get_service", args: {}, says: /slug/ },
  { tool: "compare_services", args: { ids: eleven }, says: /ids/ },
  { tool: "compare_services", args: { ids: ["aws-s3", "nope"] }, api: { url: "/v1/compare?ids=aws-s3,nope" } },
  { tool: "exposure_scorecard", args: { ids: [] }, says: /ids/ },
  { tool: "exposure_scorecard", args: { ids: ["nope"] }, api: { url: "/v1/exposure?ids=nope" } },
  { tool: "lifecycle_upcoming", args: { withinDays: 4000 }, says: /withinDays/ },
  // The API's words point to GET /v1/providers; a tool's error lists the ids instead.
  // The filters' one wording (issue 123): the value, its nearest, the vocabulary's ids.
  {
    tool: "lifecycle_upcoming",
    args: { provider: "nope" },
    says: /is no provider the catalogue knows.*\baws\b.*\bovhcloud\b/,
  },
  { tool: "search_services", args: { provider: "nope" }, says: /is no provider the catalogue knows.*\baws\b/ },
  { tool: "search_services", args: { category: "nope" }, says: /is no category the catalogue knows.*\bstorage\b/ },
  { tool: "search_services", args: { providerId: "aws" }, says: /"providerId" \(did you mean "provider"\?\)/ },
  { tool: "get_service", args: { slug: "aws-s3", extra: 1 }, says: /Unknown argument "extra"/ },
  // Issue 101: `id` is the slug, not "equivalentsProviders"; a comma-separated string is told what to send, once.
  { tool: "get_service", args: { id: "aws-s3" }, says: /Unknown argument "id" \(did you mean "slug"\?\)/ },
  {
    tool: "compare_services",
    args: { ids: "aws-s3,gcp-cloud-storage" },
    says: /^(?![\s\S]*Too big)[\s\S]*ids: expected an array of slugs, e\.g\. \["aws-s3", "gcp-cloud-storage"\], not one string/,
  },
  {
    tool: "generate_policy",
    args: { format: "scp", approvedServiceIds: ["gcp-cloud-storage"] },
    api: { method: "POST", url: "/v1/policies/alpha-scp", payload: { approvedServiceIds: ["gcp-cloud-storage"] } },
  },
  {
    tool: "generate_policy",
    args: { format: "azure", approvedServiceIds: ["azure-blob-storage"], strategy: "allow-list" },
    says: /strategy applies to format scp only/,
  },
  {
    tool: "generate_policy",
    args: { format: "azure", approvedServiceIds: ["azure-blob-storage"], part: 2 },
    says: /part applies to format scp or gcp only/,
  },
  {
    tool: "generate_policy",
    args: { format: "gcp", approvedServiceIds: ["gcp-cloud-storage"], allowedLocations: ["europe-wset3"] },
    api: {
      method: "POST",
      url: "/v1/policies/gamma-org-policy",
      payload: { approvedServiceIds: ["gcp-cloud-storage"], allowedLocations: ["europe-wset3"] },
    },
  },
  { tool: "generate_policy", args: { format: "cloudformation", approvedServiceIds: ["aws-s3"] }, says: /format/ },
  {
    tool: "exit_plan",
    args: { approvedServiceIds: ["aws-s3"], to: {} },
    api: { method: "POST", url: "/v1/exit-plan", payload: { approvedServiceIds: ["aws-s3"], to: {} } },
  },
  { tool: "no_such_tool", args: {}, says: /no_such_tool/ },
  { tool: "search_services", args: { jurisdiction: ["DE"] }, api: { url: "/v1/services?jurisdiction=DE" } },
  { tool: "search_services", args: { region: ["eu-centrl-1"] }, api: { url: "/v1/services?region=eu-centrl-1" } },
  {
    tool: "exposure_scorecard",
    args: { ids: storage, regions: ["mars-1"] },
    api: { url: `/v1/exposure?ids=${storage.join(",")}&regions=mars-1` },
  },
  { tool: "search_services", args: { compliance: ["secnum"] }, api: { url: "/v1/services?compliance=secnum" } },
  { tool: "lifecycle_upcoming", args: { ids: ["aws-chimes"] }, api: { url: "/v1/lifecycle?ids=aws-chimes" } },
];

/** The API's answer to the same question, as JSON. */
export async function apiJson(app: FastifyInstance, request: ApiRequest) {
  const response = await app.inject({
    method: request.method ?? "GET",
    url: request.url,
    ...(request.payload === undefined ? {} : { payload: request.payload as object }),
  });
  return { status: response.statusCode, json: response.json() as unknown };
}

export async function call(client: Client, c: ToolCase): Promise<CallToolResult> {
  return (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
}

const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

/** A valid case: not an error, the API's JSON as structured content, Markdown with the release beside it. */
export async function expectSameAsApi(client: Client, app: FastifyInstance, c: ToolCase, catalogue: Catalogue) {
  const result = await call(client, c);
  expect(result.isError ?? false, `${c.tool} ${JSON.stringify(c.args)}: ${text(result)}`).toBe(false);
  const api = await apiJson(app, c.api!);
  expect(api.status).toBe(200);
  // get_service ranks the equivalents (every provider's flagship first, mcp/fit.ts): the API's members, in that order.
  const byEquivalents = (json: unknown) =>
    c.tool === "get_service"
      ? {
          ...(json as object),
          equivalents: [...(json as { equivalents: { slug: string }[] }).equivalents].sort((a, b) =>
            a.slug.localeCompare(b.slug),
          ),
        }
      : json;
  expect(byEquivalents(result.structuredContent)).toEqual(byEquivalents(api.json));
  expect(result._meta?.[RELEASE_META]).toEqual(catalogueRelease(catalogue));
  expect(text(result)).toContain(releaseLine(catalogueRelease(catalogue)));
}

/**
 * An invalid case: a tool error, never a protocol error, in the API's Error shape and with the
 * release; the API's own Error body where the API has the same request.
 */
export async function expectToolError(client: Client, app: FastifyInstance, c: ToolCase, catalogue: Catalogue) {
  const result = await call(client, c);
  expect(result.isError, `${c.tool} ${JSON.stringify(c.args)} should be refused`).toBe(true);
  expect(result._meta?.[RELEASE_META]).toEqual(catalogueRelease(catalogue));
  expect(text(result)).toContain(releaseLine(catalogueRelease(catalogue)));
  if (c.api) {
    const api = await apiJson(app, c.api);
    expect(api.status).toBeGreaterThanOrEqual(400);
    // The API's Error, its pointers at REST URLs said as the tools and resources to use here.
    const body = api.json as { details?: string };
    const said = body.details === undefined ? body : { ...body, details: inMcpTerms(body.details) };
    expect(result.structuredContent).toEqual(said);
    if (said.details) expect(text(result)).toContain(said.details);
    expect(JSON.stringify(result.structuredContent)).not.toMatch(
      /(GET|POST) \/v1\/(services|providers|categories|equivalents)\b/,
    );
  } else {
    expect(result.structuredContent).toMatchObject({ status: expect.any(Number), error: expect.any(String) });
    expect((result.structuredContent as { details: string }).details).toMatch(c.says!);
  }
}

/** Lists, resources and prompts: what a client discovers first. */
export async function expectListings(client: Client, catalogue: Catalogue) {
  const tools = (await client.listTools()).tools;
  expect(tools.map((tool) => tool.name).sort()).toEqual(
    [
      "compare_services",
      "exit_plan",
      "exposure_scorecard",
      "generate_policy",
      "get_saved_list",
      "get_service",
      "check_deployment",
      "dora_register",
      "lifecycle_upcoming",
      "search_services",
    ].sort(),
  );
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.annotations?.openWorldHint).toBe(false);
  }
  const compare = tools.find((tool) => tool.name === "compare_services")!;
  expect(compare.inputSchema.properties?.ids).toMatchObject({ type: "array", minItems: 1, maxItems: 10 });

  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  expect(templates.sort()).toEqual(
    [
      "catalogue://categories/{id}",
      "catalogue://equivalents/{id}",
      "catalogue://providers/{id}",
      "catalogue://services/{slug}",
    ].sort(),
  );
  // Paged: every page but the last is full and names the next.
  const uris = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    expect(page.resources.length).toBeLessThanOrEqual(100);
    for (const resource of page.resources) uris.add(resource.uri);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await expect(client.listResources({ cursor: "not-a-cursor" })).rejects.toThrow(/Invalid cursor/);
  for (const service of catalogue.services) expect(uris.has(`catalogue://services/${service.slug}`)).toBe(true);
  for (const provider of catalogue.providers) expect(uris.has(`catalogue://providers/${provider.id}`)).toBe(true);
  for (const uri of ["catalogue://equivalents", "catalogue://changelog", "catalogue://changes"])
    expect(uris.has(uri)).toBe(true);
  const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  expect(prompts.sort()).toEqual(["find_equivalent", "plan_exit", "sunsets_soon"]);
}

type ResourceContent = Awaited<ReturnType<Client["readResource"]>>["contents"][number];
const contentText = (content: ResourceContent | undefined) => (content && "text" in content ? content.text : "");

/** Resources read as the API answers; an unknown one is a resource-not-found error. */
export async function expectResources(client: Client, app: FastifyInstance, catalogue: Catalogue) {
  const service = await client.readResource({ uri: "catalogue://services/aws-s3" });
  const json = service.contents.find((content) => content.mimeType === "application/json")!;
  expect(JSON.parse(contentText(json))).toEqual((await apiJson(app, { url: "/v1/services/aws-s3" })).json);
  const markdown = service.contents.find((content) => content.mimeType === "text/markdown")!;
  expect(contentText(markdown)).toContain("# Amazon Simple Storage Service");
  expect(service._meta?.[RELEASE_META]).toEqual(catalogueRelease(catalogue));
  for (const [uri, url] of [
    ["catalogue://equivalents/object-storage", "/v1/equivalents/object-storage"],
    ["catalogue://changelog", "/v1/changelog"],
    ["catalogue://changes", "/v1/changes"],
  ] as const) {
    const read = await client.readResource({ uri });
    expect(JSON.parse(contentText(read.contents[0])), uri).toEqual((await apiJson(app, { url })).json);
  }
  // The matrix as an index of its groups, each group its own resource.
  const index = JSON.parse(contentText((await client.readResource({ uri: "catalogue://equivalents" })).contents[0]));
  expect(index.groups).toHaveLength(catalogue.groups.length);
  expect(index.groups).toContainEqual(
    expect.objectContaining({ id: "object-storage", uri: "catalogue://equivalents/object-storage" }),
  );
  const provider = await client.readResource({ uri: "catalogue://providers/ovhcloud" });
  expect(JSON.parse(contentText(provider.contents[0]))).toEqual(catalogue.providers.find((p) => p.id === "ovhcloud"));
  const category = await client.readResource({ uri: "catalogue://categories/storage" });
  expect(JSON.parse(contentText(category.contents[0])).id).toBe("storage");
  await expect(client.readResource({ uri: "catalogue://services/no-such-service" })).rejects.toThrow(
    /Resource not found/,
  );
  await expect(client.readResource({ uri: "catalogue://providers/nope" })).rejects.toThrow(/Resource not found/);
}

/** Each prompt with good arguments states facts and the release; bad arguments are refused clearly. */
export async function expectPrompts(client: Client, catalogue: Catalogue) {
  const line = releaseLine(catalogueRelease(catalogue));
  const promptText = (result: Awaited<ReturnType<Client["getPrompt"]>>) =>
    result.messages.map((message) => (message.content.type === "text" ? message.content.text : "")).join("\n");
  const equivalent = await client.getPrompt({
    name: "find_equivalent",
    arguments: { service: "aws-sqs", provider: "azure" },
  });
  expect(promptText(equivalent)).toContain("azure-service-bus");
  expect(promptText(equivalent)).toContain(line);
  const exit = await client.getPrompt({ name: "plan_exit", arguments: { serviceIds: "aws-s3, aws-ec2" } });
  expect(promptText(exit)).toContain('["aws-s3","aws-ec2"]');
  const retired = catalogue.services.find((service) => service.lifecycle?.status === "retired")!;
  const soon = await client.getPrompt({
    name: "sunsets_soon",
    arguments: { serviceIds: `aws-s3,${retired.slug}`, withinDays: "90" },
  });
  expect(promptText(soon)).toContain(`${retired.slug}, `);
  expect(promptText(soon)).toContain("retired");
  await expect(client.getPrompt({ name: "plan_exit", arguments: { serviceIds: "nope" } })).rejects.toThrow(
    /Not in the catalogue: nope/,
  );
  await expect(
    client.getPrompt({ name: "find_equivalent", arguments: { service: "aws-sqs", provider: "nope" } }),
  ).rejects.toThrow(/Unknown provider/);
  // Words that name no service are said, not read as an unrelated one; provider names resolve.
  await expect(
    client.getPrompt({ name: "find_equivalent", arguments: { service: "Nope Service", provider: "gcp" } }),
  ).rejects.toThrow(/No service matches "Nope Service"/);
  const byName = await client.getPrompt({
    name: "find_equivalent",
    arguments: { service: "Simple Queue Service", provider: "Microsoft Azure" },
  });
  expect(promptText(byName)).toContain("read as aws-sqs");
  expect(promptText(byName)).toContain("azure-service-bus");
}
