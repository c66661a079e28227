/**
 * Exit plans (added in 1.7.0): the target of POST /v1/exit-plan and GET /v1/lists/{id}/exit-plan,
 * and the plan they answer (catalogue/exit/plan.ts computes it).
 */
import { z } from "zod";
import { CapabilityDifference } from "./capabilities.ts";
import { DataGb, ExitLeaving } from "./exit-leaving.ts";
import { MAX_APPROVED_IDS, MAX_ID_LENGTH } from "../base/limits.ts";
import { ExposureReport } from "./reports.ts";
import { closedQuery, unknownKeys as unknownKeysOf } from "./unknown-keys.ts";
import { d, LIFECYCLE_STATUSES, queryBoolean } from "./vocabulary.ts";

/** At most this many provider ids or jurisdictions in one target field. */
export const MAX_TARGET_ITEMS = 64;

/** An unknown key is a 400 naming it, with the known key (of either level) it is closest to. */
const KNOWN_KEYS = [
  "approvedServiceIds",
  "to",
  "providers",
  "sovereignOption",
  "euResidentOnly",
  "jurisdictions",
  "exclude",
  "format",
  "bom",
  "jobsUsed",
  "dataGb",
];
const unknownKeys = unknownKeysOf(KNOWN_KEYS);

const ProviderIds = z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_TARGET_ITEMS);

export const ExitTarget = z
  .strictObject(
    {
      providers: ProviderIds.optional().meta(
        d("Only these providers (ids as in GET /v1/providers); an unknown id is a 400"),
      ),
      sovereignOption: z
        .boolean()
        .optional()
        .meta(
          d(
            "true: only providers that are a sovereign option (Provider.sovereignOption); false or absent: no constraint",
          ),
        ),
      euResidentOnly: z
        .boolean()
        .optional()
        .meta(d("true: only EU-resident-only providers (Provider.euResidentOnly); false or absent: no constraint")),
      jurisdictions: z
        .array(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code or EU, in capitals"))
        .min(1)
        .max(MAX_TARGET_ITEMS)
        .optional()
        .meta(
          d('Only providers whose head-office jurisdiction (Provider.jurisdiction) is one of these, e.g. ["EU", "CH"]'),
        ),
      exclude: ProviderIds.optional().meta(d("Never these providers, whatever else matches; an unknown id is a 400")),
    },
    unknownKeys,
  )
  .meta({
    id: "ExitTarget",
    description:
      "Where to go: the providers that satisfy every criterion given (at least one of providers, sovereignOption: true, euResidentOnly: true, jurisdictions), less those in exclude. No matching provider is a 400.",
  });

/** Per service id, the jobs (equivalence group ids) a team uses it for: POST /v1/exit-plan and a saved list. */
export const JobsUsed = z.record(
  z.string().min(1).max(MAX_ID_LENGTH),
  z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_TARGET_ITEMS),
);

export const ExitPlanBody = z
  .strictObject(
    {
      approvedServiceIds: z
        .array(z.string().min(1).max(MAX_ID_LENGTH))
        .min(1)
        .max(MAX_APPROVED_IDS)
        .meta(
          d(`The approved services to plan an exit for: ids as in the services listing (1 to ${MAX_APPROVED_IDS})`),
        ),
      to: ExitTarget,
      jobsUsed: JobsUsed.optional().meta(
        d(
          "Per approved service id, the jobs (equivalence group ids, as ExitJob.group) the team uses it for: only those are planned, the first given being its primary. A service left out is planned with every job, its non-primary ones marked optional. An id not in approvedServiceIds, or a job not one of the service's groups, is a 400 (added in 1.11.0)",
        ),
      ),
      dataGb: DataGb.optional(),
    },
    unknownKeys,
  )
  .meta({ id: "ExitPlanBody", description: "Request body of POST /v1/exit-plan" });

/** The answer's formats: JSON (default), Markdown, CSV. */
export const EXIT_PLAN_FORMATS = ["json", "md", "csv"] as const;

/** Up to MAX_TARGET_ITEMS comma-separated items (empty: no constraint), spaces around them allowed:
 * the whole check, so the server and the OpenAPI pattern agree on every value. */
