/**
 * The one contract table: every endpoint of API v1 (contract 1.5.1), declared once. The sidecar
 * registers its routes from it, the build writes the static files of the `static` ones, and the
 * OpenAPI and discovery documents are generated from it.
 */
import { z } from "zod";
import {
  ApprovedServicesBody,
  AzurePolicySet,
  Category,
  CompareResult,
  ExposureReport,
  FeedbackBody,
  FeedbackResult,
  GcpOrgPolicy,
  Health,
  IdempotencyHeaders,
  LIFECYCLE_STATUSES,
  MAX_COMPARE_IDS,
  MAX_EXPOSURE_IDS,
  OutboundClickBody,
  OutboundClickResult,
  Provider,
  SavedList,
  SavedListCreate,
  SavedListDetail,
  ScpPolicy,
  ServiceDetail,
  ServiceList,
  StatusHistory,
  StatusReport,
} from "./schema.ts";

export const API_VERSION = "1.5.1";
export const API_MAJOR = "v1";
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const MAX_BODY_BYTES = 64 * 1024;
export const READ_CACHE_SECONDS = 300;
export const TEXT_HOST_PER_MINUTE = 60;
export const LIST_LIFETIME_DAYS = 90;

/** Rate-limit buckets (contract "Limits"): per client IP per minute, independent of each other. */
export const BUCKETS = {
  strict: { max: 10, windowMs: 60_000 },
  relaxed: { max: 30, windowMs: 60_000 },
} as const;
export type BucketName = keyof typeof BUCKETS;

/**
 * `static`: a file in dist/api answers it (CDN or nginx in production, the Node server locally).
 * `static+sidecar`: a file answers the plain request; the sidecar answers when a query is present.
 * `sidecar`: always computed by the sidecar.
 */
export type Serving = "static" | "static+sidecar" | "sidecar";

export interface Endpoint {
  readonly operationId: string;
  readonly method: "GET" | "POST";
  /** OpenAPI path template, e.g. /v1/services/{slug}. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: "Catalogue" | "Policies" | "Lists" | "Operations" | "Discovery";
  readonly serving: Serving;
  readonly bucket?: BucketName;
  readonly query?: z.ZodObject;
  readonly params?: z.ZodObject;
  /** Request headers the endpoint reads (lower-case names). */
  readonly headers?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly response: { readonly status: 200 | 201; readonly schema?: z.ZodType; readonly contentType: string };
  readonly errors: readonly number[];
  readonly example: { readonly request: string; readonly body?: unknown };
}

const slugList = (max: number) =>
  z.string().meta({
    description: `Comma-separated service slugs (1 to ${max}); trimmed, duplicates dropped`,
    example: "aws-s3,gcp-cloud-storage",
  });

