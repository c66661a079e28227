/**
 * An exit plan (catalogue/exit/plan.ts) as a document to hand over: a Doc (Markdown on the API,
 * ANSI, Markdown and HTML on the text host) and CSV. Gaps first, then a table per provider moved
 * from, the services that stay, the exposure before and after, the proposed list, the vendor
 * pages that back the proposed services, and the catalogue release the plan was made from.
 */
import { describeTarget } from "../exit/plan.ts";
import type { ServiceRecord } from "../load/load.ts";
import type { ExitCandidateT, ExitPlanT, ExitServicePlanT, ExposureReportT, ProviderT } from "../schema/index.ts";
import { heading, link, paragraph, strong, type Block, type Doc, type Inline } from "../format/doc.ts";
import { toCsv } from "../format/csv.ts";
import { servicePath } from "./pages.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The heading of a plan: "Exit plan: Platform baseline → sovereign option". */
export const exitPlanTitle = (plan: ExitPlanT, listName?: string, nameOf?: (providerId: string) => string) =>
  `Exit plan${listName ? `: ${listName}` : ""} → ${describeTarget(plan.target.criteria, nameOf)}`;

/** "2 of 3 (66.7%)": a count first, so that no cell starts with a number and a dot. */
function usShare(report: ExposureReportT): string {
  const us = new Set(report.services.filter((row) => row.usHeadquartered).map((row) => row.providerId));
  return `${us.size} of ${report.totalProviders} (${report.usHeadquarteredProviderPercentage}%)`;
}

/** The headline: "8 of 11 (72.7%)" services whose provider's head office is in the United States. */
function usServiceShare(report: ExposureReportT): string {
  const us = report.services.filter((row) => row.usHeadquartered).length;
  const share = report.totalServices === 0 ? 0 : Math.round((us / report.totalServices) * 1000) / 10;
  return `${us} of ${report.totalServices} (${share}%)`;
}

/** Each operator of the selection as published: "Alibaba Cloud (Singapore) Private Limited: SG, controlled from CN". */
function operatorsOf(report: ExposureReportT): string {
  const seen = new Map<string, ExposureReportT["services"][number]>();
  for (const row of report.services) if (!seen.has(row.providerId)) seen.set(row.providerId, row);
  return (
    [...seen.values()]
      .map((row) => {
        const company = report.operators?.find((operator) => operator.providerId === row.providerId)?.company;
        const control =
          row.controllingCountry === row.headOfficeCountry ? "" : `, controlled from ${row.controllingCountry}`;
        return `${company ?? row.providerId}: ${row.jurisdiction}${control}`;
      })
      .join("; ") || "none"
  );
}

function topJurisdictions(report: ExposureReportT): string {
  return report.byJurisdiction.map((row) => `${row.key} ${row.percentage}%`).join(", ") || "none";
}

/** What the document reads of a catalogue beside the plan: service pages, sources and provider names. */
type DocCatalogue = {
  readonly bySlug: ReadonlyMap<string, Pick<ServiceRecord, "service"> & Partial<Pick<ServiceRecord, "sources">>>;
  readonly providerById: ReadonlyMap<string, { readonly provider: Pick<ProviderT, "name"> }>;
};

/** A link to a service's page in the catalogue, or its bare name when the catalogue has none. */
type ServiceLink = (slug: string, name: string) => Inline;

const providerNames = (catalogue: DocCatalogue, ids: readonly string[]) =>
  ids.map((id) => catalogue.providerById.get(id)?.provider.name ?? id);

/**
 * The plan as a Doc. `base` prefixes the catalogue's own links (the text host's URL on the API,
 * empty on the text host itself, whose links are relative).
 */
