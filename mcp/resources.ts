/**
 * The catalogue as MCP resources: each service, provider, category and equivalence group under a
 * resource template (so clients list and read them), the equivalence matrix, the contract
 * changelog and the catalogue's release changes. Each reads as the API's JSON (the same contract
 * row answers) and, where the text host has a page, its Markdown.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { equivalenceGroupDoc } from "../catalogue/render/equivalents.ts";
import type { Doc } from "../catalogue/render/doc.ts";
import { categoryPage, providerPage, servicePage } from "../catalogue/render/pages.ts";
import { HttpError } from "../catalogue/problem.ts";
import { catalogueRelease, markdownOf } from "./text.ts";
import { runRow, type RowRequest, type ToolContext } from "./tools.ts";

export const RESOURCE_SCHEME = "catalogue";
/** The key of the catalogue release in every answer's _meta. */
export const RELEASE_META = "cloud-services-catalogue/release";
/** JSON-RPC error of a resource that does not exist (MCP specification, Resources, Error handling). */
const RESOURCE_NOT_FOUND = -32002;
const COMPLETIONS = 50;

const JSON_TYPE = "application/json";
const MARKDOWN_TYPE = "text/markdown";

/** One resource read: the API's JSON, its Markdown when there is a page for it, the release in _meta. */
async function read(
  context: ToolContext,
  uri: URL,
  json: () => Promise<unknown> | unknown,
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

/** Values of a template variable starting with what the client typed, for completion. */
const completer = (values: () => readonly string[]) => (typed: string) =>
  values()
    .filter((value) => value.startsWith(typed))
    .slice(0, COMPLETIONS);

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

function registerProviders(server: McpServer, context: ToolContext) {
  const { catalogue } = context;
  server.registerResource(
    "provider",
    new ResourceTemplate(`${RESOURCE_SCHEME}://providers/{id}`, {
      list: () => ({
        resources: catalogue.providers.map((provider) => ({
          uri: `${RESOURCE_SCHEME}://providers/${provider.id}`,
          name: provider.id,
          title: provider.name,
          mimeType: JSON_TYPE,
        })),
      }),
      complete: { id: completer(() => catalogue.providers.map((provider) => provider.id)) },
    }),
    {
      title: "Provider",
      description: "One provider as GET /v1/providers lists it, and its text-host page (its services) in Markdown",
      mimeType: JSON_TYPE,
    },
    (uri, { id }) =>
      read(
        context,
        uri,
        () => {
          const provider = catalogue.providerById.get(one(id))?.provider;
          if (!provider) throw new HttpError(404, "Provider not found");
          return provider;
        },
        () => providerPage(catalogue, one(id)),
      ),
  );
}

function registerCategories(server: McpServer, context: ToolContext) {
  const { catalogue } = context;
  server.registerResource(
    "category",
    new ResourceTemplate(`${RESOURCE_SCHEME}://categories/{id}`, {
      list: () => ({
        resources: catalogue.categories.map((category) => ({
          uri: `${RESOURCE_SCHEME}://categories/${category.id}`,
          name: category.id,
          title: category.name,
          mimeType: JSON_TYPE,
        })),
      }),
      complete: { id: completer(() => catalogue.categories.map((category) => category.id)) },
    }),
    {
      title: "Category",
      description: "One category as GET /v1/categories lists it, and its text-host page (its services) in Markdown",
      mimeType: JSON_TYPE,
    },
    (uri, { id }) =>
      read(
        context,
        uri,
        () => {
          const category = catalogue.categoryById.get(one(id));
          if (!category) throw new HttpError(404, "Category not found");
          return category;
        },
        () => categoryPage(catalogue, one(id)),
      ),
  );
}

function registerEquivalents(server: McpServer, context: ToolContext) {
  const { catalogue } = context;
  server.registerResource(
    "equivalence-group",
    new ResourceTemplate(`${RESOURCE_SCHEME}://equivalents/{id}`, {
      list: () => ({
        resources: catalogue.groups.map((group) => ({
          uri: `${RESOURCE_SCHEME}://equivalents/${group.id}`,
          name: group.id,
          title: group.name,
          mimeType: JSON_TYPE,
        })),
      }),
      complete: { id: completer(() => catalogue.groups.map((group) => group.id)) },
    }),
    {
      title: "Equivalence group",
      description: "Services that do the same job on different providers, as GET /v1/equivalents/{id} answers it",
      mimeType: JSON_TYPE,
    },
    (uri, { id }) =>
      read(
        context,
        uri,
        () => rowJson(context, { operationId: "getEquivalenceGroup", params: { id: one(id) } }),
        () => equivalenceGroupDoc(catalogue, one(id)),
      ),
  );
  server.registerResource(
    "equivalents",
    `${RESOURCE_SCHEME}://equivalents`,
    {
      title: "Equivalence matrix",
      description: "Every equivalence group with its members by provider (GET /v1/equivalents)",
      mimeType: JSON_TYPE,
    },
    (uri) => read(context, uri, () => rowJson(context, { operationId: "listEquivalents" })),
  );
}

export function registerResources(server: McpServer, context: ToolContext): void {
  registerServices(server, context);
  registerProviders(server, context);
  registerCategories(server, context);
  registerEquivalents(server, context);
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
}