const commaList = (item: string, what: string, example: string) =>
  z
    .string()
    .regex(new RegExp(`^( *${item} *(, *${item} *){0,${MAX_TARGET_ITEMS - 1}})?$`), `must be comma-separated ${what}`)
    .optional()
    .meta({ description: `Comma-separated ${what}`, example });
const PROVIDER_ID = "[a-z0-9]{1,64}";
const JURISDICTION = "[A-Za-z]{2}";

/**
 * The query of GET /v1/lists/{id}/exit-plan: the target fields, comma-separated, and the format.
 * Closed, as every /v1/ query is (docs/decisions.md#closed-queries): a misspelt `provider` would
 * otherwise plan to every provider in silence.
 */
export const ExitPlanQuery = closedQuery({
  providers: commaList(PROVIDER_ID, "provider ids (ExitTarget.providers)", "ovhcloud,scaleway"),
  sovereignOption: queryBoolean("true: only sovereign-option providers (ExitTarget.sovereignOption)"),
  euResidentOnly: queryBoolean("true: only EU-resident-only providers (ExitTarget.euResidentOnly)"),
  jurisdictions: commaList(JURISDICTION, "head-office jurisdictions (ExitTarget.jurisdictions)", "EU,CH"),
  exclude: commaList(PROVIDER_ID, "provider ids never to use (ExitTarget.exclude)", "stackit"),
  format: z
    .enum(EXIT_PLAN_FORMATS)
    .optional()
    .meta({ description: "json (default), md (Markdown) or csv; wins over the Accept header" }),
  bom: queryBoolean(
    "CSV only: true (or 1) starts the file with a UTF-8 byte order mark, so that Excel reads ™, ® and accents right",
  ),
});

/** The query of POST /v1/exit-plan: the format (and the CSV's byte order mark). */
export const ExitPlanFormatQuery = ExitPlanQuery.pick({ format: true, bom: true });

/** Accept: text/markdown or text/csv asks for that format when ?format is absent. */
export const AcceptHeaders = z.object({
  accept: z
    .string()
    .optional()
    .meta(d("text/markdown or text/csv for the plan in that format (?format wins); anything else: JSON")),
});

export const EXIT_OUTCOMES = ["stays", "mapped", "no-equivalent"] as const;

/** The signals of the exit-plan ranking, in its order (catalogue/exit/ranking.ts), and the two fallbacks. */
export const EXIT_RANK_SIGNALS = [
  "only",
  "lifecycle",
  "lineage",
  "compatibility",
  "groups",
  "capabilities",
  "category",
  "consolidation",
  "flagship",
  "name",
] as const;

/** How well a candidate does a job of the service it replaces (rule "job fit", catalogue/data/README.md). */
export const EXIT_FITS = ["same-product", "compatible", "partly-compatible", "equivalent", "look-alike"] as const;
/** How one job of a service is covered on the allowed providers; the entry's coverage is the worst. */
export const EXIT_COVERAGE = ["covered", "partial", "gap"] as const;

export const ExitCandidate = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name")),
    providerId: z.string().meta(d("Provider id")),
    providerName: z.string().meta(d("Provider display name")),
    lifecycle: z
      .enum(["active", "preview"])
      .meta(d("active (generally available) or preview; deprecated, sunset and retired services are never candidates")),
    rank: z.number().int().min(1).meta(d("1 is the candidate the proposed list takes")),
    groups: z.array(z.string()).meta(d("The equivalence groups it shares with the service it replaces")),
    lineage: z
      .literal(true)
      .optional()
      .meta(d("Present when it is the same product as the service, operated by another company (added in 1.8.0)")),
    compatibility: z
      .array(z.string())
      .meta(d("The compatibility entries (protocols, APIs) it shares with the service it replaces (added in 1.8.0)")),
    proposed: z
      .boolean()
      .meta(
        d(
          "True for the candidates targetList takes: rank 1, and the best candidate on a provider the list uses for each of the service's groups rank 1 is not in (Key Vault: a key manager and a secret manager)",
        ),
      ),
    decidedBy: z
      .enum(EXIT_RANK_SIGNALS)
      .meta(
        d(
          "The signal that puts it above the next candidate (the last: below the previous one), in ranking order: lifecycle, groups (job fit), capabilities (keeps more of the replaced service's capabilities; added in 1.11.0), lineage, compatibility, category, flagship (its provider's best for the job), consolidation, flagship (the providers' priors); name only where every signal is equal; only for a single candidate (added in 1.8.0)",
        ),
      ),
    reason: z.string().meta(d("Its signals, and which one decided its rank, in words")),
    fit: z
      .enum(EXIT_FITS)
      .optional()
      .meta(
        d(
          "same-product (lineage), compatible (speaks a protocol or API the service speaks for the whole job), partly-compatible (only part of it, or a sourced record says it does not speak one), equivalent (same job, no shared protocol), look-alike (shares a protocol, not a job) (added in 1.10.0)",
        ),
      ),
    jobs: z
      .array(z.string())
      .optional()
      .meta(d("The service's jobs (equivalence group ids) it covers, whole or in part (added in 1.10.0)")),
  })
  .meta({
    id: "ExitCandidate",
    description:
      "A candidate on an allowed provider: an equivalence-group peer, the same product operated elsewhere (lineage), or a same-category service sharing a compatibility entry",
  });

