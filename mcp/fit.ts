/**
 * Answers that fit an assistant's context window: the API's answer cut to the tool's size
 * arguments, each cut stated in an `omitted` entry (what was left out and the argument that shows
 * it), so that the default answer of every tool stays under 10,000 tokens for the largest input
 * it accepts (tests/mcp/sizes.test.ts).
 */
import { z } from "zod";
import type {
  ExitPlanT,
  ExposureReportT,
  LifecycleListT,
  SavedListDetailT,
  ServiceDetailT,
  ServiceListT,
} from "../catalogue/schema/index.ts";
import { rankedEquivalents } from "../catalogue/equivalence/equivalents.ts";
import type { Catalogue } from "../catalogue/load/load.ts";

/** One cut: the field, how many of its items are shown and how many there are, how to see the rest. */
export const Omitted = z
  .array(
    z.object({
      field: z.string().meta({ description: "The answer's field that was cut" }),
      shown: z.number().int().meta({ description: "Items shown" }),
      total: z.number().int().meta({ description: "Items in the full answer" }),
      hint: z.string().meta({ description: "The tool argument that shows the rest" }),
    }),
  )
  .meta({ description: "What this answer left out to fit an assistant's context, and how to ask for it" });
export type OmittedT = z.infer<typeof Omitted>;

export const EXIT_PLAN_PAGE = 10;
export const EXIT_PLAN_MAX_PAGE = 50;
export const LIFECYCLE_LIMIT = 20;
export const LIFECYCLE_MAX_LIMIT = 100;
export const EQUIVALENTS_LIMIT = 6;

/**
 * A page of `items`: 1-based, and the cut it makes, if any. `hint` says how to see more only
 * where there is more (a next page); on the last page it says the page is the last.
 */
function pageOf<T>(items: readonly T[], page: number, limit: number, field: string, hint: string) {
  const start = (page - 1) * limit;
  const shown = items.slice(start, start + limit);
  const last = start + limit >= items.length;
  const omitted: OmittedT =
    shown.length < items.length
      ? [
          {
            field,
            shown: shown.length,
            total: items.length,
            hint: last ? lastPageHint(page, limit, items.length) : hint,
          },
        ]
      : [];
  return { shown, omitted };
}

/** Where a page is the last (or past it): which pages there are, never a page that does not exist. */
function lastPageHint(page: number, limit: number, total: number): string {
  const pages = Math.max(1, Math.ceil(total / limit));
  return page > pages
    ? `page ${page} is past the end: there ${pages === 1 ? "is 1 page" : `are ${pages} pages`} of ${limit}`
    : `the last page (${pages} of ${limit} each); earlier pages hold the rest`;
}

/** The cuts that cut something: an entry with nothing in the full answer says nothing. */
const nonEmpty = (omitted: OmittedT): OmittedT => omitted.filter((cut) => cut.total > 0);

const withOmitted = <T extends object>(answer: T, omitted: OmittedT) =>
  nonEmpty(omitted).length > 0 ? { ...answer, omitted: nonEmpty(omitted) } : answer;

/**
 * get_service: its equivalents in the catalogue's ranking (every provider's flagship first, the
 * largest portfolios first: catalogue/equivalence/equivalents.ts), of the `providers` asked for
 * when given, cut to `equivalentsLimit` (a service of a common kind has hundreds).
 */
export function fitService(
  answer: ServiceDetailT,
  catalogue: Catalogue,
  {
    limit = EQUIVALENTS_LIMIT,
    providers,
    endedVersions = false,
  }: { limit?: number; providers?: readonly string[]; endedVersions?: boolean } = {},
): ServiceDetailT {
  const ranked = rankedEquivalents(catalogue, answer.equivalents).filter(
    (service) => !providers || providers.includes(service.providerId),
  );
  const { shown, omitted } = pageOf(
    ranked,
    1,
    limit,
    "equivalents",
    `equivalentsLimit (up to 500) shows more, equivalentsProviders narrows them; each equivalence group in full: resource catalogue://equivalents/{id}`,
  );
  const versions = fitVersions(answer.versions, endedVersions);
  // Every equivalent shown (equivalentsLimit up to 500): the differences whole, their pages included.
  const differences = fitDifferences(
    answer.keyDifferences,
    new Set(shown.map((service) => service.slug)),
    shown.length < answer.equivalents.length ? answer.slug : undefined,
  );
  const dependencies = answer.dependencies?.slice(0, DEPENDENCIES_LIMIT);
  return withOmitted(
    {
      ...answer,
      equivalents: shown,
      ...(versions ? { versions: versions.versions } : {}),
      ...(differences ? { keyDifferences: differences.keyDifferences } : {}),
      ...(dependencies ? { dependencies } : {}),
    },
    [
      ...omitted,
      ...(versions?.omitted ?? []),
      ...(differences?.omitted ?? []),
      ...(dependencies && dependencies.length < answer.dependencies!.length
        ? [
            {
              field: "dependencies",
              shown: dependencies.length,
              total: answer.dependencies!.length,
              hint: `every dependency with its source: resource catalogue://services/${answer.slug}`,
            },
          ]
        : []),
    ],
  );
}

