/**
 * The one contract table: every endpoint of the API, declared once with everything about it (see
 * endpoint.ts for a row's fields). The sidecar registers its routes from these rows
 * (sidecar/routes/api.ts), the build writes their files (scripts/build.ts), the servers map a URL
 * to its file (static.ts), nginx's locations are generated from them (scripts/deploy-config.ts),
 * and so are OpenAPI and discovery (openapi.ts). Contract: ../shared/spec/catalogue-api-v1.md.
 */
import { z } from "zod";
import { compareServices } from "./compare.ts";
import { endpoint, serializeJson, type Endpoint, type PublicUrls, type Result, type StaticFile } from "./endpoint.ts";
import { exitPlan, exitTargetOfQuery } from "./exit-plan.ts";
import { equivalenceGroup, equivalenceMatrix } from "./equivalents.ts";
import { exposureReport } from "./exposure.ts";
import { parseIdList, requireKnownIds } from "./ids.ts";
import {
  DEFAULT_PAGE_SIZE,
  FEEDBACK_MESSAGE,
  LIST_LIFETIME_DAYS,
  MAX_COMPARE_IDS,
  MAX_EXPOSURE_IDS,
  STATUS_HISTORY_HOURS,
  STATUS_HISTORY_LIMIT,
  STATUS_SAMPLE_MINUTES,
} from "./limits.ts";
import { changesAtom } from "./changes.ts";
import {
  catalogueDay,
  dayOf,
  lifecycleAtom,
  lifecycleCalendar,
  lifecycleFilterOf,
  lifecycleList,
  LifecycleQuery,
} from "./lifecycle.ts";
import { cleanListName, listPath, newList, resolveList, type StoredList } from "./lists.ts";
import type { Catalogue } from "./load.ts";
import { discoveryDocument, openApiDocument } from "./openapi.ts";
import {
  azurePolicySet,
  gcpOrgPolicy,
  policyAnswer,
  PolicyRequestError,
  scpAnswer,
  scpPolicy,
} from "./policies/documents.ts";
import { changelog } from "./changelog.ts";
import {
  IdempotencyKeyReusedError,
  SlugTakenError,
  StoreOutcomeUnknownError,
  StoreUnavailableError,
  type RecordStore,
} from "./ports.ts";
import { HttpError } from "./problem.ts";
import { listServices, pageCount, serviceDetail } from "./query.ts";
import { renderMarkdown } from "./render/markdown.ts";
import { stripControl } from "./render/doc.ts";
import { approvedListDoc } from "./render/pages.ts";
import { exitPlanCsv, exitPlanDoc } from "./render/exit-plan.ts";
import {
  AcceptHeaders,
  ApprovedServicesBody,
  ScpBody,
  AzurePolicySetResponse,
  ExitPlan,
  ExitPlanBody,
  ExitPlanFormatQuery,
  ExitPlanQuery,
  BuildManifest,
  Category,
  Changelog,
  ChangeHistory,
  CompareResult,
  EquivalenceGroupDetail,
  EquivalenceMatrix,
  ExposureReport,
  FEEDBACK_TYPES,
  FeedbackBody,
  FeedbackResult,
  GcpOrgPolicyResponse,
  GcpPolicyQuery,
  Health,
  IdempotencyHeaders,
  LifecycleList,
  OutboundClickBody,
  OutboundClickResult,
  PolicyQuery,
  Provider,
  SavedList,
  SavedListCreate,
  SavedListDetail,
  ScpQuery,
  ScpResponse,
  ServiceDetail,
  ServiceList,
  ServicesQuery,
  StatusHistory,
  StatusReport,
  type ExitPlanFormat,
  type ExitPlanT,
  type FeedbackBodyT,
  type SavedListT,
} from "./schema/index.ts";
import { statusReport } from "./status.ts";

/**
 * parseIdList's bounds (ids.ts) as a pattern: items separated by commas, 1 to `max` of them not
 * blank (blank ones are dropped, so any number may be around them). Trimming is JavaScript's, the
 * same white space as \s.
 */
export const idListPattern = (max: number): string => {
  const item = String.raw`\s*[^,\s][^,]*`;
  const blanks = String.raw`(?:\s*,)*`;
  return `^${blanks}${item}(?:,${blanks}${item}){0,${max - 1}}(?:,\\s*)*$`;
};

const slugList = (max: number) =>
  z.string().meta({
    description: `Comma-separated service slugs (1 to ${max}, duplicates counted); trimmed, empty items and duplicates dropped`,
    example: "aws-s3,gcp-cloud-storage",
    pattern: idListPattern(max),
  });

const ATOM = "application/atom+xml";
const CALENDAR = "text/calendar; charset=utf-8";

const text = (body: string, contentType: string): Result => ({ text: body, contentType });
const json = (body: unknown): Result => ({ text: serializeJson(body), contentType: "application/json; charset=utf-8" });
const file = (path: string, body: unknown): StaticFile => ({ file: path, body: serializeJson(body) });

/**
 * A store failure as the client should read it: a read "try again"; a write that certainly did not
 * happen "nothing was saved"; a write that reached the store unconfirmed (a timeout, a lost
 * connection, no replica's acknowledgement) `unknownOutcome`: it may have been saved, and how to
 * check — never "nothing was saved", which would invite a duplicate or a 409 on retry.
 */