export const ExitNearest = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name")),
    providerId: z.string().meta(d("Provider id")),
    providerName: z.string().meta(d("Provider display name")),
    kind: z.literal("same-category").meta(d("Always same-category: a service of the same category, not an equivalent")),
    sharedTags: z.array(z.string()).meta(d("Search tags it shares with the service")),
    reason: z.string().meta(d("Why it is listed, and that it is not an equivalent")),
    lacks: z
      .array(z.string())
      .optional()
      .meta(d("The jobs of the service it is not catalogued as doing, by group name (added in 1.10.0)")),
  })
  .meta({
    id: "ExitNearest",
    description:
      "A same-category service on an allowed provider, listed where no equivalent is: to evaluate, not a mapping",
  });

export const ExitClosedPeer = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name")),
    providerId: z.string().meta(d("Provider id")),
    status: z.enum(LIFECYCLE_STATUSES).meta(d("Its lifecycle status: deprecated, sunset or retired")),
  })
  .meta({
    id: "ExitClosedPeer",
    description: "An equivalence-group peer on an allowed provider left out because it is closed to new customers",
  });

/** The providers, not allowed by the target, that sell a job, with their services. */
const ExitElsewhere = z
  .array(
    z.object({
      providerId: z.string().meta(d("Provider id")),
      providerName: z.string().meta(d("Provider display name")),
      services: z.array(z.string()).meta(d("Its services doing the job, open to new customers, by slug")),
    }),
  )
  .meta(d("The providers outside the target that sell the job, with their services (added in 1.10.0)"));

/** Why the target providers lack a job: checked and not sold, or not checked by the catalogue. */
export const EXIT_GAP_KINDS = ["not-sold", "not-checked"] as const;

export const ExitJob = z
  .object({
    group: z.string().meta(d("The job: an equivalence group id the service is in")),
    name: z.string().meta(d("The group's name")),
    primary: z.boolean().meta(d("True for the service's primary job (one per service)")),
    status: z
      .enum(EXIT_COVERAGE)
      .meta(
        d(
          "covered: a candidate does the whole job; partial: only part of it (lost says what); gap: no open service on the allowed providers does it",
        ),
      ),
    by: z
      .string()
      .optional()
      .meta(d("The candidate that covers it (slug): the proposed one where one is, else the best ranked")),
    fit: z.enum(EXIT_FITS).optional().meta(d("How well that candidate does the job (ExitCandidate.fit)")),
    proposed: z.boolean().meta(d("Whether a proposed candidate covers it (the list takes it)")),
    lost: z
      .array(z.string())
      .meta(
        d(
          "What is lost, from the candidates' compatibility scopes and notCompatible records (kafka: producing only) and, from 1.11.0, the replaced service's capabilities the candidate lacks (SMB file shares (smb): not supported) or, from 1.12.0, has in part only (with the part its vendor's page limits it to); empty when nothing is known lost. Until 1.12.0 it also named capabilities not known of the candidate, which unconfirmed now holds",
        ),
      ),
    unconfirmed: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "The replaced service's capabilities of the job the covering candidate is not known to have (SMB file shares (smb): not known whether it is supported): to check on the vendor's pages, never counted as lost (added in 1.12.0)",
        ),
      ),
    capabilities: CapabilityDifference.optional().meta(
      d(
        "The job's capabilities (capabilities.yaml) the replaced service has, as the covering candidate keeps, lacks or is not known to have them; absent where the catalogue records none for the replaced service (added in 1.11.0)",
      ),
    ),
    gapKind: z
      .enum(EXIT_GAP_KINDS)
      .optional()
      .meta(
        d(
          "For a gap: not-sold when the catalogue records every allowed provider as not doing the job (with a source), not-checked otherwise",
        ),
      ),
    elsewhere: ExitElsewhere.optional(),
    optional: z
      .boolean()
      .optional()
      .meta(
        d(
          "true: a non-primary job of a service whose jobs the request did not give (ExitPlanBody.jobsUsed); it is proposed only where a target does it, and neither the entry's coverage nor its fallback counts it (added in 1.11.0)",
        ),
      ),
  })
  .meta({
    id: "ExitJob",
    description: "One job of an approved service and how the allowed providers cover it (added in 1.10.0)",
  });