export function exitPlanDoc(
  catalogue: DocCatalogue,
  plan: ExitPlanT,
  options: { readonly base?: string; readonly listName?: string } = {},
): Doc {
  const base = options.base ?? "";
  const title = exitPlanTitle(plan, options.listName, (id) => providerNames(catalogue, [id])[0]!);
  const serviceLink: ServiceLink = (slug, name) => {
    const service = catalogue.bySlug.get(slug)?.service;
    return service ? link(name, `${base}${servicePath(service)}`) : name;
  };
  const blocks: Block[] = [
    heading(1, title),
    ...summaryBlocks(catalogue, plan),
    ...gapBlocks(plan, serviceLink),
    ...movingBlocks(plan, serviceLink),
    ...jobBlocks(plan, serviceLink),
    ...stayingBlocks(plan, serviceLink),
    ...closedPeerBlocks(plan),
    ...exposureBlocks(plan),
    ...leavingBlocks(plan),
    ...proposedListBlocks(plan),
    ...sourceBlocks(catalogue, plan),
    heading(2, "Read before relying on it"),
    { kind: "list", items: plan.notes.map((note) => [note]) },
  ];
  return { title, blocks };
}

/**
 * The counts: "16 services: 0 stay, 15 mapped, 2 gaps (1 with no equivalent, 1 mapped whose used
 * job none does)." A used job's gap is a gap (issue 114), so mapped and gaps may overlap.
 */
export function headline(plan: Pick<ExitPlanT, "summary">): string {
  const { summary } = plan;
  const gaps = summary.gaps ?? summary.noEquivalent;
  const partly = gaps - summary.noEquivalent;
  const split =
    partly > 0 ? ` (${summary.noEquivalent} with no equivalent, ${partly} mapped whose used job none does)` : "";
  return `${plural(summary.services, "service")}: ${summary.stays} stay, ${summary.mapped} mapped, ${plural(gaps, "gap")}${split}.`;
}

/** Where the plan comes from, what the target allows, and the counts. */
function summaryBlocks(catalogue: DocCatalogue, plan: ExitPlanT): Block[] {
  const allowed = providerNames(catalogue, plan.target.providers);
  const targetProviders = providerNames(catalogue, plan.targetList.providers);
  const { summary } = plan;
  return [
    paragraph(
      `Made from the Cloud Services Catalogue ${plan.catalogue.release ? `release ${plan.catalogue.release}` : "(no release recorded)"}, data last updated ${plan.catalogue.lastUpdated.slice(0, 10)}. The target allows ${plural(allowed.length, "provider")}: ${allowed.join(", ")}.`,
    ),
    paragraph(
      strong(headline(plan)),
      ` The proposed list has ${plural(plan.targetList.approvedServiceIds.length, "service")} on ${plural(targetProviders.length, "provider")}${targetProviders.length > 0 ? ` (${targetProviders.join(", ")})` : ""}.`,
      ...(summary.jobs && summary.jobs.total > 0
        ? [
            ` Jobs of the services that move: ${summary.jobs.covered} covered, ${summary.jobs.partial} partial, ${plural(summary.jobs.gap, "gap")} of ${summary.jobs.total}${summary.jobs.optional ? ` (${summary.jobs.optional} optional: not said to be used, counted in no coverage)` : ""}.`,
          ]
        : []),
    ),
  ];
}

const COVERAGE_WORDS = { covered: "covered", partial: "partial", gap: "gap" } as const;

/** One job in words for a cell: "Key management (primary): covered by KMS (OTC), compatible". */
function jobCell(entry: ExitServicePlanT, job: NonNullable<ExitServicePlanT["jobs"]>[number]): string {
  const by = entry.candidates.find((c) => c.slug === job.by);
  const who = by ? ` by ${candidateLabel(by)}${job.proposed ? "" : " (not proposed)"}` : "";
  const lost = job.lost.length > 0 ? `; lost: ${job.lost.join("; ")}` : "";
  // Not known is no loss (issue 114): said as what to check.
  const check = (job.unconfirmed ?? []).length > 0 ? `; to check: ${job.unconfirmed!.join("; ")}` : "";
  // Every row names its role, so the headline's count can be checked against the table.
  const role = job.primary ? " (primary)" : job.optional ? " (optional)" : " (used)";
  return `${job.name}${role}: ${COVERAGE_WORDS[job.status]}${who}${job.fit ? `, ${job.fit}` : ""}${lost}${check}`;
}