export const ServicesQuery = z.object({
  provider: z.string().optional().meta({ description: "Provider id filter" }),
  category: z.string().optional().meta({ description: "Category id filter" }),
  q: z.string().optional().meta({
    description: "Free-text search over name, shortName, description and tags; every word must match; relevance order",
  }),
  freeTier: z.enum(["true", "false"]).optional().meta({ description: "When true, only services with a free tier" }),
  lifecycle: z
    .enum([...LIFECYCLE_STATUSES, "active"])
    .optional()
    .meta({ description: "Only services with this lifecycle status (active = no lifecycle block)" }),
  page: z.coerce.number().int().min(1).default(1).meta({ description: "1-based page index" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE}` }),
});
export type ServicesQueryT = z.infer<typeof ServicesQuery>;

export const ENDPOINTS: readonly Endpoint[] = [
  {
    operationId: "getDiscovery",
    method: "GET",
    path: "/",
    summary: "Discovery document",
    description: "Name, description, versions and the endpoint list of this API.",
    tag: "Discovery",
    serving: "static",
    response: { status: 200, contentType: "application/json" },
    errors: [],
    example: { request: "GET /" },
  },
  {
    operationId: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    summary: "OpenAPI 3.1 description",
    description: "This API described in OpenAPI 3.1.",
    tag: "Discovery",
    serving: "static",
    response: { status: 200, contentType: "application/json" },
    errors: [],
    example: { request: "GET /openapi.json" },
  },
  {
    operationId: "listProviders",
    method: "GET",
    path: "/v1/providers",
    summary: "List providers",
    description: "Every provider, with head office, jurisdiction, regions and the sovereignty flags.",
    tag: "Catalogue",
    serving: "static",
    response: { status: 200, schema: z.array(Provider), contentType: "application/json" },
    errors: [],
    example: { request: "GET /v1/providers" },
  },
  {
    operationId: "listCategories",
    method: "GET",
    path: "/v1/categories",
    summary: "List categories",
    description: "Every service category.",
    tag: "Catalogue",
    serving: "static",
    response: { status: 200, schema: z.array(Category), contentType: "application/json" },
    errors: [],
    example: { request: "GET /v1/categories" },
  },
  {
    operationId: "listServices",
    method: "GET",
    path: "/v1/services",
    summary: "Search and filter services",
    description:
      "Services ordered by provider then name, or by relevance when q is given. Unknown parameters are ignored; a bad page or limit is a 400.",
    tag: "Catalogue",
    serving: "static+sidecar",
    query: ServicesQuery,
    response: { status: 200, schema: ServiceList, contentType: "application/json" },
    errors: [400],
    example: { request: "GET /v1/services?q=object%20storage&provider=aws&limit=10" },
  },
  {
    operationId: "getService",
    method: "GET",
    path: "/v1/services/{slug}",
    summary: "Get one service",
    description: "A service with sub-services, equivalents on other providers and policy identifiers.",
    tag: "Catalogue",
    serving: "static",
    params: z.object({ slug: z.string().meta({ description: "Service slug", example: "aws-s3" }) }),
    response: { status: 200, schema: ServiceDetail, contentType: "application/json" },
    errors: [404],
    example: { request: "GET /v1/services/aws-s3" },
  },
  {
    operationId: "compareServices",
    method: "GET",
    path: "/v1/compare",
    summary: "Compare services",
    description: `Up to ${MAX_COMPARE_IDS} services side by side, with a shared-attribute table and compliance in common and apart.`,
    tag: "Catalogue",
    serving: "sidecar",
    query: z.object({ ids: slugList(MAX_COMPARE_IDS) }),
    response: { status: 200, schema: CompareResult, contentType: "application/json" },
    errors: [400],
    example: { request: "GET /v1/compare?ids=aws-s3,azure-blob-storage,gcp-cloud-storage" },
  },
  {
    operationId: "getExposure",
    method: "GET",
    path: "/v1/exposure",
    summary: "Jurisdictional exposure scorecard",
    description: `Head-office jurisdictions, region countries, US-headquartered share, sovereign and EU-resident-only counts for up to ${MAX_EXPOSURE_IDS} services. Procurement triage, not legal advice.`,
    tag: "Catalogue",
    serving: "sidecar",
    query: z.object({ ids: slugList(MAX_EXPOSURE_IDS) }),
    response: { status: 200, schema: ExposureReport, contentType: "application/json" },
    errors: [400],
    example: { request: "GET /v1/exposure?ids=aws-s3,ovhcloud-object-storage" },
  },
  {
    operationId: "generateScp",
    method: "POST",
    path: "/v1/policies/alpha-scp",
    summary: "AWS service control policy",
    description:
      "A deny-all-but SCP allowing only the approved services' IAM prefixes, within AWS's 5,120-character limit. A starting point: review actions, add co-required permissions, and test in a non-production organisational unit before use.",
    tag: "Policies",
    serving: "sidecar",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, schema: ScpPolicy, contentType: "application/json" },
    errors: [400, 413, 415, 429],
    example: { request: "POST /v1/policies/alpha-scp", body: { approvedServiceIds: ["aws-s3", "aws-lambda"] } },
  },
  {
    operationId: "generateAzurePolicy",
    method: "POST",
    path: "/v1/policies/beta-policy",
    summary: "Azure policy initiative",
    description:
      "A policy set definition built on the built-in 'Allowed resource types' policy, listing the approved services' resource types.",
    tag: "Policies",
    serving: "sidecar",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, schema: AzurePolicySet, contentType: "application/json" },
    errors: [400, 413, 415, 429],
    example: { request: "POST /v1/policies/beta-policy", body: { approvedServiceIds: ["azure-blob-storage"] } },
  },
  {
    operationId: "generateGcpOrgPolicy",
    method: "POST",
    path: "/v1/policies/gamma-org-policy",
    summary: "GCP organisation policy",
    description:
      "An organisation policy restricting constraints/gcp.restrictServiceUsage to the approved API services.",
    tag: "Policies",
    serving: "sidecar",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, schema: GcpOrgPolicy, contentType: "application/json" },
    errors: [400, 413, 415, 429],
    example: { request: "POST /v1/policies/gamma-org-policy", body: { approvedServiceIds: ["gcp-cloud-storage"] } },
  },
  {
    operationId: "exportMarkdown",
    method: "POST",
    path: "/v1/export/markdown",
    summary: "Markdown export",
    description: "The approved list as Markdown for runbooks, lifecycle shown.",
    tag: "Policies",
    serving: "sidecar",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, contentType: "text/markdown; charset=utf-8" },
    errors: [400, 413, 415, 429],
    example: { request: "POST /v1/export/markdown", body: { approvedServiceIds: ["aws-s3", "gcp-bigquery"] } },
  },
  {
    operationId: "createList",
    method: "POST",
    path: "/v1/lists",
    summary: "Save an approved-services list",
    description: `Saves a list for ${LIST_LIFETIME_DAYS} days and returns its shareable id, slug and URL. 409 when an explicit slug is taken.`,
    tag: "Lists",
    serving: "sidecar",
    bucket: "strict",
    headers: IdempotencyHeaders,
    body: SavedListCreate,
    response: { status: 200, schema: SavedList, contentType: "application/json" },
    errors: [400, 409, 413, 415, 429, 503],
    example: {
      request: "POST /v1/lists",
      body: { name: "Platform baseline", approvedServiceIds: ["aws-s3", "aws-ec2"] },
    },
  },
  {
    operationId: "getList",
    method: "GET",
    path: "/v1/lists/{id}",
    summary: "Get a saved list",
    description: "By slug first, then by id. Expired lists answer 404.",
    tag: "Lists",
    serving: "sidecar",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    response: { status: 200, schema: SavedListDetail, contentType: "application/json" },
    errors: [404, 503],
    example: { request: "GET /v1/lists/platform-baseline" },
  },
  {
    operationId: "getStatus",
    method: "GET",
    path: "/v1/status",
    summary: "Catalogue status",
    description: "Catalogue counts, last-updated time and each component's state.",
    tag: "Operations",
    serving: "sidecar",
    response: { status: 200, schema: StatusReport, contentType: "application/json" },
    errors: [],
    example: { request: "GET /v1/status" },
  },
  {
    operationId: "getStatusHistory",
    method: "GET",
    path: "/v1/status/history",
    summary: "Status history",
    description:
      "Component samples of the last 24 hours (one per component every 5 minutes), newest first, at most 200.",
    tag: "Operations",
    serving: "sidecar",
    response: { status: 200, schema: StatusHistory, contentType: "application/json" },
    errors: [503],
    example: { request: "GET /v1/status/history" },
  },
  {
    operationId: "getHealth",
    method: "GET",
    path: "/v1/health",
    summary: "Health probe",
    description: "Cheap liveness probe; never touches the network.",
    tag: "Operations",
    serving: "sidecar",
    response: { status: 200, schema: Health, contentType: "application/json" },
    errors: [],
    example: { request: "GET /v1/health" },
  },
  {
    operationId: "sendFeedback",
    method: "POST",
    path: "/v1/feedback",
    summary: "Send feedback",
    description:
      "Stores feedback durably. type defaults to general when omitted or unrecognised; message 5 to 5000 characters.",
    tag: "Operations",
    serving: "sidecar",
    bucket: "relaxed",
    body: FeedbackBody,
    response: { status: 201, schema: FeedbackResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    example: { request: "POST /v1/feedback", body: { type: "bug", message: "The S3 pricing link is outdated." } },
  },
  {
    operationId: "recordOutboundClick",
    method: "POST",
    path: "/v1/analytics/outbound",
    summary: "Outbound-click telemetry",
    description: "Records that a documentation or pricing link was followed. No personal data is stored.",
    tag: "Operations",
    serving: "sidecar",
    bucket: "relaxed",
    body: OutboundClickBody,
    response: { status: 200, schema: OutboundClickResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    example: {
      request: "POST /v1/analytics/outbound",
      body: { url: "https://aws.amazon.com/s3/pricing/", serviceId: "aws-s3", kind: "pricing" },
    },
  },
];

export const ERROR_REASONS: Readonly<Record<number, string>> = {
  400: "Bad request",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  414: "URI too long",
  429: "Too many requests",
  503: "Service unavailable",
};