export const ExitServicePlan = z
  .object({
    slug: z.string().meta(d("The approved service's slug")),
    name: z.string().meta(d("Its name")),
    providerId: z.string().meta(d("Its provider id")),
    providerName: z.string().meta(d("Its provider's display name")),
    category: z.string().meta(d("Its category id")),
    lifecycle: z.enum(["active", ...LIFECYCLE_STATUSES]).meta(d("Its lifecycle status (active = generally available)")),
    outcome: z
      .enum(EXIT_OUTCOMES)
      .meta(
        d(
          "stays: already on an allowed provider and open to new customers; mapped: candidates found; no-equivalent: none, a gap",
        ),
      ),
    reason: z.string().meta(d("Why the outcome is what it is")),
    candidates: z.array(ExitCandidate).meta(d("Ranked candidates, best first (mapped only; otherwise empty)")),
    closedPeers: z
      .array(ExitClosedPeer)
      .meta(d("Group peers on allowed providers left out as deprecated, sunset or retired")),
    nearest: z
      .array(ExitNearest)
      .meta(
        d(
          "For no-equivalent: up to three same-category services on allowed providers sharing at least one search tag with it (a similarity floor, from 1.8.0), not equivalents",
        ),
      ),
    coverage: z
      .enum(EXIT_COVERAGE)
      .optional()
      .meta(
        d(
          "The worst of its jobs: covered (every job whole), partial (a job only in part) or gap (a job with no service on the allowed providers); a service that stays is covered (added in 1.10.0)",
        ),
      ),
    jobs: z
      .array(ExitJob)
      .optional()
      .meta(d("Each of its jobs (its equivalence groups, primary first) and how it is covered (added in 1.10.0)")),
    fallback: z
      .string()
      .optional()
      .meta(
        d(
          "For a service with a job gap: what to do instead, in words (a nearest service to evaluate, a provider outside the target that sells it, or keeping it where it is) (added in 1.10.0)",
        ),
      ),
  })
  .meta({ id: "ExitServicePlan", description: "What becomes of one approved service" });