/** A service's coverage and jobs in words, for a cell: "partial: Key management (primary): covered by …". */
export const jobsText = (entry: ExitServicePlanT): string =>
  entry.jobs && entry.jobs.length > 0
    ? `${entry.coverage ?? ""}: ${entry.jobs.map((job) => jobCell(entry, job)).join(". ")}${entry.fallback ? `. Fallback: ${entry.fallback}` : ""}`
    : (entry.fallback ?? "");

/**
 * The providers outside the target that sell a gap's job, with their services, for a cell; the
 * first `shown` of them and how many more (a phone's cell), or all.
 */
export const sellersText = (gap: ExitPlanT["gaps"][number], shown = Number.POSITIVE_INFINITY): string => {
  const sellers = gap.elsewhere ?? [];
  const named = sellers.slice(0, shown).map((seller) => `${seller.providerName} (${seller.services.join(", ")})`);
  const more = sellers.length > named.length ? `; and ${sellers.length - named.length} more providers` : "";
  return `${named.join("; ") || "none in the catalogue"}${more}${gap.gapKind === "not-sold" ? "" : "; not checked whether the allowed providers sell it"}`;
};

/** Every moving service's jobs: coverage, the candidate, its compatibility level, what is lost, the fallback. */
function jobBlocks(plan: ExitPlanT, serviceLink: ServiceLink): Block[] {
  const moving = plan.services.filter((entry) => entry.outcome !== "stays" && (entry.jobs ?? []).length > 0);
  if (moving.length === 0) return [];
  return [
    heading(2, "Jobs"),
    paragraph(
      "Each service's jobs are its equivalence groups, primary first. Its coverage is the worst of them: covered (a candidate does the whole job), partial (part of it: what is lost is named) or gap. Where the request did not say which jobs a service is used for, its other jobs are optional and count in no coverage; where it did, only those are planned, the first primary and the others used.",
    ),
    {
      kind: "table",
      head: ["Service", "Coverage", "Jobs", "Fallback"],
      rows: moving.map((entry) => [
        serviceLink(entry.slug, entry.name),
        entry.coverage ? COVERAGE_WORDS[entry.coverage] : "",
        (entry.jobs ?? []).map((job) => jobCell(entry, job)).join(". "),
        entry.fallback ?? "",
      ]),
    },
  ];
}

/** The gaps, with their same-category services marked as not equivalents. */
function gapBlocks(plan: ExitPlanT, serviceLink: ServiceLink): Block[] {
  if (plan.gaps.length === 0) return [heading(2, "Gaps"), paragraph("None: every service stays or has an equivalent.")];
  const byslug = new Map(plan.services.map((entry) => [entry.slug, entry]));
  return [
    heading(2, "Gaps"),
    {
      kind: "note",
      tone: "warning",
      parts: [
        `${plural(plan.gaps.length, "service")} ha${plan.gaps.length === 1 ? "s" : "ve"} no equivalent on the allowed providers, or a job ${plan.gaps.length === 1 ? "it is" : "they are"} used for that none does. The services listed beside them share only the category: evaluate them, they are not equivalents.`,
      ],
    },
    {
      kind: "table",
      head: ["Service", "Provider", "Why", "Same category, not equivalent", "Sold by (outside the target)", "Checked"],
      rows: plan.gaps.map((gap) => [
        serviceLink(gap.slug, gap.name),
        byslug.get(gap.slug)!.providerName,
        gap.reason,
        byslug
          .get(gap.slug)!
          .nearest.map(
            (near) =>
              `${near.name} (${near.providerName})${near.lacks?.length ? `, lacks ${near.lacks.join(", ")}` : ""}`,
          )
          .join("; ") || "none",
        (gap.elsewhere ?? []).map((seller) => `${seller.providerName} (${seller.services.join(", ")})`).join("; ") ||
          "none in the catalogue",
        gap.gapKind === "not-sold"
          ? "the allowed providers are recorded as not selling it"
          : "not checked: the catalogue has no record that the allowed providers lack it",
      ]),
    },
  ];
}

