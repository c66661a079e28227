/**
 * The MCP tools as a table: each names the contract row (catalogue/contract/) that answers it and
 * turns the tool's arguments into that row's request, so a tool's answer is the API's answer for the
 * same input — computed by the same handler, validated by the same schemas, refused with the same
 * Error. The input schemas are the contract's own fields (catalogue/schema), typed as JSON rather than
 * as query strings. No SDK import here: the OpenAPI extension and discovery list these tools too.
 */
import { z } from "zod";
import { answerRow, rowInput, type RowRequest as PartsOfRequest } from "../catalogue/contract/run.ts";
import type { ClientContext, Endpoint } from "../catalogue/contract/endpoint.ts";
import { type McpToolName } from "../catalogue/contract/mcp.ts";
import { LifecycleQuery } from "../catalogue/schema/index.ts";
import {
  LIFECYCLE_WITHIN_MAX_DAYS,
  MAX_APPROVED_IDS,
  MAX_COMPARE_IDS,
  MAX_EXPOSURE_IDS,
  MAX_ID_LENGTH,
} from "../catalogue/base/limits.ts";
import type { Catalogue } from "../catalogue/load/load.ts";
import { HttpError } from "../catalogue/base/problem.ts";
import {
  ExitPlan,
  LifecycleList,
  ServiceDetail,
  ServiceList,
  CompareResult,
  ExposureReport,
  SavedListDetail,
} from "../catalogue/schema/index.ts";
import {
  EQUIVALENTS_LIMIT,
  EXIT_PLAN_MAX_PAGE,
  EXIT_PLAN_PAGE,
  EXPOSURE_ROWS,
  fitExitPlan,
  fitExposure,
  fitLifecycle,
  fitSavedList,
  fitServiceList,
  LIST_SERVICES,
  fitService,
  LIFECYCLE_LIMIT,
  LIFECYCLE_MAX_LIMIT,
  Omitted,
} from "./fit.ts";
import { CHECK_DEPLOYMENT_TOOL } from "./check-deployment.ts";
import { DORA_REGISTER_TOOL } from "./register.ts";
import { resolveProvider } from "./ids.ts";
import { MCP_SEARCH_LIMIT, mcpFilterInput, mcpFilterQuery } from "../catalogue/search/filter-table.ts";
import {
  ApprovedServicesBody,
  ExitPlanBody,
  type ExitPlanT,
  type ExposureReportT,
  GcpPolicyQuery,
  type LifecycleListT,
  type SavedListDetailT,
  type ServiceDetailT,
  type ServiceListT,
  PolicyBody,
  ScpBody,
  SCP_STRATEGIES,
  ScpQuery,
} from "../catalogue/schema/index.ts";

/** What a tool asks of its contract row: the row, and its request's parts as the API would receive them. */
export interface RowRequest extends PartsOfRequest {
  readonly operationId: string;
}

/** A tool: its name (its title is the contract's, catalogue/contract/mcp.ts), input and contract row. */
export interface ToolSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: McpToolName;
  readonly description: string;
  readonly input: S;
  /** The row's request; provider and category names are resolved against the catalogue here. */
  readonly request: (args: z.output<z.ZodObject<S>>, catalogue: Catalogue) => RowRequest;
  /** The answer cut to the tool's size arguments (./fit.ts); absent where the answer is small. */
  readonly fit?: (answer: never, args: z.output<z.ZodObject<S>>, catalogue: Catalogue) => unknown;
  /** What a successful answer holds: the row's response schema, or its cut (outputSchema). */
  readonly output: z.ZodObject;
}

const tool = <S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec => spec as unknown as ToolSpec;

const slugArray = (max: number) =>
  z
    .array(z.string().min(1).max(MAX_ID_LENGTH), {
      // "aws-s3,gcp-gke" as one string: say what to send, not zod's "expected array" alone (issue 101).
      error: (issue) =>
        issue.code === "invalid_type" && typeof issue.input === "string"
          ? `expected an array of slugs, e.g. ["aws-s3", "gcp-cloud-storage"], not one string`
          : undefined,
    })
    .min(1)
    .max(max)
    .meta({ description: `Service slugs (1 to ${max}), e.g. ["aws-s3", "gcp-cloud-storage"]` });