export const ExitPlan = z
  .object({
    target: z
      .object({
        criteria: ExitTarget.meta(d("The target as asked")),
        providers: z.array(z.string()).meta(d("The allowed providers it resolves to, by id")),
      })
      .meta(d("The target and the providers it allows")),
    catalogue: z
      .object({
        release: z.string().nullable().meta(d("The newest catalogue release (YYYY-MM-DD), null when none is recorded")),
        lastUpdated: z.string().meta(d("When the catalogue data last changed (ISO 8601)")),
      })
      .meta(d("The catalogue the plan was made from")),
    summary: z
      .object({
        services: z.number().int().meta(d("Approved services planned")),
        stays: z.number().int().meta(d("How many stay")),
        mapped: z.number().int().meta(d("How many have candidates")),
        noEquivalent: z.number().int().meta(d("How many have no equivalent")),
        gaps: z
          .number()
          .int()
          .optional()
          .meta(
            d(
              "How many services are gaps (the length of gaps): those with no equivalent, and those mapped for other jobs whose used job no allowed provider does (added in 1.12.0)",
            ),
          ),
        jobs: z
          .object({
            total: z.number().int().meta(d("Jobs of the services that move")),
            covered: z.number().int().meta(d("Covered whole")),
            partial: z.number().int().meta(d("Covered in part")),
            gap: z.number().int().meta(d("Not covered")),
            optional: z
              .number()
              .int()
              .optional()
              .meta(d("Of total, the jobs marked optional (ExitJob.optional; added in 1.11.0)")),
          })
          .optional()
          .meta(d("The jobs of the moving services, by coverage (added in 1.10.0)")),
      })
      .meta(d("Counts by outcome")),
    services: z.array(ExitServicePlan).meta(d("One entry per approved service, in request order")),
    gaps: z
      .array(
        z
          .object({
            slug: z.string().meta(d("Service slug")),
            name: z.string().meta(d("Service name")),
            providerId: z.string().meta(d("Provider id")),
            outcome: z
              .enum(["mapped", "no-equivalent"])
              .optional()
              .meta(
                d(
                  "no-equivalent: nothing replaces it; mapped: it is mapped for other jobs, and jobs names those it is used for that no allowed provider does (added in 1.12.0)",
                ),
              ),
            reason: z.string().meta(d("Why no equivalent is proposed")),
            jobs: z
              .array(z.string())
              .optional()
              .meta(
                d(
                  "Its jobs (group ids) the allowed providers do not cover (added in 1.10.0); for a mapped service only those (1.12.0)",
                ),
              ),
            gapKind: z.enum(EXIT_GAP_KINDS).optional().meta(d("not-sold or not-checked (ExitJob.gapKind)")),
            elsewhere: ExitElsewhere.optional(),
          })
          .meta({ id: "ExitGap", description: "An approved service with no equivalent on the allowed providers" }),
      )
      .meta(
        d(
          "The services with no equivalent and, from 1.12.0, the mapped ones with a used job no allowed provider does, in request order",
        ),
      ),
    targetList: z
      .object({
        approvedServiceIds: z
          .array(z.string())
          .meta(
            d("The proposed list: the services that stay and each mapped service's rank-1 candidate, no duplicates"),
          ),
        providers: z.array(z.string()).meta(d("Its providers, by id")),
        why: z
          .array(
            z.object({
              providerId: z.string().meta(d("A provider of the proposed list")),
              services: z
                .array(z.string())
                .meta(d("The approved services placed on it (they stay there, or move there)")),
              reason: z
                .string()
                .meta(
                  d(
                    "Why it is in the list: the consolidated choice (receives the most services), or which services it is added for and why the consolidated choice does not take them",
                  ),
                ),
            }),
          )
          .optional()
          .meta(d("Why each provider is in the proposed list, the consolidated choice first (added in 1.12.0)")),
        method: z.string().meta(d("How the candidates were chosen")),
      })
      .meta(d("The proposed target list, ready for POST /v1/lists or the policy endpoints")),
    exposure: z
      .object({
        before: ExposureReport.meta(d("GET /v1/exposure of the approved services")),
        after: ExposureReport.meta(
          d(
            "GET /v1/exposure of targetList.approvedServiceIds and of the services left unplaced (counted where they are now)",
          ),
        ),
        unplacedServiceIds: z
          .array(z.string())
          .meta(
            d(
              "The gaps the proposed list leaves out, counted in after where they are now, since nothing replaces them (added in 1.8.0)",
            ),
          ),
      })
      .meta(d("The jurisdictional exposure before and after")),
    leaving: ExitLeaving.optional(),
    notes: z.array(z.string()).meta(d("What the plan does not say: read before relying on it")),
  })
  .meta({ id: "ExitPlan", description: "POST /v1/exit-plan: an approved list mapped onto the providers chosen" });

export type ExitTargetT = z.infer<typeof ExitTarget>;
export type ExitPlanT = z.infer<typeof ExitPlan>;
export type ExitServicePlanT = z.infer<typeof ExitServicePlan>;
export type ExitCandidateT = z.infer<typeof ExitCandidate>;
export type ExitNearestT = z.infer<typeof ExitNearest>;
export type ExitJobT = z.infer<typeof ExitJob>;
export type ExitPlanFormat = (typeof EXIT_PLAN_FORMATS)[number];
