/**
 * The documents that describe the API and carry the whole catalogue: the discovery document
 * (GET /), the OpenAPI document (GET /openapi.json) and the dump (GET /catalogue.json). Their
 * response schemas, so that every operation of the OpenAPI document names what it answers.
 */
import { z } from "zod";
import { FactSource } from "./compatibility.ts";
import { Category, Provider, ServiceDetail } from "./resources.ts";
import { d } from "./vocabulary.ts";

const DiscoveryParameter = z
  .object({
    name: z.string().meta(d("The parameter's name")),
    in: z.enum(["path", "query", "header"]).meta(d("Where the request carries it")),
    required: z.boolean().meta(d("True when the operation needs it")),
    description: z.string().optional().meta(d("What it means and which values it takes")),
  })
  .meta({ id: "DiscoveryParameter", description: "One parameter of an operation" });

const DiscoveryEndpoint = z
  .object({
    method: z.enum(["GET", "POST"]).meta(d("The HTTP method")),
    path: z.string().meta(d("The path, with {name} for each path parameter")),
    auth: z.literal("open").meta(d("Always open: no credentials")),
    served: z
      .enum(["static", "static+sidecar", "sidecar"])
      .meta(d("From a built file, from a file unless a query asks for more, or computed")),
    cache: z
      .enum(["public", "revalidate", "until-expiry", "no-store"])
      .meta(
        d(
          "How long an answer may be reused: cached, revalidated, until the list expires or a read would renew it, or never",
        ),
      ),
    description: z.string().meta(d("What the operation does")),
    params: z.array(DiscoveryParameter).meta(d("Its path, query and header parameters")),
    body: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta(d("The request body's JSON Schema; null when the operation takes none")),
    rateLimit: z
      .object({ bucket: z.string(), perMinute: z.number().int() })
      .nullable()
      .meta(d("The bucket the operation counts in; null when not rate-limited")),
    example: z
      .object({ request: z.string(), body: z.unknown().optional() })
      .meta(d("A request (method, path and query) and, for a POST, a body")),
  })
  .meta({ id: "DiscoveryEndpoint", description: "One operation as the discovery document lists it" });

export const Discovery = z
  .object({
    name: z.string().meta(d("The API's name")),
    description: z.string().meta(d("What the API offers")),
    latestVersion: z.string().meta(d("The newest major version's path segment (v1)")),
    apiVersion: z.string().meta(d("The contract version (semver)")),
    documentation: z
      .object({
        openapi: z.string().meta(d("URL of the OpenAPI document")),
        changelog: z.string().meta(d("URL of the contract changelog")),
        textHost: z.string().meta(d("URL of the text host")),
        site: z.string().meta(d("URL of the site")),
      })
      .meta(d("Where the API is described")),
    auth: z.object({ scheme: z.literal("open"), description: z.string() }).meta(d("Open: no credentials")),
    rateLimits: z.record(z.string(), z.string()).meta(d("Each bucket's limit, in prose")),
    limits: z
      .record(z.string(), z.string())
      .meta(d("Per-request limits in prose: bodies, the deployment check's template budgets (added in 1.11.0)")),
    versions: z
      .array(
        z.object({
          version: z.string(),
          status: z.string(),
          contractVersion: z.string(),
          baseUrl: z.string(),
          endpoints: z.array(DiscoveryEndpoint),
        }),
      )
      .meta(d("Each major version with its status and operations")),
    downloads: z.array(DiscoveryEndpoint).meta(d("Outside the versioned API: the whole catalogue and the build")),
    mcp: z.array(DiscoveryEndpoint).meta(d("The Model Context Protocol server (what it offers: its x-mcp member)")),
  })
  .meta({ id: "Discovery", description: "GET /: what this API offers" });

export const OpenApiDocument = z
  .object({
    openapi: z
      .string()
      .regex(/^3\.1\.\d+$/)
      .meta(d("The OpenAPI version, 3.1.x")),
    info: z.object({ title: z.string(), version: z.string() }).meta(d("Title and contract version")),
    servers: z.array(z.object({ url: z.string() })).meta(d("Where the API answers")),
    paths: z
      .record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())))
      .meta(d("Every operation, by path and method")),
    components: z
      .object({ schemas: z.record(z.string(), z.record(z.string(), z.unknown())) })
      .meta(d("The schemas operations refer to")),
  })
  .meta({ id: "OpenApiDocument", description: "GET /openapi.json: this API in OpenAPI 3.1" });

const DumpEquivalenceGroup = z
  .object({
    id: z.string().meta(d("The group's id (a kind of service)")),
    name: z.string().meta(d("The kind of service, e.g. Object storage")),
    services: z.array(z.string()).meta(d("The member services' slugs")),
    category: z.string().optional().meta(d("The group's category, where its members' categories do not settle it")),
    otherCategories: z
      .record(z.string(), z.string())
      .optional()
      .meta(d("Members filed under another category, each with why it does the group's job")),
    notDoing: z
      .array(
        z.object({
          service: z.string().optional().meta(d("A service checked and found not doing the job")),
          provider: z.string().optional().meta(d("A provider checked and found selling no service doing it")),
          note: z.string().meta(d("What the vendor's page says instead")),
          source: FactSource.meta(d("The vendor page read")),
        }),
      )
      .optional()
      .meta(d("Services and providers checked and found not doing the job (added in 1.10.0)")),
    primaryOf: z
      .array(z.string())
      .optional()
      .meta(d("Members whose primary job this group is, where the default rule picks another (added in 1.10.0)")),
    flagships: z
      .array(z.string())
      .optional()
      .meta(d("Per provider, the member its vendor positions for this job, at most one a provider (added in 1.13.0)")),
  })
  .meta({ id: "DumpEquivalenceGroup", description: "An equivalence group as equivalents.yaml states it" });

export const CatalogueDump = z
  .object({
    providers: z.array(Provider).meta(d("Every provider, as GET /v1/providers answers them")),
    categories: z.array(Category).meta(d("Every category, as GET /v1/categories answers them")),
    services: z.array(ServiceDetail).meta(d("Every service, as GET /v1/services/{slug} answers it")),
    equivalenceGroups: z.array(DumpEquivalenceGroup).meta(d("Every equivalence group, as equivalents.yaml states it")),
  })
  .meta({ id: "CatalogueDump", description: "GET /catalogue.json: the whole catalogue in one file" });