/** Query-string flags of the API ("true"/"false") from JSON booleans. */
const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));

const defined = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

/** Values of one list filter (compliance, jurisdiction): more than the vocabulary holds is a mistake. */
const MAX_LIST_FILTER = 64;

const SEARCH_LIMIT = MCP_SEARCH_LIMIT.default;
const SEARCH_MAX_LIMIT = MCP_SEARCH_LIMIT.max;

const providerArg = z.string().max(MAX_ID_LENGTH).optional().meta({
  description:
    'Provider id (aws, azure, gcp, ovhcloud, …) or its name ("Amazon", "Google Cloud", "OVH" resolve); an unknown one is refused with the valid ids',
});

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

/** An exit target's provider lists (providers, exclude) with names resolved to ids. */
function resolveTargetProviders<T extends { providers?: string[]; exclude?: string[] }>(
  to: T,
  catalogue: Catalogue,
): T {
  const ids = (values: string[] | undefined) => values?.map((value) => resolveProvider(catalogue, value));
  return defined({ ...to, providers: ids(to.providers), exclude: ids(to.exclude) }) as T;
}

export const POLICY_FORMATS = ["scp", "azure", "gcp"] as const;
const POLICY_ROWS = { scp: "generateScp", azure: "generateAzurePolicy", gcp: "generateGcpOrgPolicy" } as const;

/** Options of generate_policy that only some formats take. */
const FORMAT_ONLY: Record<string, readonly (typeof POLICY_FORMATS)[number][]> = {
  strategy: ["scp"],
  part: ["scp", "gcp"],
  exemptPrincipalArns: ["scp"],
  organizationId: ["gcp"],
};

