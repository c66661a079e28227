/**
 * The short text beside each structured answer, for clients that show text only: the text host's
 * own Markdown (catalogue/render) where it has a page for the answer, else a small Doc rendered the
 * same way; links made absolute on the text host; every text ends with the catalogue release.
 */
import type { Catalogue } from "../catalogue/load.ts";
import { exitPlanDoc } from "../catalogue/render/exit-plan.ts";
import { heading, link, paragraph, type Block, type Doc, type Inline } from "../catalogue/render/doc.ts";
import { renderMarkdown } from "../catalogue/render/markdown.ts";
import {
  comparePage,
  lifecyclePage,
  lifecycleLabel,
  savedListPage,
  servicePage,
  servicePath,
} from "../catalogue/render/pages.ts";
import type {
  CompareResultT,
  ExitPlanT,
  ExposureReportT,
  LifecycleListT,
  SavedListDetailT,
  ServiceDetailT,
  ServiceListT,
} from "../catalogue/schema/index.ts";

/** The catalogue release an answer was computed from, so an assistant can cite it. */
export interface CatalogueRelease {
  /** The newest published release (YYYY-MM-DD), or null when none is recorded. */
  readonly release: string | null;
  /** When the data was last changed (ISO 8601). */
  readonly lastUpdated: string;
}

/** As the exit plan names it (catalogue/exit-plan.ts): the newest release marked released. */
export const catalogueRelease = (catalogue: Catalogue): CatalogueRelease => ({
  release: catalogue.changes.find((change) => change.released)?.release ?? null,
  lastUpdated: catalogue.lastUpdated,
});

export const releaseLine = ({ release, lastUpdated }: CatalogueRelease): string =>
  `Cloud Services Catalogue ${release ? `release ${release}` : "(no release recorded)"}, data last updated ${lastUpdated.slice(0, 10)}.`;

function absoluteInline(part: Inline, base: string): Inline {
  return typeof part === "object" && "href" in part && part.href.startsWith("/")
    ? { text: part.text, href: `${base}${part.href}` }
    : part;
}

/** The text host's relative links, made absolute: an assistant quotes them out of context. */
function absoluteLinks(doc: Doc, base: string): Doc {
  const parts = (inlines: readonly Inline[]) => inlines.map((part) => absoluteInline(part, base));
  const blocks = doc.blocks.map((block): Block => {
    switch (block.kind) {
      case "paragraph":
      case "note":
        return { ...block, parts: parts(block.parts) };
      case "list":
        return { ...block, items: block.items.map(parts) };
      case "fields":
        return { ...block, rows: block.rows.map(([name, value]) => [name, parts(value)] as const) };
      case "table":
        return { ...block, rows: block.rows.map(parts) };
      default:
        return block;
    }
  });
  return { title: doc.title, blocks };
}

/** A Doc as the Markdown an MCP client shows, with the release at the end. */
export function markdownOf(doc: Doc, textUrl: string, release: CatalogueRelease): string {
  const stamped = { title: doc.title, blocks: [...doc.blocks, paragraph(releaseLine(release))] };
  return renderMarkdown(absoluteLinks(stamped, textUrl));
}

function searchDoc(answer: ServiceListT, query: string | undefined): Doc {
  const { page, totalPages, total } = answer.pagination;
  return {
    title: "Search",
    blocks: [
      heading(1, query ? `Services matching "${query}"` : "Services"),
      paragraph(`${total} service${total === 1 ? "" : "s"}; page ${page} of ${Math.max(1, totalPages)}.`),
      {
        kind: "table",
        head: ["Service", "Slug", "Provider", "Category", "Lifecycle"],
        rows: answer.data.map((service) => [
          link(service.name, servicePath(service)),
          service.slug,
          service.providerId,
          service.category,
          lifecycleLabel(service.lifecycle),
        ]),
      },
    ],
  };
}

function exposureDoc(report: ExposureReportT): Doc {
  const counts = (rows: ExposureReportT["byJurisdiction"]) =>
    rows.map((row) => `${row.key} ${row.count} (${row.percentage}%)`).join(", ") || "none";
  return {
    title: "Exposure",
    blocks: [
      heading(1, "Jurisdictional exposure"),
      {
        kind: "fields",
        rows: [
          ["Services", [String(report.totalServices)]],
          ["Providers", [String(report.totalProviders)]],
          ["By head-office jurisdiction", [counts(report.byJurisdiction)]],
          ["By region country", [counts(report.byRegionCountry)]],
          ["US-headquartered providers", [`${report.usHeadquarteredProviderPercentage}%`]],
          ["Sovereign options", [String(report.sovereignOptionCount)]],
          ["EU-resident-only options", [String(report.euResidentOnlyCount)]],
        ],
      },
      { kind: "note", tone: "info", parts: [report.disclaimer] },
    ],
  };
}

const POLICY_TITLES: Record<string, string> = {
  scp: "AWS service control policy",
  azure: "Azure Policy initiative",
  gcp: "GCP organization policy",
};

/** The policy itself in a fenced block (the Doc model has none), ready to copy. */
function policyText(format: string, answer: unknown, release: CatalogueRelease): string {
  const intro = renderMarkdown({
    title: "Policy",
    blocks: [
      heading(1, POLICY_TITLES[format] ?? format),
      paragraph(
        "The API's answer, ready to save and apply. A starting point: review it and test it in a non-production unit first.",
      ),
    ],
  });
  return `${intro}\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n\n${releaseLine(release)}\n`;
}

/** Markdown of a tool's JSON answer; `args` are the tool's validated arguments. */
export function toolText(
  catalogue: Catalogue,
  textUrl: string,
  name: string,
  answer: unknown,
  args: Record<string, unknown>,
  today: string,
): string {
  const release = catalogueRelease(catalogue);
  const md = (doc: Doc) => markdownOf(doc, textUrl, release);
  switch (name) {
    case "search_services":
      return md(searchDoc(answer as ServiceListT, args.query as string | undefined));
    case "get_service":
      return md(servicePage(catalogue, (answer as ServiceDetailT).slug));
    case "compare_services":
      return md(
        comparePage(
          catalogue,
          (answer as CompareResultT).services.map((service) => service.slug),
        ),
      );
    case "exposure_scorecard":
      return md(exposureDoc(answer as ExposureReportT));
    case "lifecycle_upcoming": {
      const list = answer as LifecycleListT;
      const filter = {
        withinDays: args.withinDays as number | undefined,
        status: args.status as string | undefined,
        providerId: args.provider as string | undefined,
      };
      return md(lifecyclePage(catalogue, list.asOf, filter));
    }
    case "generate_policy":
      return policyText(String(args.format), answer, release);
    case "exit_plan":
      return md(exitPlanDoc(catalogue, answer as ExitPlanT));
    case "get_saved_list": {
      const list = answer as SavedListDetailT;
      return md(savedListPage(catalogue, { ...list, name: list.name ?? null, slug: list.slug ?? null }, today));
    }
    default:
      return `${JSON.stringify(answer, null, 2)}\n\n${releaseLine(release)}\n`;
  }
}
