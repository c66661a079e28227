/**
 * The published changelog of the API contract (GET /v1/changelog), newest first: the history of
 * docs/spec/catalogue-api-v1.md ("Versioning"), then this implementation's additions. The
 * newest entry's version is API_VERSION (version.ts), checked by tests/catalogue/changelog.test.ts.
 */
import { API_VERSION } from "../version.ts";
import type { ChangelogEntryT, ChangelogT } from "../schema/index.ts";

export const CHANGELOG: readonly ChangelogEntryT[] = [
  {
    version: "1.10.0",
    date: "2026-11-27",
    changes: [
      "GET /v1/services?q= ranks rather than filters: the services matching every word come first and, when fewer than five do, those matching some of the words follow (BM25 times the share of the words matched), so a word the catalogue does not know lowers a score instead of emptying the answer. Questions in German, French, Italian, Spanish and Dutch are read by Snowball stem (the kinds' names and intent words such as \"every night\" or \"who changed what\" as data); a vendor's abbreviation is read from the services' names (secops → Google Security Operations); didYouMean is offered only when the respelt query finds as many services or more, and never for a word a language knows. ServiceList.search gains, when nothing matched, unmatchedWords (the words no service's text has) and nearestJobs ({id, name} of up to three equivalence groups); the text host's /search, the site's search page and the MCP search_services tool show them.",
    ],
  },
  {
    version: "1.9.0",
    date: "2026-11-26",
    changes: [
      "One catalogue of error titles (catalogue/api/error-catalogue.ts): every Error body's error is one of them, each with one status; OpenAPI lists them as x-error-catalogue (title, status, when) and each error response names the titles of its status; docs/api.md's table is written from it. /mcp transport refusals now carry the catalogue's title for their status (Not acceptable, Unsupported media type, Bad request) with the MCP SDK's words in details, and the text host's 500 is titled Internal server error.",
      "POST /v1/lists: unlisted (optional boolean): true saves the list by its generated id only, with slug null (none given, none derived from the name), so it cannot be found by guessing a slug; slug with unlisted: true is a 400. A named list can be read by anyone who guesses its slug.",
      "Reads of a saved list that find none (GET /v1/lists/{id}, its lifecycle.ics and exit-plan, and the text host's /lists/{id}) count in a new misses bucket, 20 per minute per IP; past it every read of a list by that client is 429 with Retry-After until the minute is over. Reads that find a list are not counted; the MCP tool get_saved_list counts every call there.",
      'Every request body (POST /v1/lists, the policies, export, feedback, analytics/outbound, exit-plan) is closed: an unknown key is a 400 naming it and the key it most likely meant; a __proto__ key is such a key, no longer "not valid JSON".',
      'A query parameter given more than once is a 400 "given more than once" on every endpoint (a list is one comma-separated value).',
      "A malformed Host (user@host, spaces, an unclosed [IPv6, empty) is a 400 in the Error shape; Expect other than 100-continue is 417, an unknown or lower-case method 501, an unknown HTTP version 505, each with an Error body. An unknown id is named as sent, its control characters escaped (\\u0000).",
      "ServiceCompatibility.scope (optional): the part of a job a service speaks a term for, when it is not the whole (STACKIT Intake speaks Kafka for producing only). Exit plans never rank by a scoped claim, so a service covering the whole job comes first; the scoped candidate's reason says which part it lacks. The exit plan's CSV says in its kind column what each candidate is: lineage, compatible or equivalent; same-category rows are nearest.",
      "FactSource.via (optional, on compatibility claims, notCompatible records and lineage sources): the copy read when it is not the vendor's page itself, a file of the vendor's own repository pinned to its commit, as ServiceSource.via names it; the service page shows it beside the page's URL.",
      "ServiceDetail.notCompatible (optional): compatibility terms checked on the vendor's pages and not supported, each {id, note?, source}. CompatibilityTerm gains conformance (a programme whose published list backs claims, e.g. CNCF's certified Kubernetes) and groups (the equivalence groups swept for the term).",
      "GET /v1/lists/{id}/exit-plan: an unknown query parameter is a 400 naming it with the parameter it most likely meant, as the POST body's unknown keys are (a misspelt provider no longer plans to every provider). Unknown service ids in every endpoint that takes ids are named with the nearest slugs the search finds for their words.",
      "ServiceDetail.dependencies[].resourceType (optional): the resource type whose deployment needs the group's identifiers, when they come from the vendor's resource schemas. AWS services now carry, per CloudFormation resource type they own, the IAM actions its create, update and delete handlers need under other prefixes (AWS's resource provider schemas as cfn-lint vendors them), so a generated SCP lets an approved service's own resources deploy (Lambda's functions read their code from S3, CloudFormation reads templates from S3).",
      "Policy explain mode: deployments.fixturesChecked counts the vendor's deployment fixtures the approved list was checked against (those naming an approved service) and deployments.fixturesOfVendor all of the vendor's; deployments.resourceTypes {checked, denied[]} names, per approved service, the resource types from the vendor's schemas whose deployment needs an action the document does not allow, with the actions; for Azure, each own type the Indexed-mode policy evaluates with its evaluated child types (the Bicep type index), for Google Cloud each own API (resourceType then holds the API service name), and a note says what was checked.",
      "One style for every boolean query parameter (freeTier, explain, essentials, sovereignOption, euResidentOnly, bom): true or false, 1 or 0; any other word is a 400. OpenAPI declares each a boolean or one of those four words, so typed clients pass true and validating proxies accept ?bom=1.",
      "OpenAPI: GET /, GET /openapi.json and GET /catalogue.json have response schemas (Discovery, OpenApiDocument, CatalogueDump); POST /mcp's 202 (a notification) is declared with no content, and is sent with no Content-Type.",
      "Vary: Accept-Encoding on every answer large enough to be compressed, compressed or not; Vary: Accept on the exit plans' answers, which Accept negotiates. Access-Control-Expose-Headers names X-RateLimit-Limit, Retry-After and ETag: X-RateLimit-Remaining and X-RateLimit-Reset were never sent.",
      "GET /mirror/{path} serves each file as built, its bytes the manifest's sha256, on a server at any URL (the URLs in text files were rewritten to the server's own, so a mirror of a deployment on other URLs than its build's failed its integrity check); cloud-catalogue serve puts its own URLs in as it serves the mirror.",
      "ServiceDetail.terraformResources (optional, on GET /v1/services/{slug}): the resource types of the provider's official Terraform provider that the service owns (e.g. scaleway_instance_server, ovh_cloud_project_kube), each owned by exactly one service, so every resource of a Terraform plan names its service; the site and the text host show them beside the policy identifiers.",
      "POST /mcp: CORS allows Mcp-Protocol-Version, Mcp-Session-Id and Last-Event-ID and exposes Mcp-Protocol-Version and Mcp-Session-Id; a browser Origin other than the public URLs' own and loopback ones, or a Host that is neither loopback nor a public URL's host, is a 403 (DNS rebinding), unless listed in MCP_ALLOWED_ORIGINS (\"*\": any); Accept: */* is accepted; tools/call params that are not {name, arguments?: object} are JSON-RPC -32602; capabilities claim no listChanged; server info carries websiteUrl and an icon; the instructions name the tools to use and every provider and category id. A JSON-RPC batch (1 to 20 messages) is answered under MCP-Protocol-Version 2025-03-26, and refused with a 400 naming that revision otherwise; prompt arguments complete (service slugs, provider ids, the last slug of a list).",
      "MCP tools: provider and category arguments take ids or names (amazon, Google Cloud, OVH, identity), resolved as the search resolves provider words, and an unknown one is a tool error listing the ids (search_services and lifecycle_upcoming alike); unknown argument keys are refused naming the nearest (providerId → provider); an unknown slug's error names the nearest slugs. Every tool lists an outputSchema; the text part is the structured answer's JSON with resource_link items to catalogue://services/{slug}.",
      "MCP answers fit a context window (under 10,000 tokens by default): get_service equivalentsLimit (default 10), exposure_scorecard servicesLimit (15), lifecycle_upcoming from, to, page and limit (20), exit_plan detail (summary: rank-1 pick, reason and gaps; full) with page and limit (10), get_saved_list servicesLimit (5), search_services limit at most 25; each cut is listed in omitted. resources/list is paged (100, nextCursor); catalogue://equivalents is an index of the groups.",
    ],
  },
  {
    version: "1.8.0",
    date: "2026-11-26",
    changes: [
      "Policy explain mode (?explain=true on alpha-scp, beta-policy, gamma-org-policy): deployments {covered, gaps} checks the approved list against deployment fixtures, common workloads written from the vendors' own quickstarts and guides (docs/policies.md): covered lists the fixtures the document fully allows; each gap a fixture naming an approved service with what is missing (types, APIs or actions) and the services to approve.",
      'Policy explain mode: a dependency no catalogue service owns (an Azure public IP address, for one) carries a reason; implied[].linkedTo says "essentials" when the account-operation essentials carry the shared identifier; implied[].complete is true for an Azure service whose only missing types are ones the Indexed-mode policy never evaluates (Azure Files, Queue and Table Storage beside Blob Storage).',
      "Policy documents allow more of what services need to deploy, each with its source: Azure public IPs with Azure Virtual Network and Application Gateway, AKS's network security group and kubenet route table, the Log Analytics workspace of Functions on Flex Consumption; Artifact Registry, Cloud Build and Cloud Storage for Cloud Run, Service Networking and Compute Engine for Cloud SQL private IP, Compute Engine for Vertex AI Workbench, BigQuery for Dataform; the EKS node role's CNI and ECR pull actions, the RDS console's EC2 reads, Cloud Map's Route 53 zone and MSK's EC2 and KMS calls.",
      "alpha-scp: an STS assumed-role ARN in exemptPrincipalArns is a 400 saying to give the role's ARN, since aws:PrincipalArn holds the role's ARN for a role session.",
      "ServiceSource.retrieved (YYYY-MM-DD): the day the catalogue read the page, or the copy named by via; checked is kept with the same day for 1.7 clients. New optional ServiceSource fields: asOf, the copy's own date (a page's \"last updated\", a repository file's commit date, a dataset's release); via, the dataset or repository file actually read when it is not the page itself; programmes, for a compliance source, the programmes its scope list names the service for.",
      'Service.verified (optional): per kind of fact the service\'s sources back (identity, description, lifecycle, compliance, identifiers, regions), the day the newest of those sources was read; a missing kind has no source. Faces show it in place of a single "Last verified" date. Service.lastVerified is kept for 1.6 and 1.7 clients and unchanged in value (the newest retrieved of any source), but does not say that every field was checked that day: read verified.',
      "LifecycleEntry.lifecycleVerified (optional): the day the source backing the lifecycle entry was read; the lifecycle feed's updated date is now that day (or the catalogue's, without one), not the newest reading of any source.",
      'Service.compliance: AWS services list the programmes AWS\'s own scope tables name them for ("Services in Scope by Compliance Program" and "HIPAA Eligible Services Reference", copies of 2022-07-15), each backed by a source with retrieved, asOf and via. An empty list means not known (no scope list the catalogue holds names the service), never out of scope.',
      "Provider.complianceScope (optional): where the provider lists the services in scope of the programmes it holds, each {programmes, url, listed}; listed means the catalogue carries the list in full on its services, so a service without the programme is left out of its scope.",
      'GET /v1/compare: the providerCompliance row (label "Provider holds") gives what each compared service\'s provider holds and the service does not list as its own, leaving out a programme whose full scope list leaves the service out (e.g. Azure\'s FedRAMP High on a service Microsoft\'s FedRAMP list does not name), and nothing for a retired or preview service; the compliance row is labelled "Compliance (this service)".',
      "ServiceDetail.compatibility (optional, on GET /v1/services/{slug}): the wire protocols and APIs the vendor states the service is compatible with, each {id, name, source: {url, retrieved, asOf?}}; ids come from the catalogue's controlled vocabulary (s3-api, kafka, amqp, mqtt, postgresql, mysql, sql-server-tds, mongodb, cassandra-cql, redis, kubernetes, oci-distribution, git, apache-airflow, apache-spark, trino, apache-iceberg, opensearch-api, elasticsearch-api, opentelemetry, prometheus, openai-compatible-inference, nfs, smb, iscsi…).",
      "ServiceDetail.lineage (optional): when the service is another provider's product operated by a different company (S3NS's BigQuery, GKE… are Google Cloud's), origin is that product's slug, with the vendor page that says so ({url, retrieved, asOf?}).",
      "GET /v1/compare: compatibility (\"Compatible with\", the terms' names) and lineage (the origin's provider and name) attribute rows.",
      "GET /v1/equivalents and /v1/equivalents/{id}: a member may carry compatibility (vocabulary ids) and lineageOrigin (the origin's slug).",
      "Exit plans (POST /v1/exit-plan, GET /v1/lists/{id}/exit-plan), decisions.md#exit-ranking: candidates are equivalence-group peers, the same product operated elsewhere (lineage) and same-category services sharing a compatibility entry, ranked by lifecycle, lineage, shared compatibility, shared groups and category, then consolidation (a provider the list uses, one covering more of the service's groups, one with candidates for more of the services), then the flagship prior of the search and the matrix; a provider id or a name decides only where every signal is equal. ExitCandidate gains decidedBy (only, lifecycle, lineage, compatibility, groups, category, consolidation, flagship, name), compatibility (shared ids) and lineage (true when the same product); its reason names the deciding signal.",
      "Exit plans: a service doing several jobs gets a target per job (proposed is true on rank 1 and on the best candidate, on a provider the list uses, for each group rank 1 is not in and at least half as broad as its broadest: Key Vault → a key manager and a secret manager); targetList takes them all.",
      "Exit plans: exposure.after counts the gaps the proposed list leaves out where they are now, listed in exposure.unplacedServiceIds (it counted only the mapped services, so a plan with gaps reported 0 % US-headquartered); a gap's nearest services share at least one search tag with it.",
      "POST /v1/exit-plan: the body and its target are closed: an unknown key is a 400 naming it and the key it most likely meant (euResident → euResidentOnly), where it widened the target in silence; ids given more than once are planned once and named in notes. The exit plan's Markdown links are absolute (the text host's public URL) on the API, the text host and the site, and the site's carries each service's documentation link.",
      "Equivalence groups split by layer (decisions.md#exit-ranking): ci-cd into ci-build, continuous-delivery and devops-platform; cloud-native-relational into cloud-native-mysql and cloud-native-postgresql; global-traffic-management into global-network-acceleration and global-load-balancing; new change-data-capture, saas-data-ingestion, migration-assessment, ai-agent-platform and stream-delivery. Group ids that no longer exist answer 404 on GET /v1/equivalents/{id}.",
      "POST /mcp (its own mcp bucket, 120 requests per minute per IP): the catalogue as a Model Context Protocol server over stateless Streamable HTTP (JSON answers, no session). Tools search_services, get_service, compare_services, exposure_scorecard, lifecycle_upcoming, generate_policy, exit_plan and get_saved_list answer with the API's JSON for the same input (structured content) and Markdown; resources catalogue://services/{slug}, providers/{id}, categories/{id}, equivalents/{id}, equivalents, changelog and changes; prompts find_equivalent, plan_exit and sunsets_soon. Every answer carries the catalogue release in _meta (cloud-services-catalogue/release). OpenAPI describes it with an x-mcp extension; discovery lists it under mcp.",
      "GET /v1/lists/{id}/exit-plan counts in the relaxed bucket (30 requests per minute per IP, shared with POST /v1/exit-plan, whose work it does) and may answer 429; a saved list's plan for one query is kept until the list expires.",
      "Past the pipelining cap a connection gets its 503 in the Error shape before it closes, and a request that waits behind answers a client has not read is no longer cut off by the header limit.",
      "Search (q) also reads a service's sub-services (tiers, storage classes, editions, engines, features, plans): q=s3 glacier finds Amazon S3. ServiceList.search.subServices (optional) names, per service on the page found that way, the sub-service that matched.",
      "ServicesQuery.freeTier is declared a boolean in OpenAPI; the query string still takes true or false.",
      "Exit plan CSV answers carry Content-Disposition (attachment, exit-plan.csv); ?bom=1 or ?bom=true starts the CSV with a UTF-8 byte order mark (for Excel).",
    ],
  },
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
      'GET /v1/status/history: one record a sample, every 10 minutes and at each start, holding every component\'s state (components) and their roll-up (component "all", status, the slowest latencyMs, message), so the 200 rows cover the whole 24 hours; the store keeps it across restarts.',
      "lastUpdated (GET /v1/status, /manifest.json, asOf of GET /v1/lifecycle, the feeds and calendars) is the data's own date, the newest lastVerified or release day, so the same data builds the same bytes.",
      "OpenAPI: no object schema is closed (responses may gain fields; unknown request fields are ignored); the feedback message's 5 to 5000 characters, compare's 1 to 10 and exposure's 1 to 50 ids and lifecycle's within up to 3650 days are schema keywords; GET /mirror/{path} answers any file (*/*).",
      "compare and exposure count repeated ids against their limit (more than 10 or 50 ids is a 400, even when some repeat), as the OpenAPI pattern does.",
      "Access-Control-Expose-Headers names X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After and ETag, so cross-origin JavaScript can read them.",
      "A saved list's name is answered without control or bidi characters, also for lists saved before names were cleaned.",
      "Policy documents allow what each approved service needs besides its own identifiers (Azure child and companion resource types, Google APIs it depends on, AWS actions under other prefixes such as ec2:*VerifiedAccess* for Verified Access); explain mode lists them under dependencies (identifier, neededBy, sources), and the catalogue services they also allow under implied.",
      "ServiceDetail.dependencies (optional): what else the service needs to be usable under a policy allowing it, each group with its source (url, backs, checked).",
      "alpha-scp: optional body field exemptPrincipalArns (1 to 20 IAM role or user ARN patterns) adds Condition ArnNotLike aws:PrincipalARN to the deny-list's Deny statement; with strategy=allow-list it is a 400.",
      "gamma-org-policy: organizationId must be digits with no leading zero (organizationId=0 is a 400).",
      "approvedServiceIds: the limit of 500 counts distinct ids, so repeating an id is accepted.",
      "POST /v1/lists: an Idempotency-Key is scoped to the client (another client's same key saves its own list) and bound to the body (the same key with another body answers 422).",
      "A known API path asked with a method it does not support answers 405 with an Allow header, in the Error shape, instead of 404.",
      "The strict bucket's endpoints answer 503 with Retry-After while a shared store (Redis) cannot count their limit, instead of each instance counting alone; a port a trusted proxy adds to X-Forwarded-For no longer makes a new client.",
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