const candidateLabel = (c: ExitCandidateT) =>
  `${c.name} (${c.providerName}${c.lifecycle === "preview" ? ", preview" : ""})`;

/** A table per provider moved from: each mapped service, its proposed candidate and the others. */
function movingBlocks(plan: ExitPlanT, serviceLink: ServiceLink): Block[] {
  const mapped = plan.services.filter((entry) => entry.outcome === "mapped");
  const fromProviders = [...new Set(mapped.map((entry) => entry.providerId))];
  return fromProviders.flatMap((providerId): Block[] => {
    const own = mapped.filter((entry) => entry.providerId === providerId);
    return [
      heading(2, `Moving from ${own[0]!.providerName}`),
      {
        kind: "table",
        head: ["Service", "Proposed", "Alternatives", "Why this one"],
        rows: own.map((entry) => {
          const proposed = entry.candidates.filter((c) => c.proposed);
          const rest = entry.candidates.filter((c) => !c.proposed);
          return [
            serviceLink(entry.slug, entry.name),
            // A cell is one inline: one link, or the names when a second job adds a target.
            proposed.length === 1
              ? serviceLink(proposed[0]!.slug, candidateLabel(proposed[0]!))
              : proposed.map(candidateLabel).join(" + "),
            rest.map(candidateLabel).join("; ") || "none",
            proposed.map((c) => c.reason).join(" "),
          ];
        }),
      },
    ];
  });
}

function stayingBlocks(plan: ExitPlanT, serviceLink: ServiceLink): Block[] {
  const stays = plan.services.filter((entry) => entry.outcome === "stays");
  if (stays.length === 0) return [];
  return [
    heading(2, "Staying"),
    {
      kind: "table",
      head: ["Service", "Provider", "Why"],
      rows: stays.map((entry) => [serviceLink(entry.slug, entry.name), entry.providerName, entry.reason]),
    },
  ];
}

/** The peers left out as closed to new customers, in one note. */
function closedPeerBlocks(plan: ExitPlanT): Block[] {
  const closed = plan.services.filter((entry) => entry.closedPeers.length > 0);
  if (closed.length === 0) return [];
  return [
    {
      kind: "note",
      tone: "info",
      parts: [
        `Left out as closed to new customers (deprecated, sunset or retired): ${closed
          .flatMap((entry) => entry.closedPeers.map((peer) => `${peer.name} (${peer.status}, for ${entry.name})`))
          .join("; ")}.`,
      ],
    },
  ];
}

/** The exposure table's rows (measure, before, after): the document's and the site's. */
export function exposureRows({ before, after }: ExitPlanT["exposure"]): string[][] {
  return [
    ["Services", String(before.totalServices), String(after.totalServices)],
    ["Providers", String(before.totalProviders), String(after.totalProviders)],
    ["Services on a US-headquartered provider", usServiceShare(before), usServiceShare(after)],
    ["US-headquartered providers", usShare(before), usShare(after)],
    ["Services on a sovereign option", String(before.sovereignOptionCount), String(after.sovereignOptionCount)],
    ["Services on an EU-resident-only provider", String(before.euResidentOnlyCount), String(after.euResidentOnlyCount)],
    ["Head-office jurisdictions", topJurisdictions(before), topJurisdictions(after)],
    ["Operators (jurisdiction as published)", operatorsOf(before), operatorsOf(after)],
  ];
}

/** What "after" counts beside the proposed list: the gaps, where they are now. */
export const unplacedSentence = (unplaced: readonly string[]) =>
  `After counts ${plural(unplaced.length, "service")} with no equivalent where ${unplaced.length === 1 ? "it is" : "they are"} now, since nothing replaces ${unplaced.length === 1 ? "it" : "them"}: ${unplaced.join(", ")}.`;

