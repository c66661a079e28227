/**
 * The catalogue as MCP resources: each service, provider, category and equivalence group under a
 * resource template (so clients list and read them), the equivalence matrix, the contract
 * changelog and the catalogue's release changes. Each reads as the API's JSON (the same contract
 * row answers) and, where the text host has a page, its Markdown.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { equivalenceGroupDoc } from "../catalogue/render/equivalents.ts";
import type { Doc } from "../catalogue/format/doc.ts";
import { categoryPage, providerPage } from "../catalogue/render/pages.ts";
import { servicePage } from "../catalogue/render/service-page.ts";
import { HttpError } from "../catalogue/base/problem.ts";
import { catalogueRelease, markdownOf } from "./text.ts";
import { runRow, type RowRequest, type ToolContext } from "./tools.ts";

export const RESOURCE_SCHEME = "catalogue";
/** The key of the catalogue release in every answer's _meta. */
export const RELEASE_META = "cloud-services-catalogue/release";
/** JSON-RPC error of a resource that does not exist (MCP specification, Resources, Error handling). */
const RESOURCE_NOT_FOUND = -32002;

const JSON_TYPE = "application/json";
const MARKDOWN_TYPE = "text/markdown";

/** One resource read: the API's JSON, its Markdown when there is a page for it, the release in _meta. */
async function read(
  context: ToolContext,
  uri: URL,
  json: () => unknown,
  doc?: () => Doc | undefined,
): Promise<ReadResourceResult> {
  const release = catalogueRelease(context.catalogue);
  let value: unknown;
  try {
    value = await json();
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404)
      throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href.slice(0, 300)}`, { uri: uri.href });
    throw error;
  }
  const page = doc?.();
  return {
    contents: [
      { uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value) },
      ...(page
        ? [{ uri: uri.href, mimeType: MARKDOWN_TYPE, text: markdownOf(page, context.urls.textUrl, release) }]
        : []),
    ],
    _meta: { [RELEASE_META]: release },
  };
}

const rowJson = async (context: ToolContext, request: RowRequest) => {
  const answer = await runRow(context, request);
  return "json" in answer ? answer.json : answer.text;
};

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/** Values of a template variable starting with what the client typed, for completion: all of them (prompts.ts). */
const completer = (values: () => readonly string[]) => (typed: string) =>
  values().filter((value) => value.startsWith(typed));

function registerServices(server: McpServer, context: ToolContext) {
  const { catalogue } = context;
  server.registerResource(
    "service",
    new ResourceTemplate(`${RESOURCE_SCHEME}://services/{slug}`, {
      list: () => ({
        resources: catalogue.services.map((service) => ({
          uri: `${RESOURCE_SCHEME}://services/${service.slug}`,
          name: service.slug,
          title: service.name,
          description: `${service.name} (${catalogue.providerById.get(service.providerId)?.provider.name ?? service.providerId}, ${catalogue.categoryById.get(service.category)?.name ?? service.category})`,
          mimeType: JSON_TYPE,
        })),
      }),
      complete: { slug: completer(() => catalogue.services.map((service) => service.slug)) },
    }),
    {
      title: "Service",
      description: "One service as GET /v1/services/{slug} answers it, and its text-host page in Markdown",
      mimeType: JSON_TYPE,
    },
    (uri, { slug }) =>
      read(
        context,
        uri,
        () => rowJson(context, { operationId: "getService", params: { slug: one(slug) } }),
        () => (catalogue.bySlug.has(one(slug)) ? servicePage(catalogue, one(slug)) : undefined),
      ),
  );
}

/** A template of one kind of entry (`catalogue://<path>/{id}`), listed and completed from `entries`. */
interface EntryTemplate {
  readonly name: string;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly entries: () => readonly { readonly id: string; readonly name: string }[];
  readonly json: (id: string) => unknown;
  readonly markdown: (id: string) => Doc | undefined;
}

function registerEntryTemplate(server: McpServer, context: ToolContext, template: EntryTemplate) {
  const uriOf = (id: string) => `${RESOURCE_SCHEME}://${template.path}/${id}`;
  server.registerResource(
    template.name,
    new ResourceTemplate(uriOf("{id}"), {
      list: () => ({
        resources: template
          .entries()
          .map((entry) => ({ uri: uriOf(entry.id), name: entry.id, title: entry.name, mimeType: JSON_TYPE })),
      }),
      complete: { id: completer(() => template.entries().map((entry) => entry.id)) },
    }),
    { title: template.title, description: template.description, mimeType: JSON_TYPE },
    (uri, { id }) =>
      read(
        context,
        uri,
        () => template.json(one(id)),
        () => template.markdown(one(id)),
      ),
  );
}