async function storeCall<T>(call: () => Promise<T>, write?: { unknownOutcome: () => string }): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    if (error instanceof StoreOutcomeUnknownError && write)
      throw new HttpError(503, "Service unavailable", write.unknownOutcome());
    throw new HttpError(
      503,
      "Service unavailable",
      write
        ? "Storage is unreachable; try again shortly. Nothing was saved."
        : "Storage is unreachable; try again shortly.",
    );
  }
}

const FEEDBACK_OUTCOME_UNKNOWN = "The outcome is unknown: it may have been recorded. Retrying may record it twice.";

function savedList(urls: PublicUrls, { idempotency: _, ...list }: StoredList): SavedListT {
  return {
    ...list,
    // Lists saved before names were cleaned may still hold ESC or bidi characters.
    name: cleanListName(list.name),
    approvedServiceIds: [...list.approvedServiceIds],
    url: `${urls.textUrl}${listPath(list)}`,
  };
}

const catalogueCalendar = (catalogue: Catalogue, urls: PublicUrls) =>
  lifecycleCalendar(catalogue, urls, {
    name: "Cloud service sunsets",
    description: "Sunset and retirement dates of cloud services, from the Cloud Services Catalogue.",
  });

/** Everything in one file, for mirrors and scripts. */
function catalogueDump(catalogue: Catalogue) {
  return {
    providers: catalogue.providers,
    categories: catalogue.categories,
    services: catalogue.services.map((service) => serviceDetail(catalogue, service.slug)),
    equivalenceGroups: catalogue.groups,
  };
}

const listNotFound = () =>
  new HttpError(
    404,
    "List not found",
    `No list has this slug or id; lists expire ${LIST_LIFETIME_DAYS} days after creation.`,
  );

/** A policy generator's answer, or its refusal (nothing to allow, too large, bad part) as a 400. */
function policyCall(call: () => unknown): Result {
  try {
    return { body: call() };
  } catch (error) {
    if (error instanceof PolicyRequestError) throw new HttpError(400, error.title, error.message);
    throw error;
  }
}

/** essentials=false opts out of keeping the vendor's account-operation essentials usable. */
const essentials = (query: { essentials?: boolean | undefined }) =>
  query.essentials === false ? { essentials: false } : {};

/**
 * Feedback as the product keeps it, from POST /v1/feedback and the site's form alike: an
 * unrecognised type becomes general, control characters are stripped, durable before it resolves.
 */
export async function recordFeedback(store: RecordStore, body: FeedbackBodyT, now: Date): Promise<void> {
  const type = (FEEDBACK_TYPES as readonly string[]).includes(body.type ?? "") ? body.type! : "general";
  await storeCall(
    () =>
      store.recordFeedback({
        type,
        message: stripControl(body.message),
        ...(body.email ? { email: body.email } : {}),
        ...(body.page ? { page: body.page } : {}),
        receivedAt: now.toISOString(),
      }),
    { unknownOutcome: () => FEEDBACK_OUTCOME_UNKNOWN },
  );
}

const approvedIds = (catalogue: Catalogue, body: { approvedServiceIds: string[] }) =>
  requireKnownIds(catalogue, body.approvedServiceIds);

const MARKDOWN = "text/markdown; charset=utf-8";
const CSV = "text/csv; charset=utf-8";
const EXIT_PLAN_ALTERNATES = [MARKDOWN, CSV];

/** ?format wins; else Accept naming text/markdown or text/csv; else JSON. */
function exitPlanFormat(format: ExitPlanFormat | undefined, accept: string | undefined): ExitPlanFormat {
  if (format) return format;
  const asked = (accept ?? "").toLowerCase();
  if (asked.includes("text/markdown")) return "md";
  if (asked.includes("text/csv")) return "csv";
  return "json";
}

/** An exit plan in the format asked for. */
function exitPlanAnswer(
  catalogue: Catalogue,
  urls: PublicUrls,
  plan: ExitPlanT,
  format: ExitPlanFormat,
  listName?: string,
): Result {
  if (format === "md")
    return text(
      renderMarkdown(
        exitPlanDoc(catalogue, plan, { base: urls.textUrl, ...(listName === undefined ? {} : { listName }) }),
      ),
      MARKDOWN,
    );
  if (format === "csv") return text(exitPlanCsv(plan), CSV);
  return { body: plan };
}