function exposureBlocks(plan: ExitPlanT): Block[] {
  return [
    heading(2, "Exposure before and after"),
    { kind: "table", head: ["Measure", "Before", "After"], rows: exposureRows(plan.exposure) },
    ...(plan.exposure.unplacedServiceIds.length > 0
      ? [paragraph(unplacedSentence(plan.exposure.unplacedServiceIds))]
      : []),
    { kind: "note", tone: "info", parts: [plan.exposure.before.disclaimer] },
  ];
}

function proposedListBlocks(plan: ExitPlanT): Block[] {
  const why = plan.targetList.why ?? [];
  return [
    heading(2, "Proposed list"),
    plan.targetList.approvedServiceIds.length > 0
      ? paragraph(plan.targetList.approvedServiceIds.join(", "))
      : paragraph("Empty: nothing stays and nothing maps."),
    ...(why.length > 0 ? [{ kind: "list" as const, items: why.map((provider) => [provider.reason]) }] : []),
    paragraph(plan.targetList.method),
  ];
}

/** What leaving costs (issue 114): the Data Act's rule on the plan's date, each provider moved from, the notes. */
function leavingBlocks(plan: ExitPlanT): Block[] {
  const leaving = plan.leaving;
  if (!leaving) return [];
  const periods = leaving.dataAct.periods
    .map((period) => `from ${period.from}${period.until ? ` to ${period.until}` : ""}, ${period.rule}`)
    .join(" Then, ");
  return [
    heading(2, "What leaving costs"),
    paragraph(
      `${leaving.dataAct.name}, in force on ${leaving.asOf}: ${leaving.dataAct.rule} Its rules by date: ${periods} `,
      link("The regulation", leaving.dataAct.source.url),
      ` (read ${leaving.dataAct.source.retrieved}).`,
    ),
    ...(leaving.providers.length > 0
      ? [
          {
            kind: "table" as const,
            head: ["Moving from", "Services", "Egress, waiver and estimate"],
            rows: leaving.providers.map((provider) => [
              provider.providerName,
              provider.services.join(", "),
              provider.words,
            ]),
          },
        ]
      : []),
    { kind: "list", items: leaving.notes.map((note) => [note]) },
  ];
}

/** The documentation link and the vendor pages that back each proposed service. */
function sourceBlocks(catalogue: DocCatalogue, plan: ExitPlanT): Block[] {
  const sourced = plan.targetList.approvedServiceIds.map((slug) => catalogue.bySlug.get(slug)!);
  return [
    heading(2, "Sources"),
    {
      kind: "list",
      items: sourced.map(({ service, sources }): Inline[] => [
        `${service.name}: `,
        ...(service.documentationUrl ? [link("documentation", service.documentationUrl)] : ["no documentation link"]),
        ...(sources ?? []).flatMap((source): Inline[] => [
          "; ",
          link(source.backs.join(", "), source.url),
          ` (retrieved ${source.retrieved})`,
        ]),
      ]),
    },
  ];
}

const CSV_HEAD = [
  "service",
  "service_name",
  "service_provider",
  "outcome",
  "kind",
  "rank",
  "slug",
  "name",
  "provider",
  "lifecycle",
  "proposed",
  "reason",
  "coverage",
  "fit",
  "jobs",
  "lost",
  "fallback",
];

/**
 * What a candidate is, as the CSV's kind column says it: the same product elsewhere (lineage), a
 * service speaking a shared protocol or API (compatible), or a peer of its equivalence groups.
 */
/** The columns added in 1.10.0 for a candidate row: the entry's coverage, the fit, its jobs. */
const jobColumns = (entry: ExitServicePlanT, c?: ExitCandidateT): string[] => [
  entry.coverage ?? "",
  c?.fit ?? "",
  (c?.jobs ?? []).join(" "),
  "",
  c ? "" : (entry.fallback ?? ""),
];