function registerEntries(server: McpServer, context: ToolContext) {
  const { catalogue } = context;
  registerEntryTemplate(server, context, {
    name: "provider",
    path: "providers",
    title: "Provider",
    description: "One provider as GET /v1/providers lists it, and its text-host page (its services) in Markdown",
    entries: () => catalogue.providers,
    json: (id) => {
      const provider = catalogue.providerById.get(id)?.provider;
      if (!provider) throw new HttpError(404, "Provider not found");
      return provider;
    },
    markdown: (id) => providerPage(catalogue, id),
  });
  registerEntryTemplate(server, context, {
    name: "category",
    path: "categories",
    title: "Category",
    description: "One category as GET /v1/categories lists it, and its text-host page (its services) in Markdown",
    entries: () => catalogue.categories,
    json: (id) => {
      const category = catalogue.categoryById.get(id);
      if (!category) throw new HttpError(404, "Category not found");
      return category;
    },
    markdown: (id) => categoryPage(catalogue, id),
  });
  registerEntryTemplate(server, context, {
    name: "equivalence-group",
    path: "equivalents",
    title: "Equivalence group",
    description: "Services that do the same job on different providers, as GET /v1/equivalents/{id} answers it",
    entries: () => catalogue.groups,
    json: (id) => rowJson(context, { operationId: "getEquivalenceGroup", params: { id } }),
    markdown: (id) => equivalenceGroupDoc(catalogue, id),
  });
  // The whole matrix (GET /v1/equivalents) is ~50,000 tokens: here its index, each group a resource.
  server.registerResource(
    "equivalents",
    `${RESOURCE_SCHEME}://equivalents`,
    {
      title: "Equivalence groups",
      description:
        "Every equivalence group: id, name, category, member count and its resource (catalogue://equivalents/{id} holds the members by provider)",
      mimeType: JSON_TYPE,
    },
    (uri) =>
      read(context, uri, () => ({
        groups: catalogue.groups.map((group) => ({
          id: group.id,
          name: group.name,
          ...(group.category ? { category: group.category } : {}),
          services: group.services.length,
          uri: `${RESOURCE_SCHEME}://equivalents/${group.id}`,
        })),
      })),
  );
}

/** Resources per resources/list page: the catalogue has ~1,700, ~90,000 tokens in one page. */
export const RESOURCES_PAGE = 100;

/** Every resource, in the order McpServer lists them: fixed ones, then each template's. */
function allResources(context: ToolContext): Resource[] {
  const { catalogue } = context;
  const entry = (path: string, id: string, title: string): Resource => ({
    uri: `${RESOURCE_SCHEME}://${path}/${id}`,
    name: id,
    title,
    mimeType: JSON_TYPE,
  });
  return [
    { uri: `${RESOURCE_SCHEME}://equivalents`, name: "equivalents", title: "Equivalence groups", mimeType: JSON_TYPE },
    { uri: `${RESOURCE_SCHEME}://changelog`, name: "changelog", title: "API changelog", mimeType: JSON_TYPE },
    { uri: `${RESOURCE_SCHEME}://changes`, name: "changes", title: "Catalogue changes", mimeType: JSON_TYPE },
    ...catalogue.services.map((service) => ({
      ...entry("services", service.slug, service.name),
      description: `${service.name} (${catalogue.providerById.get(service.providerId)?.provider.name ?? service.providerId}, ${catalogue.categoryById.get(service.category)?.name ?? service.category})`,
    })),
    ...catalogue.providers.map((provider) => entry("providers", provider.id, provider.name)),
    ...catalogue.categories.map((category) => entry("categories", category.id, category.name)),
    ...catalogue.groups.map((group) => entry("equivalents", group.id, group.name)),
  ];
}

/** resources/list in pages of RESOURCES_PAGE; the cursor is the next offset, opaque to clients. */
function listResourcesPaged(server: McpServer, context: ToolContext) {
  let all: Resource[] | undefined;
  server.server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    all ??= allResources(context);
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString());
    if (!Number.isInteger(start) || start < 0 || start >= all.length)
      throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page");
    const end = start + RESOURCES_PAGE;
    return {
      resources: all.slice(start, end),
      ...(end < all.length ? { nextCursor: Buffer.from(String(end)).toString("base64url") } : {}),
    };
  });
}

export function registerResources(server: McpServer, context: ToolContext): void {
  registerServices(server, context);
  registerEntries(server, context);
  server.registerResource(
    "changelog",
    `${RESOURCE_SCHEME}://changelog`,
    {
      title: "API changelog",
      description: "Every version of the API contract, newest first (GET /v1/changelog)",
      mimeType: JSON_TYPE,
    },
    (uri) => read(context, uri, () => rowJson(context, { operationId: "getChangelog" })),
  );
  server.registerResource(
    "changes",
    `${RESOURCE_SCHEME}://changes`,
    {
      title: "Catalogue changes",
      description: "What each catalogue release added, removed, renamed or moved in lifecycle (GET /v1/changes)",
      mimeType: JSON_TYPE,
    },
    (uri) => read(context, uri, () => rowJson(context, { operationId: "getChanges" })),
  );
  listResourcesPaged(server, context);
}