/**
 * get_service's dependencies (what a resource type's handlers need besides the service's own
 * actions): the first few, each with its schema's source; EC2 has 17 (9,000 characters).
 */
const DEPENDENCIES_LIMIT = 6;

/**
 * get_service's key differences: those to the equivalents shown (OTC's load balancer has 60
 * equivalents, and their differences alone were 12,000 characters); the rest counted in omitted.
 * When the equivalents are cut, their pages (1.12.0: both sides' vendor pages, repeated per pair)
 * are left to the resource named by `cutSourcesOf`.
 */
function fitDifferences(
  differences: ServiceDetailT["keyDifferences"],
  shownSlugs: ReadonlySet<string>,
  cutSourcesOf: string | undefined,
): { keyDifferences: NonNullable<ServiceDetailT["keyDifferences"]>; omitted: OmittedT } | undefined {
  if (!differences) return undefined;
  const shown = differences.filter((difference) => shownSlugs.has(difference.to));
  const sourced = cutSourcesOf ? shown.filter((difference) => (difference.sources?.length ?? 0) > 0).length : 0;
  const keyDifferences = cutSourcesOf ? shown.map(({ sources: _sources, ...difference }) => difference) : shown;
  return {
    keyDifferences,
    omitted: [
      {
        field: "keyDifferences",
        shown: keyDifferences.length,
        total: differences.length,
        hint: "equivalentsLimit shows the differences to more equivalents",
      },
      {
        field: "keyDifferences[].sources",
        shown: 0,
        total: sourced,
        hint: `each difference with the vendor pages behind it: resource catalogue://services/${cutSourcesOf}`,
      },
    ].filter((cut) => cut.shown < cut.total),
  };
}

/**
 * get_service's versions: those still supported or in extended support; the ended ones (Lambda
 * lists runtimes back to 2016) are counted in omitted unless endedVersions asks for them, as are
 * what each phase means and the pages saying so (each version still says its phase).
 */
function fitVersions(
  versions: ServiceDetailT["versions"],
  endedVersions: boolean,
): { versions: NonNullable<ServiceDetailT["versions"]>; omitted: OmittedT } | undefined {
  if (!versions || endedVersions) return undefined;
  const total = versions.families.reduce((sum, family) => sum + family.versions.length, 0);
  const described = versions.families.reduce((sum, family) => sum + (family.phases?.length ?? 0), 0);
  const families = versions.families.map(({ phases: _phases, ...family }) => ({
    ...family,
    versions: family.versions.filter((version) => version.status !== "ended"),
  }));
  const shown = families.reduce((sum, family) => sum + family.versions.length, 0);
  const { sources: _sources, ...kept } = versions;
  return {
    versions: { ...kept, families },
    omitted: [
      ...(shown < total
        ? [{ field: "versions", shown, total, hint: "endedVersions: true shows the versions whose support has ended" }]
        : []),
      ...(described > 0
        ? [
            {
              field: "versions.families.phases",
              shown: 0,
              total: described,
              hint: "endedVersions: true shows what each phase means and costs, with the vendor pages",
            },
          ]
        : []),
    ],
  };
}

/** lifecycle_upcoming: sunset dates between `from` and `to` (inclusive), then a page of `limit`. */
export function fitLifecycle(
  answer: LifecycleListT,
  args: { from?: string; to?: string; limit?: number; page?: number },
): LifecycleListT {
  const dated = args.from !== undefined || args.to !== undefined;
  const inRange = answer.data.filter(
    (entry) =>
      !dated ||
      (entry.sunsetDate !== undefined &&
        (args.from === undefined || entry.sunsetDate >= args.from) &&
        (args.to === undefined || entry.sunsetDate <= args.to)),
  );
  const page = args.page ?? 1;
  const { shown, omitted } = pageOf(
    inRange,
    page,
    args.limit ?? LIFECYCLE_LIMIT,
    "data",
    `page ${page + 1} (limit up to ${LIFECYCLE_MAX_LIMIT}) shows more; from/to (YYYY-MM-DD), provider and status narrow it`,
  );
  return withOmitted({ ...answer, data: shown }, omitted);
}