export const TOOLS: readonly ToolSpec[] = [
  tool({
    name: "search_services",
    description: `Search and filter the catalogue's services (GET /v1/services): free text over names, aliases, tags and descriptions in relevance order, typo-tolerant; filter by provider id, category id, lifecycle status, free tier, compliance programmes (all required), the provider's head-office jurisdiction, or the regions or countries a service runs in (any of those given); questions in English, German, French, Italian, Spanish or Dutch. When nothing matches, search.unmatchedWords names the words no service has and search.nearestJobs the nearest equivalence groups (get them with catalogue://equivalents/{id}). A product the catalogue does not list (Snowflake, Vercel) is answered with the services of its kind, search.otherProduct naming it, its kinds and why. Paged: 1 to ${SEARCH_MAX_LIMIT} per page (default ${SEARCH_LIMIT}).`,
    // The arguments are the filter table's services rows (catalogue/search/filter-table.ts): each
    // parameter of GET /v1/services as JSON, lists as arrays; names are read by the API's own rows.
    input: mcpFilterInput("services"),
    request: (args) => ({ operationId: "listServices", query: mcpFilterQuery("services", args) }),
    fit: (answer: ServiceListT) => fitServiceList(answer),
    output: ServiceList,
  }),
  tool({
    name: "get_service",
    description:
      "One service by slug (GET /v1/services/{slug}): its facts, lifecycle, sub-services, versions and tiers with their end dates and statuses (ended ones with endedVersions), equivalents on other providers, policy identifiers, dependencies, where it runs (regions, and placement: global, regional or provider-level, with the data's source and date) and the vendor sources behind it.",
    input: {
      slug: z.string().min(1).max(MAX_ID_LENGTH).meta({ description: "Service slug, e.g. aws-s3" }),
      equivalentsLimit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .optional()
        .meta({
          description: `Equivalents shown (default ${EQUIVALENTS_LIMIT}), every provider's flagship first, the largest providers first; the rest are counted in omitted`,
        }),
      equivalentsProviders: z
        .array(z.string().min(1).max(MAX_ID_LENGTH))
        .min(1)
        .max(50)
        .optional()
        .meta({ description: 'Only equivalents on these providers: ids or names, e.g. ["gcp", "OVH"]' }),
      endedVersions: z.boolean().optional().meta({
        description: "Also the versions whose support has ended (by default only supported and extended ones)",
      }),
    },
    request: ({ slug }) => ({ operationId: "getService", params: { slug } }),
    fit: (answer: ServiceDetailT, { equivalentsLimit, equivalentsProviders, endedVersions }, catalogue) =>
      fitService(answer, catalogue, {
        ...(endedVersions ? { endedVersions } : {}),
        ...(equivalentsLimit ? { limit: equivalentsLimit } : {}),
        ...(equivalentsProviders
          ? { providers: equivalentsProviders.map((provider) => resolveProvider(catalogue, provider)) }
          : {}),
      }),
    output: ServiceDetail.extend({ omitted: Omitted.optional() }),
  }),
  tool({
    name: "compare_services",
    description: `Up to ${MAX_COMPARE_IDS} services side by side (GET /v1/compare): shared attributes, compliance in common and apart, whether they are equivalent.`,
    input: { ids: slugArray(MAX_COMPARE_IDS) },
    request: ({ ids }) => ({ operationId: "compareServices", query: { ids: ids.join(",") } }),
    output: CompareResult,
  }),
  tool({
    name: "exposure_scorecard",
    description: `Head-office jurisdictions, region countries, US-headquartered share, sovereign and EU-resident-only counts for up to ${MAX_EXPOSURE_IDS} services (GET /v1/exposure). Procurement triage, not legal advice.`,
    input: {
      ids: slugArray(MAX_EXPOSURE_IDS),
      servicesLimit: z
        .number()
        .int()
        .min(1)
        .max(MAX_EXPOSURE_IDS)
        .optional()
        .meta({ description: `Per-service rows shown (default ${EXPOSURE_ROWS}); the totals count every service` }),
      regions: z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_LIST_FILTER).optional().meta({
        description:
          'Where the data sits: places (region ids, countries, "EU", "EEA", multi-regions, "global"; e.g. ["EU"]): a regional service\'s region countries become those of the asked regions it runs in, a global service\'s those of the region its vendor names, and a provider-level service is listed apart (providerLevel, possibleRegions); the parent company\'s jurisdiction still reaches the data',
      }),
    },
    request: ({ ids, regions }) => ({
      operationId: "getExposure",
      query: defined({ ids: ids.join(","), regions: regions?.join(",") }),
    }),
    fit: (answer: ExposureReportT, { servicesLimit }) => fitExposure(answer, servicesLimit),
    output: ExposureReport.extend({ omitted: Omitted.optional() }),
  }),
  tool({
    name: "lifecycle_upcoming",
    description:
      "Services in preview, deprecated, sunsetting or retired, and the end dates of their versions and tiers (GET /v1/lifecycle), by next relevant date; ids keeps those services' entries, provider, status and kind (service or version) filter, withinDays keeps those whose sunset date falls between today (UTC) and today + n days.",
    input: {
      withinDays: z
        .number()
        .int()
        .min(0)
        .max(LIFECYCLE_WITHIN_MAX_DAYS)
        .optional()
        .meta({ description: `Only sunset dates from today to today + n days (0 to ${LIFECYCLE_WITHIN_MAX_DAYS})` }),
      ids: slugArray(MAX_APPROVED_IDS)
        .optional()
        .meta({ description: 'Only these services\' entries: slugs, e.g. ["aws-ec2"]; an unknown one is refused' }),
      provider: providerArg,
      status: LifecycleQuery.shape.status,
      kind: LifecycleQuery.shape.kind,
      from: isoDay.optional().meta({ description: "Only sunset dates on or after this day (YYYY-MM-DD)" }),
      to: isoDay.optional().meta({ description: "Only sunset dates on or before this day (YYYY-MM-DD)" }),
      page: z.number().int().min(1).optional().meta({ description: "1-based page of limit entries" }),
      limit: z
        .number()
        .int()
        .min(1)
        .max(LIFECYCLE_MAX_LIMIT)
        .optional()
        .meta({ description: `Entries per page (default ${LIFECYCLE_LIMIT}, at most ${LIFECYCLE_MAX_LIMIT})` }),
    },
    request: ({ withinDays, provider, status, kind, ids }, catalogue) => ({
      operationId: "listLifecycle",
      query: defined({
        ids: ids?.join(","),
        within: withinDays === undefined ? undefined : `${withinDays}d`,
        provider: provider === undefined ? undefined : resolveProvider(catalogue, provider),
        status,
        kind,
      }),
    }),
    fit: (answer: LifecycleListT, args) => fitLifecycle(answer, args),
    output: LifecycleList.extend({ omitted: Omitted.optional() }),
  }),
  tool({
    name: "generate_policy",
    description:
      "The ready-to-apply policy that allows only the approved services (POST /v1/policies/…): format scp (AWS service control policy), azure (Azure Policy initiative) or gcp (GCP organization policy). allowedLocations (regions, countries, EU or EEA) adds each vendor's location rule; gcp then answers two policies, one per part. explain: true adds what was skipped, implied, kept as essentials and the notes. terraform: true answers the same document as Terraform/OpenTofu configuration (text: a .tf file's content). A starting point: review and test it in a non-production unit first.",
    input: {
      format: z.enum(POLICY_FORMATS).meta({ description: "scp (AWS), azure (Azure Policy) or gcp (Google Cloud)" }),
      approvedServiceIds: ApprovedServicesBody.shape.approvedServiceIds,
      explain: z.boolean().optional().meta({ description: ScpQuery.shape.explain.description! }),
      essentials: z.boolean().optional().meta({ description: ScpQuery.shape.essentials.description! }),
      // The API's default (deny-list) is applied by the row: a default here would read as an scp option given.
      strategy: z.enum(SCP_STRATEGIES).optional().meta({ description: ScpQuery.shape.strategy.description! }),
      part: ScpQuery.shape.part.meta({
        description: `${ScpQuery.shape.part.description!}; gcp with allowedLocations: ${GcpPolicyQuery.shape.part.description!}`,
      }),
      exemptPrincipalArns: ScpBody.shape.exemptPrincipalArns,
      allowedLocations: PolicyBody.shape.allowedLocations,
      organizationId: GcpPolicyQuery.shape.organizationId,
      terraform: z.boolean().optional().meta({
        description:
          "true: the same document as Terraform/OpenTofu configuration (the provider's resources, variables and attachment or assignment), answered as text/x-hcl in text; not with explain",
      }),
    },
    request: (args) => {
      for (const [option, formats] of Object.entries(FORMAT_ONLY))
        if (args[option as keyof typeof args] !== undefined && !formats.includes(args.format))
          throw new HttpError(400, "Invalid arguments", `${option} applies to format ${formats.join(" or ")} only`);
      const {
        format,
        approvedServiceIds,
        exemptPrincipalArns,
        allowedLocations,
        explain,
        essentials,
        terraform,
        ...options
      } = args;
      return {
        operationId: POLICY_ROWS[format],
        query: defined({
          ...options,
          explain: flag(explain),
          essentials: flag(essentials),
          format: terraform ? "terraform" : undefined,
        }),
        body: defined({ approvedServiceIds, exemptPrincipalArns, allowedLocations }),
        headers: {},
      };
    },
    // Three formats, three documents: described by their own rows; here, any JSON object (with
    // terraform, {text, contentType}).
    output: z.looseObject({}),
  }),
  tool({
    name: "exit_plan",
    description:
      "Maps an approved list onto the providers a target allows (POST /v1/exit-plan): per service stays, mapped (ranked peers with reasons) or a named gap; a proposed target list keeping providers few; exposure before and after.",
    input: {
      ...ExitPlanBody.shape,
      // A copy without the OpenAPI component id (ExitTarget) that JSON Schema would list as a $ref:
      // extend() makes a new schema, no child of the one with the id, its checks and messages kept.
      to: ExitPlanBody.shape.to.extend({}).meta({ description: ExitPlanBody.shape.to.description! }),
      detail: z.enum(["summary", "full"]).optional().meta({
        description:
          "summary (default): per service the rank-1 pick, its reason and any gap; full: every ranked candidate with its reasons",
      }),
      page: z.number().int().min(1).optional().meta({ description: "1-based page of the approved services" }),
      limit: z
        .number()
        .int()
        .min(1)
        .max(EXIT_PLAN_MAX_PAGE)
        .optional()
        .meta({ description: `Services per page (default ${EXIT_PLAN_PAGE}, at most ${EXIT_PLAN_MAX_PAGE})` }),
    },
    request: ({ detail: _detail, page: _page, limit: _limit, ...body }, catalogue) => ({
      operationId: "planExit",
      query: {},
      // Provider names resolve here as in every tool ("ovh", "Google Cloud"); the row checks the ids.
      body: { ...body, to: resolveTargetProviders(body.to, catalogue) },
      headers: {},
    }),
    fit: (answer: ExitPlanT, args) => fitExitPlan(answer, args),
    output: ExitPlan.omit({ services: true }).extend({
      services: z.array(z.looseObject({ slug: z.string(), outcome: z.string(), reason: z.string() })),
      exposure: z.looseObject({}),
      omitted: Omitted.optional(),
    }),
  }),
  tool({
    name: "get_saved_list",
    description:
      "A saved approved-services list by slug or id (GET /v1/lists/{id}), read only, with its services resolved. Lists live in the API server's store: the HTTP endpoint reads them; the stdio server, which has no store, says so. Over HTTP each call counts in the misses bucket (20 a minute per IP), so slugs cannot be guessed quickly.",
    input: {
      id: z.string().min(1).max(MAX_ID_LENGTH).meta({ description: "The list's slug or generated id" }),
      servicesLimit: z
        .number()
        .int()
        .min(1)
        .max(50)
        .optional()
        .meta({ description: `Resolved services shown (default ${LIST_SERVICES}); approvedServiceIds has every id` }),
    },
    request: ({ id }) => ({ operationId: "getList", params: { id } }),
    fit: (answer: SavedListDetailT, { servicesLimit }) => fitSavedList(answer, servicesLimit),
    output: SavedListDetail.extend({ omitted: Omitted.optional() }),
  }),
  tool(CHECK_DEPLOYMENT_TOOL),
  tool(DORA_REGISTER_TOOL),
];

/**
 * What an MCP call runs with: the API's operation context and who is asking (the rate-limit key over
 * HTTP); `countIn` counts a tool running a strict row, such as generate_policy, as POST
 * /v1/policies/* is (absent over stdio, a local process).
 */
export interface ToolContext extends ClientContext {
  /** Why saved lists cannot be read here (the stdio server has no store); absent where they can. */
  readonly listsUnavailable?: string;
}

/** The row's answer as JSON: the API's body, or its JSON text parsed; other text as it is. */
export type RowAnswer = { readonly json: unknown } | { readonly text: string; readonly contentType: string };

/** Runs a row as the API route does: its schemas validate the request, then its handler answers. */
export async function runRow(context: ToolContext, request: RowRequest): Promise<RowAnswer> {
  const row: Endpoint | undefined = context.table.find((candidate) => candidate.operationId === request.operationId);
  if (!row) throw new HttpError(404, "Not found", `This server has no ${request.operationId} operation`);
  const result = await answerRow(row, context, rowInput(row, request), { client: context.client });
  if ("body" in result) return { json: result.body };
  if (result.contentType.startsWith("application/json")) return { json: JSON.parse(result.text) as unknown };
  return { text: result.text, contentType: result.contentType };
}
