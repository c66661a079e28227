/**
 * The published changelog of the API contract (GET /v1/changelog), newest first: the history of
 * ../shared/spec/catalogue-api-v1.md ("Versioning"), then this implementation's additions. The
 * newest entry's version is API_VERSION (endpoint.ts), checked by tests/catalogue/changelog.test.ts.
 */
import { API_VERSION } from "./endpoint.ts";
import type { ChangelogEntryT, ChangelogT } from "./schema.ts";

export const CHANGELOG: readonly ChangelogEntryT[] = [
  {
    version: "1.7.0",
    date: "2026-11-26",
    changes: [
      "ServiceDetail.sources (optional, on GET /v1/services/{slug}): the vendor pages that back the service's facts, each {url, checked (YYYY-MM-DD), backs: identity | description | lifecycle | compliance | identifiers | regions}, newest check first.",
      "Service.lastVerified is now the newest checked date of the service's sources, and absent when it has none; a provider-wide review date is no longer stamped onto services.",
      "Service.compliance lists only the programmes whose provider-published scope names the service, each backed by a compliance source; the provider's platform-wide programmes are no longer copied into it and stay in Provider.defaultCompliance (GET /v1/providers), which faces show labelled as the provider's. Retired and preview services list none. No separate service field repeats the provider's programmes: read them from the provider.",
      "POST /v1/exit-plan (relaxed bucket): an approved list mapped onto the providers a target allows (to: providers, sovereignOption, euResidentOnly, jurisdictions, exclude): per service stays, mapped (ranked equivalence-group peers, each with its reason) or no-equivalent (with same-category services marked as not equivalent); gaps, a proposed targetList chosen by greedy set cover, and exposure before and after. Deprecated, sunset and retired services are never proposed.",
      "GET /v1/lists/{id}/exit-plan: the exit plan of a saved list, the target as query parameters (providers, jurisdictions and exclude comma-separated; sovereignOption, euResidentOnly true or false).",
      "Exit plans as Markdown (?format=md or Accept: text/markdown: gaps first, a table per provider moved from, exposure before and after, sources, the catalogue release) and CSV (?format=csv or Accept: text/csv).",
      "GET /v1/compare: a providerCompliance attribute row (label \"Provider-wide compliance\") gives each compared service's provider's platform-wide programmes, apart from the compliance row and from compliance.common/bySlug, which count the services' own programmes only.",
    ],
  },
  {
    version: "1.6.0",
    date: "2026-11-23",
    changes: [
      "Policy endpoints answer the vendor document itself (an SCP {Version, Statement}, an Azure policy set definition, a GCP organization policy) so it can be saved and applied unchanged; the explanation moved to ?explain=true.",
      "?explain=true on the policy endpoints: {policy, characters, skipped, implied, essentials, unconfirmed, notes}.",
      "Policy documents keep the vendor's account-operation essentials usable by default; essentials=false leaves them out.",
      "Nothing to allow (no approved service of the provider, or none with identifiers) is a 400 naming why, not a deny-everything document.",
      "GCP organization policy lists every approved service's API names; explain mode reports those not confirmed as supported by gcp.restrictServiceUsage (unconfirmed).",
      "alpha-scp: strategy=allow-list returns Allow SCPs attached in place of FullAWSAccess (several add up, up to five per target; part selects one); a deny-list SCP over 5,120 characters is a 400 that says it cannot be split.",
      "gamma-org-policy: optional organizationId fills in the policy name.",
      "GET /v1/changelog publishes this history; the discovery document links it.",
      "Service.lastVerified (optional, YYYY-MM-DD): the day the entry was last checked against the vendor's own pages; also in every answer that embeds a Service.",
      "Service.aliases (optional): other names people search for (the vendor's abbreviations and former names); q ranks exact names, short names and aliases first, a query naming an equivalence group names its members, and ties go to the more prominent service rather than the alphabet.",
      "GET /v1/lifecycle: every lifecycle entry by next relevant date; within=<n>d, status and provider filter it (400 on a bad value).",
      "GET /v1/lifecycle.atom (Atom 1.0) and GET /v1/lifecycle.ics (iCalendar): one entry per announcement and one event per sunset or retirement date, with stable ids.",
      "GET /v1/lists/{id}/lifecycle.ics: the lifecycle calendar of one saved list's services.",
      "GET /v1/changes and GET /v1/changes.atom: what each catalogue release added, removed, renamed or moved in lifecycle.",
      "GET /v1/status: optional replication (primary, replicas, last failover) when the store is Redis with Sentinel; a write whose outcome is unknown answers 503 saying it may have been saved.",
      "GET /catalogue.json, GET /manifest.json and GET /mirror/{path} are described in OpenAPI and listed in discovery (downloads).",
      "Region.market (optional): global, mainland-china or eu-sovereign, on every region of a provider that runs its regions as separate markets (Alibaba Cloud, Huawei Cloud and Tencent Cloud's mainland-China regions; the AWS European Sovereign Cloud) and on none of the others'.",
    ],
  },
  {
    version: "1.5.1",
    date: null,
    changes: [
      "Two rate-limit buckets: strict 10/min/IP and relaxed 30/min/IP (feedback, outbound telemetry); X-RateLimit-Limit reflects the endpoint's tier.",
    ],
  },
  {
    version: "1.5.0",
    date: null,
    changes: ["Optional slug on POST /v1/lists; slug in list responses; GET /v1/lists/{id} accepts id or slug."],
  },
  {
    version: "1.4.0",
    date: null,
    changes: ["Optional lifecycle block on service responses (also shown in compare, export and lists)."],
  },
  {
    version: "1.3.0",
    date: null,
    changes: [
      "Breaking: authentication removed entirely; POST endpoints limited to 10 requests per minute per IP; admin list endpoints for feedback and usage removed.",
    ],
  },
  {
    version: "1.2.0",
    date: null,
    changes: ["Website export gating behind sign-in (reverted in 1.3.0)."],
  },
  {
    version: "1.1.0",
    date: null,
    changes: [
      "OAuth sign-in, API keys, rate limiting with X-RateLimit-* headers, keys required on POST endpoints (anonymous 30/min, keyed 120/min).",
    ],
  },
  {
    version: "1.0.0",
    date: null,
    changes: [
      "Initial release: providers, categories, services, service detail, compare (up to 10), three policy generators, Markdown export, shareable lists with 90-day expiry, health, status, status history.",
    ],
  },
];

export function changelog(): ChangelogT {
  return { current: API_VERSION, versions: CHANGELOG.map((entry) => ({ ...entry, changes: [...entry.changes] })) };
}