/** exit_plan: per service the rank-1 pick, the reason and any gap (summary), or every candidate (full); paged. */
export function fitExitPlan(
  answer: ExitPlanT,
  args: { detail?: "summary" | "full"; page?: number; limit?: number },
): Record<string, unknown> {
  const page = args.page ?? 1;
  const detail = args.detail ?? "summary";
  const { shown, omitted } = pageOf(
    answer.services,
    page,
    args.limit ?? EXIT_PLAN_PAGE,
    "services",
    `page ${page + 1} shows the next services (limit up to ${EXIT_PLAN_MAX_PAGE})`,
  );
  const services =
    detail === "full"
      ? shown
      : shown.map((service) => {
          const pick = service.candidates[0];
          return {
            slug: service.slug,
            name: service.name,
            providerId: service.providerId,
            outcome: service.outcome,
            reason: service.reason,
            ...(pick
              ? { pick: { slug: pick.slug, name: pick.name, providerId: pick.providerId, reason: pick.reason } }
              : {}),
            candidates: service.candidates.length,
            ...(service.nearest.length > 0 ? { nearest: service.nearest.map((near) => near.slug) } : {}),
          };
        });
  const cut: OmittedT =
    detail === "full"
      ? omitted
      : [
          ...omitted,
          {
            field: "services[].candidates",
            shown: shown.filter((service) => service.candidates.length > 0).length,
            total: shown.reduce((sum, service) => sum + service.candidates.length, 0),
            hint: 'detail: "full" gives every ranked candidate with its reasons, closed peers and nearest services',
          },
        ];
  // Gaps as long as the list: this page's.
  const onPage = new Set(shown.map((service) => service.slug));
  const gaps = answer.gaps.filter((gap) => onPage.has(gap.slug));
  if (gaps.length < answer.gaps.length)
    cut.push({ field: "gaps", shown: gaps.length, total: answer.gaps.length, hint: "this page's gaps; page for more" });
  if (detail === "full") {
    const exposure = pagedExposure(answer, page, args.limit ?? EXIT_PLAN_PAGE, cut);
    return { ...answer, services, gaps, exposure, ...(nonEmpty(cut).length > 0 ? { omitted: nonEmpty(cut) } : {}) };
  }
  // The summary's lists as long as the list: the consolidated choice's services in targetList.why
  // (its reason counts them) and each provider's moved services in leaving (each service's providerId).
  const targetList = summaryTargetList(answer, cut);
  const leaving = summaryLeaving(answer, cut);
  // The summary's exposure is its totals (each side's per-service rows are as long as the list).
  const exposure = Object.fromEntries<unknown>(
    Object.entries(answer.exposure).map(([side, report]) => {
      if (Array.isArray(report)) {
        cut.push({ field: `exposure.${side}`, shown: 0, total: report.length, hint: 'detail: "full"; gaps per page' });
        return [side, []];
      }
      if (!report || typeof report !== "object") return [side, report];
      const { services: rows, byRegionCountry: countries, ...totals } = report as Partial<ExposureReportT>;
      for (const [field, items] of [
        ["services", rows],
        ["byRegionCountry", countries],
      ] as const)
        if (items)
          cut.push({ field: `exposure.${side}.${field}`, shown: 0, total: items.length, hint: 'detail: "full"' });
      return [side, totals];
    }),
  );
  return {
    ...answer,
    services,
    gaps,
    targetList,
    ...(leaving ? { leaving } : {}),
    exposure,
    ...(nonEmpty(cut).length > 0 ? { omitted: nonEmpty(cut) } : {}),
  };
}

/** How many of targetList.why's providers the summary keeps: the consolidated choice (its reason counts them). */
const WHY_SHOWN = 1;

/**
 * exit_plan's summary: targetList.why for the first providers, without the services each takes
 * (its reason names them; each service's rank 1 names its provider); the rest counted in omitted.
 */
function summaryTargetList(answer: ExitPlanT, cut: OmittedT): ExitPlanT["targetList"] {
  const why = answer.targetList.why ?? [];
  if (why.length === 0) return answer.targetList;
  const listed = why.reduce((sum, one) => sum + one.services.length, 0);
  cut.push(
    { field: "targetList.why", shown: Math.min(why.length, WHY_SHOWN), total: why.length, hint: 'detail: "full"' },
    { field: "targetList.why[].services", shown: 0, total: listed, hint: 'detail: "full" lists them' },
  );
  return { ...answer.targetList, why: why.slice(0, WHY_SHOWN).map((one) => ({ ...one, services: [] })) };
}

