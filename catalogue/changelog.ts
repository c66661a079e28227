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
      "q on GET /v1/services is one ranking shared with the text host's /search and the site's search box: provider words (aws, amazon, azure, microsoft, gcp, google, ovh, oci, …) put that provider's matches first; words joined or split (route53, dynamo db), k8s, plurals and typos within one or two edits are understood; a query naming a kind of service (an equivalence group, a category, a tag several providers use) lists each provider's flagship, the largest portfolios first, before a second service of any provider.",
      "GET /v1/equivalents: the equivalence matrix, every group (one kind of service) with its members by provider, largest portfolio first, each provider's flagship first, and the providers as possible columns; GET /v1/equivalents/{id}: one group with its member services in full (404 for an unknown id). Both static.",
      "When no service matches every word of q, GET /v1/services answers the closest matches rather than nothing; ServiceList.search (optional, only with q): {closest, didYouMean?} says so and gives q respelled when a word was found only by a close spelling.",
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