export const ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "getDiscovery",
    method: "GET",
    path: "/",
    summary: "Discovery document",
    description: "Name, description, versions and the endpoint list of this API.",
    tag: "Discovery",
    response: { status: 200, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "index.json", files: (_c, urls, table) => [file("index.json", discoveryDocument(urls, table))] },
    example: { request: "GET /" },
    handler: (c) => json(discoveryDocument(c.urls, c.table)),
  }),
  endpoint({
    operationId: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    summary: "OpenAPI 3.1 description",
    description: "This API described in OpenAPI 3.1.",
    tag: "Discovery",
    response: { status: 200, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "openapi.json", files: (_c, urls, table) => [file("openapi.json", openApiDocument(urls, table))] },
    example: { request: "GET /openapi.json" },
    handler: (c) => json(openApiDocument(c.urls, c.table)),
  }),
  endpoint({
    operationId: "listProviders",
    method: "GET",
    path: "/v1/providers",
    summary: "List providers",
    description: "Every provider, with head office, jurisdiction, regions and the sovereignty flags.",
    tag: "Catalogue",
    response: { status: 200, schema: z.array(Provider), contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/providers.json", files: (c) => [file("v1/providers.json", c.providers)] },
    example: { request: "GET /v1/providers" },
    handler: (c) => json(c.catalogue.providers),
  }),
  endpoint({
    operationId: "listCategories",
    method: "GET",
    path: "/v1/categories",
    summary: "List categories",
    description: "Every service category.",
    tag: "Catalogue",
    response: { status: 200, schema: z.array(Category), contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/categories.json", files: (c) => [file("v1/categories.json", c.categories)] },
    example: { request: "GET /v1/categories" },
    handler: (c) => json(c.catalogue.categories),
  }),
  endpoint({
    operationId: "getChangelog",
    method: "GET",
    path: "/v1/changelog",
    summary: "Contract changelog",
    description: "Every version of the API contract, newest first, with its date and changes.",
    tag: "Discovery",
    response: { status: 200, schema: Changelog, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/changelog.json", files: () => [file("v1/changelog.json", changelog())] },
    example: { request: "GET /v1/changelog" },
    handler: () => json(changelog()),
  }),
  endpoint({
    operationId: "listServices",
    method: "GET",
    path: "/v1/services",
    summary: "Search and filter services",
    description:
      "Services ordered by provider then name, or by relevance when q is given. Unknown parameters are ignored; a bad page or limit is a 400.",
    tag: "Catalogue",
    query: ServicesQuery,
    response: { status: 200, schema: ServiceList, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    static: {
      file: "v1/services.json",
      pages: { file: "v1/services/pages/{page}.json", limit: DEFAULT_PAGE_SIZE },
      files: function* (c) {
        for (let page = 1; page <= pageCount(c, DEFAULT_PAGE_SIZE); page++)
          yield file(
            page === 1 ? "v1/services.json" : `v1/services/pages/${page}.json`,
            listServices(c, { page, limit: DEFAULT_PAGE_SIZE }),
          );
      },
    },
    example: { request: "GET /v1/services?q=object%20storage&provider=aws&limit=10" },
    handler: (c, { query }) => ({ body: listServices(c.catalogue, query) }),
  }),
  endpoint({
    operationId: "getService",
    method: "GET",
    path: "/v1/services/{slug}",
    summary: "Get one service",
    description: "A service with sub-services, equivalents on other providers and policy identifiers.",
    tag: "Catalogue",
    params: z.object({ slug: z.string().meta({ description: "Service slug", example: "aws-s3" }) }),
    response: { status: 200, schema: ServiceDetail, contentType: "application/json" },
    errors: [404],
    cache: "public",
    pure: true,
    static: {
      file: "v1/services/{slug}.json",
      files: function* (c) {
        for (const service of c.services)
          yield file(`v1/services/${service.slug}.json`, serviceDetail(c, service.slug));
      },
    },
    example: { request: "GET /v1/services/aws-s3" },
    handler: (c, { params }) => {
      const detail = serviceDetail(c.catalogue, params.slug);
      if (!detail)
        throw new HttpError(
          404,
          "Service not found",
          `No service with slug "${params.slug.slice(0, 100)}"; search with GET /v1/services?q=…`,
        );
      return json(detail);
    },
  }),
  endpoint({
    operationId: "listEquivalents",
    method: "GET",
    path: "/v1/equivalents",
    summary: "The equivalence matrix",
    description:
      "Every equivalence group (one kind of service: object storage, managed Kubernetes…) with its members by provider, the largest portfolios first and each provider's flagship first; and the providers, largest first, as the matrix's possible columns.",
    tag: "Catalogue",
    response: { status: 200, schema: EquivalenceMatrix, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/equivalents.json", files: (c) => [file("v1/equivalents.json", equivalenceMatrix(c))] },
    example: { request: "GET /v1/equivalents" },
    handler: (c) => json(equivalenceMatrix(c.catalogue)),
  }),
  endpoint({
    operationId: "getEquivalenceGroup",
    method: "GET",
    path: "/v1/equivalents/{id}",
    summary: "Get one equivalence group",
    description: "One equivalence group with its member services in full, by provider.",
    tag: "Catalogue",
    params: z.object({ id: z.string().meta({ description: "Equivalence group id", example: "object-storage" }) }),
    response: { status: 200, schema: EquivalenceGroupDetail, contentType: "application/json" },
    errors: [404],
    cache: "public",
    pure: true,
    static: {
      file: "v1/equivalents/{id}.json",
      files: function* (c) {
        for (const group of c.groups) yield file(`v1/equivalents/${group.id}.json`, equivalenceGroup(c, group.id));
      },
    },
    example: { request: "GET /v1/equivalents/object-storage" },
    handler: (c, { params }) => {
      const group = equivalenceGroup(c.catalogue, params.id);
      if (!group)
        throw new HttpError(
          404,
          "Equivalence group not found",
          `No equivalence group with id "${params.id.slice(0, 100)}"; GET /v1/equivalents lists them`,
        );
      return json(group);
    },
  }),
  endpoint({
    operationId: "listLifecycle",
    method: "GET",
    path: "/v1/lifecycle",
    summary: "Lifecycle watch",
    description:
      "Every lifecycle entry (preview, deprecated, sunset, retired) by next relevant date: upcoming dates soonest first, then undated entries, then past dates most recent first. `within=<n>d` keeps entries whose sunsetDate is between today (UTC, the request's day) and today + n days, both included, leaving out undated and past ones; `status` and `provider` filter too. Without a query the answer is the static file, ordered as of the catalogue's last update (asOf says which day). An unknown provider, a bad status or a bad within is a 400.",
    tag: "Catalogue",
    query: LifecycleQuery,
    response: { status: 200, schema: LifecycleList, contentType: "application/json" },
    errors: [400],
    cache: "public",
    static: {
      file: "v1/lifecycle.json",
      files: (c, urls) => [file("v1/lifecycle.json", lifecycleList(c, urls, catalogueDay(c)))],
    },
    example: { request: "GET /v1/lifecycle?within=90d&provider=gcp" },
    handler: (c, { query }) => {
      const filter = lifecycleFilterOf(c.catalogue, query);
      const filtered = Object.values(filter).some((value) => value !== undefined);
      return json(lifecycleList(c.catalogue, c.urls, filtered ? dayOf(c.now()) : catalogueDay(c.catalogue), filter));
    },
  }),
  endpoint({
    operationId: "getLifecycleAtom",
    method: "GET",
    path: "/v1/lifecycle.atom",
    summary: "Lifecycle feed (Atom)",
    description:
      "An Atom 1.0 feed with one entry per lifecycle announcement. Entry ids are tag: URIs made of slug, status and date: stable across builds, new when the announcement changes.",
    tag: "Catalogue",
    response: { status: 200, contentType: ATOM },
    errors: [],
    cache: "public",
    pure: true,
    static: {
      file: "v1/lifecycle.atom",
      files: (c, urls) => [{ file: "v1/lifecycle.atom", body: lifecycleAtom(c, urls) }],
    },
    example: { request: "GET /v1/lifecycle.atom" },
    handler: (c) => text(lifecycleAtom(c.catalogue, c.urls), ATOM),
  }),
  endpoint({
    operationId: "getLifecycleCalendar",
    method: "GET",
    path: "/v1/lifecycle.ics",
    summary: "Lifecycle calendar (iCalendar)",
    description:
      "An iCalendar (RFC 5545) with one all-day event per sunset or retirement date. UIDs are made of slug and date, so a calendar app updates events rather than duplicating them.",
    tag: "Catalogue",
    response: { status: 200, contentType: CALENDAR },
    errors: [],
    cache: "public",
    pure: true,
    static: {
      file: "v1/lifecycle.ics",
      files: (c, urls) => [{ file: "v1/lifecycle.ics", body: catalogueCalendar(c, urls) }],
    },
    example: { request: "GET /v1/lifecycle.ics" },
    handler: (c) => text(catalogueCalendar(c.catalogue, c.urls), CALENDAR),
  }),
  endpoint({
    operationId: "getChanges",
    method: "GET",
    path: "/v1/changes",
    summary: "Catalogue changes by release",
    description:
      "What each catalogue release added, removed, renamed or moved in lifecycle, newest first, each counted from the release before it; changes not yet recorded as a release come first with released: false.",
    tag: "Catalogue",
    response: { status: 200, schema: ChangeHistory, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/changes.json", files: (c) => [file("v1/changes.json", { data: c.changes })] },
    example: { request: "GET /v1/changes" },
    handler: (c) => json({ data: c.catalogue.changes }),
  }),
  endpoint({
    operationId: "getChangesAtom",
    method: "GET",
    path: "/v1/changes.atom",
    summary: "Catalogue changes feed (Atom)",
    description: "GET /v1/changes as an Atom 1.0 feed: one entry per release.",
    tag: "Catalogue",
    response: { status: 200, contentType: ATOM },
    errors: [],
    cache: "public",
    pure: true,
    static: {
      file: "v1/changes.atom",
      files: (c, urls) => [{ file: "v1/changes.atom", body: changesAtom(c.changes, c.lastUpdated, urls) }],
    },
    example: { request: "GET /v1/changes.atom" },
    handler: (c) => text(changesAtom(c.catalogue.changes, c.catalogue.lastUpdated, c.urls), ATOM),
  }),
  endpoint({
    operationId: "compareServices",
    method: "GET",
    path: "/v1/compare",
    summary: "Compare services",
    description: `Up to ${MAX_COMPARE_IDS} services side by side, with a shared-attribute table and compliance in common and apart.`,
    tag: "Catalogue",
    query: z.object({ ids: slugList(MAX_COMPARE_IDS) }),
    response: { status: 200, schema: CompareResult, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    example: { request: "GET /v1/compare?ids=aws-s3,azure-blob-storage,gcp-cloud-storage" },
    handler: (c, { query }) => ({
      body: compareServices(c.catalogue, parseIdList(c.catalogue, query.ids, MAX_COMPARE_IDS)),
    }),
  }),
  endpoint({
    operationId: "getExposure",
    method: "GET",
    path: "/v1/exposure",
    summary: "Jurisdictional exposure scorecard",
    description: `Head-office jurisdictions, region countries, US-headquartered share, sovereign and EU-resident-only counts for up to ${MAX_EXPOSURE_IDS} services. Procurement triage, not legal advice.`,
    tag: "Catalogue",
    query: z.object({ ids: slugList(MAX_EXPOSURE_IDS) }),
    response: { status: 200, schema: ExposureReport, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    example: { request: "GET /v1/exposure?ids=aws-s3,ovhcloud-object-storage" },
    handler: (c, { query }) => ({
      body: exposureReport(c.catalogue, parseIdList(c.catalogue, query.ids, MAX_EXPOSURE_IDS)),
    }),
  }),
  endpoint({
    operationId: "generateScp",
    method: "POST",
    path: "/v1/policies/alpha-scp",
    summary: "AWS service control policy",
    description:
      "The SCP itself ({Version, Statement}), ready for aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description \"Approved services\" --content file://scp.json. strategy=deny-list (default): one Deny statement whose NotAction lists the approved services' IAM prefixes and the account-operation essentials (iam, sts, organizations, account, billing, support, health…; essentials=false leaves them out), attached beside FullAWSAccess; over AWS's 5,120 characters it is a 400, since a deny-list cannot be split. strategy=allow-list: Allow SCPs attached in place of FullAWSAccess, whose Allows add up on one target (at most 5); when more than one is needed, fetch each with part=1… or all with explain=true (policies). explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}. Each approved service's actions under other prefixes are allowed too (e.g. ec2:*VerifiedAccess* for Verified Access). exemptPrincipalArns (deny-list only) exempts IAM role or user ARN patterns from the deny with an ArnNotLike aws:PrincipalARN condition. No approved AWS service with an IAM prefix: 400. A starting point: review actions, add co-required permissions, and test in a non-production organisational unit before use.",
    tag: "Policies",
    bucket: "strict",
    query: ScpQuery,
    body: ScpBody,
    response: { status: 200, schema: ScpResponse, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/alpha-scp", body: { approvedServiceIds: ["aws-s3", "aws-lambda"] } },
    handler: (c, { body, query }) =>
      policyCall(() => {
        const result = scpPolicy(c.catalogue, approvedIds(c.catalogue, body), {
          strategy: query.strategy,
          ...essentials(query),
          ...(body.exemptPrincipalArns ? { exemptPrincipalArns: body.exemptPrincipalArns } : {}),
        });
        return scpAnswer(result, {
          ...(query.explain ? { explain: true } : {}),
          ...(query.part ? { part: query.part } : {}),
        });
      }),
  }),
  endpoint({
    operationId: "generateAzurePolicy",
    method: "POST",
    path: "/v1/policies/beta-policy",
    summary: "Azure policy initiative",
    description:
      "The policy set definition itself, in the ARM shape ({properties: {displayName, policyType, parameters, policyDefinitions…}}), built on the built-in 'Allowed resource types' policy with the approved services' resource types and the account-operation essentials (resource groups, deployments, role assignments, policy, locks, diagnostic settings; essentials=false leaves them out). Create it with az rest --method put --url https://management.azure.com/providers/Microsoft.Management/managementGroups/{group}/providers/Microsoft.Authorization/policySetDefinitions/approved-services?api-version=2023-04-01 --body @policy-set.json, or az policy set-definition create --name approved-services --display-name (properties.displayName) --description (properties.description) --definitions (properties.policyDefinitions) --params (properties.parameters). explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}. The approved services' child types and quickstart companion types (network interfaces, public IPs, VM extensions…) are allowed too. No approved Azure service with a resource type: 400.",
    tag: "Policies",
    bucket: "strict",
    query: PolicyQuery,
    body: ApprovedServicesBody,
    response: { status: 200, schema: AzurePolicySetResponse, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/beta-policy", body: { approvedServiceIds: ["azure-blob-storage"] } },
    handler: (c, { body, query }) =>
      policyCall(() =>
        policyAnswer(azurePolicySet(c.catalogue, approvedIds(c.catalogue, body), essentials(query)), query),
      ),
  }),
  endpoint({
    operationId: "generateGcpOrgPolicy",
    method: "POST",
    path: "/v1/policies/gamma-org-policy",
    summary: "GCP organisation policy",
    description:
      "The organization policy itself ({name, spec.rules}), restricting constraints/gcp.restrictServiceUsage to every approved service's API names (confirmed as supported or not: an unsupported name is harmless) and the essentials (serviceusage, cloudresourcemanager, iam, logging, monitoring…; essentials=false leaves them out). Apply with gcloud org-policies set-policy policy.json after replacing ORGANIZATION_ID, or pass organizationId. explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}, unconfirmed listing the API names Google does not confirm as supported. The APIs the approved services depend on are allowed too (compute.googleapis.com for GKE…). No approved Google Cloud service with an API name: 400.",
    tag: "Policies",
    bucket: "strict",
    query: GcpPolicyQuery,
    body: ApprovedServicesBody,
    response: { status: 200, schema: GcpOrgPolicyResponse, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/gamma-org-policy", body: { approvedServiceIds: ["gcp-cloud-storage"] } },
    handler: (c, { body, query }) =>
      policyCall(() => {
        const options = {
          ...essentials(query),
          ...(query.organizationId ? { organizationId: query.organizationId } : {}),
        };
        return policyAnswer(gcpOrgPolicy(c.catalogue, approvedIds(c.catalogue, body), options), query);
      }),
  }),
  endpoint({
    operationId: "exportMarkdown",
    method: "POST",
    path: "/v1/export/markdown",
    summary: "Markdown export",
    description: "The approved list as Markdown for runbooks, lifecycle shown.",
    tag: "Policies",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, contentType: "text/markdown; charset=utf-8" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/export/markdown", body: { approvedServiceIds: ["aws-s3", "gcp-bigquery"] } },
    handler: (c, { body }) => ({
      text: renderMarkdown(approvedListDoc(c.catalogue, approvedIds(c.catalogue, body))),
      contentType: "text/markdown; charset=utf-8",
    }),
  }),
  endpoint({
    operationId: "createList",
    method: "POST",
    path: "/v1/lists",
    summary: "Save an approved-services list",
    description: `Saves a list for ${LIST_LIFETIME_DAYS} days and returns its shareable id, slug and URL. 409 when an explicit slug is taken.`,
    tag: "Lists",
    bucket: "strict",
    headers: IdempotencyHeaders,
    body: SavedListCreate,
    response: { status: 200, schema: SavedList, contentType: "application/json" },
    errors: [400, 409, 413, 415, 422, 429, 503],
    cache: "no-store",
    example: {
      request: "POST /v1/lists",
      body: { name: "Platform baseline", approvedServiceIds: ["aws-s3", "aws-ec2"] },
    },
    handler: async (c, { body, headers, client }) => {
      const ids = approvedIds(c.catalogue, body);
      const idempotencyKey = headers["idempotency-key"];
      const candidate = newList(
        {
          name: body.name,
          slug: body.slug,
          ids,
          idempotencyKey: idempotencyKey === undefined ? undefined : { key: idempotencyKey, client },
        },
        c.now(),
      );
      try {
        const list = await storeCall(() => c.store.createList(candidate), {
          unknownOutcome: () => {
            const check = body.slug
              ? `/v1/lists/${body.slug} (or /v1/lists/${candidate.id})`
              : `/v1/lists/${candidate.id}`;
            return `The outcome is unknown: the list may have been saved. GET ${check} to check before retrying${idempotencyKey ? ", or retry with the same Idempotency-Key" : ""}.`;
          },
        });
        return { body: savedList(c.urls, list) };
      } catch (error) {
        if (error instanceof IdempotencyKeyReusedError)
          throw new HttpError(
            422,
            "Idempotency-Key reused",
            "This Idempotency-Key was already used with a different request body; send a new key for a new list, or the same body to get the list it saved.",
          );
        if (error instanceof SlugTakenError)
          throw new HttpError(
            409,
            "Slug taken",
            `The slug "${error.slug}" is already used by another list; choose another or omit it.`,
          );
        throw error;
      }
    },
  }),
  endpoint({
    operationId: "getList",
    method: "GET",
    path: "/v1/lists/{id}",
    summary: "Get a saved list",
    description: "By slug first, then by id. Expired lists answer 404.",
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    response: { status: 200, schema: SavedListDetail, contentType: "application/json" },
    errors: [404, 503],
    cache: "until-expiry",
    example: { request: "GET /v1/lists/platform-baseline" },
    handler: async (c, { params }) => {
      const list = await storeCall(() => c.store.getList(params.id, c.now()));
      if (!list) throw listNotFound();
      // A saved list never changes; its answer can be reused until it expires.
      return {
        body: { ...savedList(c.urls, list), ...resolveList(c.catalogue, list) },
        expiresAt: new Date(list.expiresAt),
      };
    },
  }),
  endpoint({
    operationId: "getListLifecycleCalendar",
    method: "GET",
    path: "/v1/lists/{id}/lifecycle.ics",
    summary: "A saved list's lifecycle calendar",
    description:
      "GET /v1/lifecycle.ics for the services of one saved list: an all-day event per sunset or retirement date of its services, so a team subscribes to the deprecations of what it approved. Expired lists answer 404.",
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    response: { status: 200, contentType: CALENDAR },
    errors: [404, 503],
    cache: "until-expiry",
    example: { request: "GET /v1/lists/platform-baseline/lifecycle.ics" },
    handler: async (c, { params }) => {
      const list = await storeCall(() => c.store.getList(params.id, c.now()));
      if (!list) throw listNotFound();
      const { services } = resolveList(c.catalogue, list);
      const name = cleanListName(list.name) ?? list.slug ?? list.id;
      return {
        text: lifecycleCalendar(c.catalogue, c.urls, {
          name: `Lifecycle: ${name}`,
          description: `Sunset and retirement dates of the ${services.length} services of the saved list ${c.urls.textUrl}${listPath(list)}.`,
          slugs: new Set(services.map((service) => service.slug)),
        }),
        contentType: CALENDAR,
        expiresAt: new Date(list.expiresAt),
      };
    },
  }),
  // Exit plans (issue 55, contract 1.7.0).
  endpoint({
    operationId: "planExit",
    method: "POST",
    path: "/v1/exit-plan",
    summary: "Exit plan",
    description:
      "Maps an approved list onto the providers a target allows (to: providers, sovereignOption, euResidentOnly, jurisdictions, each narrowing; exclude removes). Per service: stays (already on an allowed provider and open to new customers), mapped (its equivalence-group peers on allowed providers, ranked, each with the reason for its rank) or no-equivalent (a gap, with up to three same-category services marked as not equivalent). Deprecated, sunset and retired services are never proposed; a gap they leave says so. Then the gaps, a proposed target list chosen by greedy set cover to keep the providers few, and the exposure before and after (as GET /v1/exposure computes it). ?format=md or Accept: text/markdown answers a Markdown document to hand over (gaps first, a table per provider moved from, exposure, sources, the catalogue release); ?format=csv or Accept: text/csv a CSV. No criterion, an unknown provider or a target no provider meets: 400.",
    tag: "Policies",
    bucket: "relaxed",
    query: ExitPlanFormatQuery,
    headers: AcceptHeaders,
    body: ExitPlanBody,
    response: { status: 200, schema: ExitPlan, contentType: "application/json", alternates: EXIT_PLAN_ALTERNATES },
    errors: [400, 413, 415, 429],
    cache: "no-store",
    pure: true,
    example: {
      request: "POST /v1/exit-plan",
      body: { approvedServiceIds: ["aws-s3", "aws-ec2", "aws-rds-postgresql"], to: { sovereignOption: true } },
    },
    handler: (c, { body, query, headers }) =>
      exitPlanAnswer(
        c.catalogue,
        c.urls,
        exitPlan(c.catalogue, approvedIds(c.catalogue, body), body.to),
        exitPlanFormat(query.format, headers.accept),
      ),
  }),
  endpoint({
    operationId: "getListExitPlan",
    method: "GET",
    path: "/v1/lists/{id}/exit-plan",
    summary: "A saved list's exit plan",
    description:
      "POST /v1/exit-plan for the services of one saved list, the target in the query: providers, jurisdictions and exclude comma-separated, sovereignOption and euResidentOnly true or false (e.g. ?sovereignOption=true&jurisdictions=EU,CH&exclude=stackit). Markdown and CSV as for POST /v1/exit-plan; the answer varies with Accept, so caches revalidate it. Ids the catalogue no longer holds are named in notes. Expired lists answer 404.",
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    bucket: "relaxed",
    query: ExitPlanQuery,
    headers: AcceptHeaders,
    response: { status: 200, schema: ExitPlan, contentType: "application/json", alternates: EXIT_PLAN_ALTERNATES },
    errors: [400, 404, 429, 503],
    cache: "revalidate",
    example: { request: "GET /v1/lists/platform-baseline/exit-plan?sovereignOption=true&format=md" },
    handler: async (c, { params, query, headers }) => {
      const to = exitTargetOfQuery(query);
      const list = await storeCall(() => c.store.getList(params.id, c.now()));
      if (!list) throw listNotFound();
      const { services, missingServiceIds } = resolveList(c.catalogue, list);
      const plan = exitPlan(
        c.catalogue,
        services.map((service) => service.slug),
        to,
      );
      if (missingServiceIds.length > 0)
        plan.notes.push(`No longer in the catalogue, so not planned: ${missingServiceIds.join(", ")}.`);
      // A saved list never changes: its plan for one query is kept until the list expires.
      return {
        ...exitPlanAnswer(
          c.catalogue,
          c.urls,
          plan,
          exitPlanFormat(query.format, headers.accept),
          list.name ?? list.slug ?? list.id,
        ),
        expiresAt: new Date(list.expiresAt),
      };
    },
  }),
  endpoint({
    operationId: "getStatus",
    method: "GET",
    path: "/v1/status",
    summary: "Catalogue status",
    description: "Catalogue counts, last-updated time and each component's state.",
    tag: "Operations",
    response: { status: 200, schema: StatusReport, contentType: "application/json" },
    errors: [],
    cache: "no-store",
    example: { request: "GET /v1/status" },
    handler: async (c) => {
      const [components, replication] = await Promise.all([c.status.current(), c.status.replication()]);
      return { body: statusReport(c.catalogue, components, replication) };
    },
  }),
  endpoint({
    operationId: "getStatusHistory",
    method: "GET",
    path: "/v1/status/history",
    summary: "Status history",
    description: `Samples of the last ${STATUS_HISTORY_HOURS} hours, newest first, at most ${STATUS_HISTORY_LIMIT}: one record every ${STATUS_SAMPLE_MINUTES} minutes and at each start, holding every component's state (components) and their roll-up (component "all", status, the slowest latencyMs, message). Kept by the store, so it survives a restart.`,
    tag: "Operations",
    response: { status: 200, schema: StatusHistory, contentType: "application/json" },
    errors: [503],
    cache: "no-store",
    example: { request: "GET /v1/status/history" },
    handler: async (c) => ({ body: { data: await storeCall(() => c.status.history()) } }),
  }),
  endpoint({
    operationId: "getHealth",
    method: "GET",
    path: "/v1/health",
    summary: "Health probe",
    description:
      "Liveness probe: ok when the store answers a ping within a second (one ping at most every second, shared by all callers), else degraded, so a hung store shows here.",
    tag: "Operations",
    response: { status: 200, schema: Health, contentType: "application/json" },
    errors: [],
    cache: "no-store",
    example: { request: "GET /v1/health" },
    handler: async (c) => ({
      body: {
        status: (await c.status.storeResponds()) ? "ok" : "degraded",
        uptimeSeconds: Math.round((Date.now() - c.startedAt) / 1000),
        store: c.store.kind,
      },
    }),
  }),
  endpoint({
    operationId: "sendFeedback",
    method: "POST",
    path: "/v1/feedback",
    summary: "Send feedback",
    description: `Stores feedback durably. type defaults to general when omitted or unrecognised; message ${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters.`,
    tag: "Operations",
    bucket: "relaxed",
    body: FeedbackBody,
    response: { status: 201, schema: FeedbackResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    example: { request: "POST /v1/feedback", body: { type: "bug", message: "The S3 pricing link is outdated." } },
    handler: async (c, { body }) => {
      await recordFeedback(c.store, body, c.now());
      return { status: 201, body: { success: true, message: "Thank you: your feedback was recorded." } };
    },
  }),
  endpoint({
    operationId: "recordOutboundClick",
    method: "POST",
    path: "/v1/analytics/outbound",
    summary: "Outbound-click telemetry",
    description: "Records that a documentation or pricing link was followed. No personal data is stored.",
    tag: "Operations",
    bucket: "relaxed",
    body: OutboundClickBody,
    response: { status: 200, schema: OutboundClickResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    example: {
      request: "POST /v1/analytics/outbound",
      body: { url: "https://aws.amazon.com/s3/pricing/", serviceId: "aws-s3", kind: "pricing" },
    },
    handler: async (c, { body }) => {
      await storeCall(() => c.store.recordOutboundClick({ ...body, at: c.now().toISOString() }), {
        unknownOutcome: () => FEEDBACK_OUTCOME_UNKNOWN,
      });
      return { body: { recorded: true } };
    },
  }),
  endpoint({
    operationId: "getCatalogueDump",
    method: "GET",
    path: "/catalogue.json",
    summary: "The whole catalogue in one file",
    description:
      "Every provider, category, service (as GET /v1/services/{slug} answers it) and equivalence group, for scripts and mirrors.",
    tag: "Mirror",
    response: { status: 200, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "catalogue.json", files: (c) => [file("catalogue.json", catalogueDump(c))] },
    example: { request: "GET /catalogue.json" },
    handler: (c) => json(catalogueDump(c.catalogue)),
  }),
  endpoint({
    operationId: "getBuildManifest",
    method: "GET",
    path: "/manifest.json",
    summary: "Build manifest",
    description:
      "Every file of the build with its SHA-256 and size: what `cloud-catalogue mirror` fetches (from /mirror/{path}) and checks. Revalidate before reuse: it changes with every build.",
    tag: "Mirror",
    response: { status: 200, schema: BuildManifest, contentType: "application/json" },
    errors: [404],
    cache: "revalidate",
    // Written by the build's last step, which hashes every other file.
    static: { file: "manifest.json" },
    example: { request: "GET /manifest.json" },
    handler: () => {
      throw new HttpError(
        404,
        "No build here",
        "This server computes every answer and has no build to mirror; mirror a server started with npm start.",
      );
    },
  }),
  endpoint({
    operationId: "getBuildFile",
    method: "GET",
    path: "/mirror/{path}",
    restParam: true,
    summary: "One file of the build",
    description:
      "A file listed in /manifest.json, byte for byte, with the Content-Type of its extension (JSON, HTML, Markdown, Atom, iCalendar, SVG, …; its precompressed .br/.gz sibling with Content-Encoding when accepted). The path may contain '/'.",
    tag: "Mirror",
    params: z.object({
      path: z
        .string()
        .meta({ description: "Path inside the build, as the manifest lists it", example: "api/v1/providers.json" }),
    }),
    // Any file: the media type is the file's own, so the document names none (`*/*`).
    response: { status: 200, contentType: "*/*" },
    errors: [404],
    cache: "public",
    // The mirror's own input: the validated data, from which `cloud-catalogue serve` re-assembles the catalogue.
    static: {
      file: "{path}",
      root: "dist",
      // The site's server bundles: `serve` renders saved lists without them, and they hold build paths.
      withheld: ["site/server/"],
      files: (c) => [file("catalogue-source.json", c.source)],
    },
    example: { request: "GET /mirror/api/v1/providers.json" },
    handler: () => {
      throw new HttpError(404, "Not found", "No such file in the build: /manifest.json lists what a mirror fetches.");
    },
  }),
];