/** A job's CSV row: the candidate covering it, its coverage in words, the columns of 1.10.0. */
function jobRow(entry: ExitServicePlanT, job: NonNullable<ExitServicePlanT["jobs"]>[number]): (string | boolean)[] {
  const sellers = (job.elsewhere ?? []).map((seller) => seller.providerName);
  const gap =
    job.status === "gap"
      ? ` (${job.gapKind === "not-sold" ? "not sold by the allowed providers" : "not checked"}${sellers.length > 0 ? `; sold by ${sellers.join(", ")}` : ""})`
      : "";
  return [
    entry.slug,
    entry.name,
    entry.providerId,
    entry.outcome,
    "job",
    "",
    job.by ?? "",
    job.name,
    entry.candidates.find((c) => c.slug === job.by)?.providerId ?? "",
    "",
    job.proposed,
    `${job.name}${job.primary ? " (primary)" : ""}: ${job.status}${gap}`,
    entry.coverage ?? "",
    job.fit ?? "",
    job.group,
    job.lost.join("; "),
    job.status === "gap" ? (entry.fallback ?? "") : "",
  ];
}

function candidateKind(candidate: ExitPlanT["services"][number]["candidates"][number]): string {
  if (candidate.lineage) return "lineage";
  return candidate.compatibility.length > 0 ? "compatible" : "equivalent";
}

/** A CSV row whose candidate is the service itself: it stays, or is kept for lack of an equivalent. */
function itselfRow(entry: ExitServicePlanT, kind: "stays" | "kept"): (string | number | boolean)[] {
  const { slug, name, providerId, lifecycle, reason } = entry;
  return [
    slug,
    name,
    providerId,
    entry.outcome,
    kind,
    "",
    slug,
    name,
    providerId,
    lifecycle,
    true,
    reason,
    ...jobColumns(entry),
  ];
}

/**
 * The plan as CSV, one row per service that stays, per candidate of a mapped service, and per gap
 * and each of its same-category services (kind nearest: not an equivalent). A candidate's kind is
 * lineage, compatible or equivalent (candidateKind). A gap the
 * proposed list keeps where it is (the site's partial exit) is of kind kept, proposed. Each job of
 * a service that moves is a row of kind job (its group in jobs, its coverage in the reason), and
 * the columns coverage, fit, jobs, lost and fallback (1.10.0) say how each row covers them.
 */
export function exitPlanCsv(plan: ExitPlanT): string {
  const rows: (string | number | boolean)[][] = [CSV_HEAD];
  const proposed = new Set(plan.targetList.approvedServiceIds);
  const from = (entry: ExitServicePlanT) => [entry.slug, entry.name, entry.providerId, entry.outcome];
  for (const entry of plan.services) {
    if (entry.outcome === "stays") rows.push(itselfRow(entry, "stays"));
    for (const c of entry.candidates)
      rows.push([
        ...from(entry),
        candidateKind(c),
        c.rank,
        c.slug,
        c.name,
        c.providerId,
        c.lifecycle,
        c.proposed,
        c.reason,
        ...jobColumns(entry, c),
      ]);
    if (entry.outcome !== "stays") for (const job of entry.jobs ?? []) rows.push(jobRow(entry, job));
    if (entry.outcome === "no-equivalent") {
      rows.push(
        proposed.has(entry.slug)
          ? itselfRow(entry, "kept")
          : [...from(entry), "gap", "", "", "", "", "", false, entry.reason, ...jobColumns(entry)],
      );
      for (const near of entry.nearest)
        rows.push([
          ...from(entry),
          "nearest",
          "",
          near.slug,
          near.name,
          near.providerId,
          "",
          false,
          near.reason,
          entry.coverage ?? "",
          "look-alike",
          "",
          (near.lacks ?? []).join("; "),
          "",
        ]);
    }
  }
  return toCsv(rows);
}