/**
 * exit_plan's summary: leaving without each provider's moved services (each service's providerId
 * says it) and without its words (its price, waiver and estimate are there as fields).
 */
function summaryLeaving(answer: ExitPlanT, cut: OmittedT): Record<string, unknown> | undefined {
  if (!answer.leaving) return undefined;
  const { providers } = answer.leaving;
  const total = providers.reduce((sum, one) => sum + one.services.length, 0);
  if (total > 0)
    cut.push({ field: "leaving.providers[].services", shown: 0, total, hint: 'detail: "full" lists them' });
  if (providers.length > 0)
    cut.push({ field: "leaving.providers[].words", shown: 0, total: providers.length, hint: 'detail: "full"' });
  const waivers = providers.filter((one) => one.waiver).length;
  if (waivers > 0)
    cut.push({
      field: "leaving.providers[].waiver.conditions",
      shown: 0,
      total: waivers,
      hint: 'detail: "full", or the waiver\'s source page',
    });
  cut.push({
    field: "leaving.dataAct.periods",
    shown: 0,
    total: answer.leaving.dataAct.periods.length,
    hint: 'rule is the one in force on asOf; detail: "full" gives every period',
  });
  const rules = answer.leaving.dataAct.rules ?? [];
  if (rules.length > 0)
    cut.push({ field: "leaving.dataAct.rules", shown: 0, total: rules.length, hint: 'detail: "full"' });
  if (answer.leaving.notes.length > 0)
    cut.push({ field: "leaving.notes", shown: 0, total: answer.leaving.notes.length, hint: 'detail: "full"' });
  return {
    ...answer.leaving,
    dataAct: { ...answer.leaving.dataAct, periods: [], ...(rules.length > 0 ? { rules: [] } : {}) },
    notes: [],
    // Each provider's services and words are left out (counted in omitted), not sent empty.
    providers: providers.map(({ waiver, services: _services, words: _words, ...one }) => ({
      ...one,
      ...(waiver ? { waiver: { ...waiver, conditions: [] } } : {}),
    })),
  };
}

/** exit_plan in full: each side's per-service exposure rows (as long as the list) paged as the services are. */
function pagedExposure(answer: ExitPlanT, page: number, limit: number, cut: OmittedT) {
  return Object.fromEntries<unknown>(
    Object.entries(answer.exposure).map(([side, report]) => {
      const rows = (report as Partial<ExposureReportT> | null)?.services;
      if (!Array.isArray(rows)) return [side, report];
      const paged = pageOf(rows, page, limit, `exposure.${side}.services`, "page for more");
      cut.push(...paged.omitted);
      return [side, { ...(report as object), services: paged.shown }];
    }),
  );
}

export const EXPOSURE_ROWS = 15;

/** exposure_scorecard: the totals in full, the per-service rows cut to `servicesLimit`. */
/** The provider-level services a place filter lists apart: their count, and the first of them by slug. */
export const PROVIDER_LEVEL_SHOWN = 25;

/** search_services: the answer whole but for places.providerLevel, cut to PROVIDER_LEVEL_SHOWN slugs (total kept). */
export function fitServiceList(answer: ServiceListT): ServiceListT {
  const level = answer.places?.providerLevel;
  if (!answer.places || !level || level.services.length <= PROVIDER_LEVEL_SHOWN) return answer;
  return {
    ...answer,
    places: { ...answer.places, providerLevel: { ...level, services: level.services.slice(0, PROVIDER_LEVEL_SHOWN) } },
  };
}

export function fitExposure(answer: ExposureReportT, limit = EXPOSURE_ROWS): ExposureReportT {
  const { shown, omitted } = pageOf(
    answer.services,
    1,
    limit,
    "services",
    `servicesLimit (up to 50) shows more rows; the totals above count every service`,
  );
  return withOmitted({ ...answer, services: shown }, omitted);
}

export const LIST_SERVICES = 5;

/** get_saved_list: every approved id, the resolved services cut to `servicesLimit`. */
export function fitSavedList(answer: SavedListDetailT, limit = LIST_SERVICES): SavedListDetailT {
  const { shown, omitted } = pageOf(
    answer.services,
    1,
    limit,
    "services",
    "servicesLimit (up to 50) resolves more; approvedServiceIds lists every one, get_service reads one",
  );
  return withOmitted({ ...answer, services: shown }, omitted);
}
