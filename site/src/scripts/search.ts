/**
 * /search/?q=…: the one search (catalogue/search/search.ts) run in the browser over /search-index.json,
 * so the results are the API's and the text host's, in their order: when the text host has filled
 * them in, they stay as they are, and nothing is fetched until the query changes. The filters the
 * index holds (provider, category, lifecycle, free tier, compliance, jurisdiction) are applied here;
 * a place (region=, country=) is the server's to read, so the form is sent. Filters, the query and the
 * sort live in the URL; twenty results at a time ("More results"); focus moves to the results after a
 * search. The rows are a table (search-rows.ts): columns sort in place, and picked rows go to a
 * comparison or into this browser's list. Pagefind is the second tier: pages whose text matches,
 * other than the services listed.
 */
import type { ServiceSearch } from "../../../catalogue/search/search.ts";
import { TEXT_SEARCH_RESULTS as PAGE } from "../../../catalogue/base/limits.ts";
import { searchHref } from "../../../catalogue/render/pages.ts";
import type { SiteSearchIndex } from "../lib/search-index.ts";
import { href } from "../../../catalogue/base/urls.ts";
import {
  COMPLIANCE_SCOPE_LABELS,
  COMPLIANCE_SCOPES_SHOWN,
  complianceCountsText,
  scopeKeeps,
} from "../../../catalogue/compliance/compliance.ts";
import { complianceHeldAt, ownAt } from "../lib/search-compliance.ts";
import { applySort, jurisdictionOf, resultRow, wireRows } from "./search-rows.ts";
import type { ComplianceFilterScope } from "../../../catalogue/schema/vocabulary.ts";

interface PageData {
  url: string;
  excerpt: string;
  meta: Record<string, string>;
}
interface Pagefind {
  options(options: object): Promise<void>;
  search(query: string): Promise<{ results: { data(): Promise<PageData> }[] } | null>;
}

/** Page-text matches shown under the services. */
const TEXT_MATCHES = 5;
const form = document.querySelector<HTMLFormElement>("[data-search-form]")!;
const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
const heading = document.querySelector<HTMLElement>("[data-search-status]")!;
const hint = document.querySelector<HTMLElement>("[data-search-hint]")!;
const table = document.querySelector<HTMLTableElement>("[data-search-results]")!;
const list = table.tBodies[0]!;
const actions = document.querySelector<HTMLElement>("[data-search-actions]")!;
const more = document.querySelector<HTMLButtonElement>("[data-search-more]")!;
const respelt = document.querySelector<HTMLElement>("[data-search-respelt]")!;
const deadEnd = document.querySelector<HTMLElement>("[data-search-dead-end]")!;
const complianceLine = document.querySelector<HTMLElement>("[data-search-compliance]")!;
const textSection = document.querySelector<HTMLElement>("[data-search-text]")!;
const textList = document.querySelector<HTMLOListElement>("[data-search-text-results]")!;
const textMore = document.querySelector<HTMLElement>("[data-search-text-more]")!;
const controls = [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-search-filter]")];
/** Filters the index cannot answer (where services run): the form is sent, the text host answers. */
const SERVER_FILTERS: ReadonlySet<string> = new Set(["region", "country", "limit"]);

interface Loaded {
  readonly search: ServiceSearch;
  readonly index: SiteSearchIndex;
  readonly position: ReadonlyMap<string, number>;
}
let loaded: Promise<Loaded> | undefined;
let results: number[] = [];
/** Slug → the sub-service a result was found through ("matches S3 Glacier Deep Archive"). */
let matched: Readonly<Record<string, string>> = {};
/** Slug → the programmes asked that a result holds only provider-wide ("provider-wide: BSI C5"). */
let heldWide: Readonly<Record<string, string>> = {};
let shown = 0;
let run_id = 0;

/**
 * The search's code (MiniSearch, the six languages' Snowball stemmers) is a chunk of its own, fetched
 * beside the index when a search first runs: the page loads without it, and a page the text host
 * painted fetches neither until the query changes.
 */
function load(): Promise<Loaded> {
  return (loaded ??= Promise.all([
    import("./service-search.ts"),
    fetch("/search-index.json").then((response) => {
      if (!response.ok) throw new Error(`search index: HTTP ${response.status}`);
      return response.json() as Promise<SiteSearchIndex>;
    }),
  ]).then(([{ ServiceSearch }, index]) => ({
    index,
    search: new ServiceSearch(index.search),
    position: new Map(index.search.docs.map((doc, i) => [doc.id, i])),
  })));
}

function item({ index }: Loaded, position: number): HTMLTableRowElement {
  const doc = index.search.docs[position]!;
  const category = index.search.categories.find((c) => c.id === doc.category)?.name ?? doc.category;
  return resultRow({
    slug: doc.id,
    name: doc.names[0]!,
    path: index.paths[position]!,
    provider: index.providerNames[doc.provider] ?? doc.provider,
    category,
    lifecycle: index.lifecycle[position]!,
    jurisdiction: jurisdictionOf(index, doc.provider),
    freeTier: index.freeTier?.[position] === "1",
    notes: [
      ...(matched[doc.id] ? [`matches ${matched[doc.id]}`] : []),
      ...(heldWide[doc.id] ? [`provider-wide: ${heldWide[doc.id]}`] : []),
    ],
    description: doc.description,
  });
}

/** The hrefs of the results on the page. */
const paintedHrefs = () =>
  [...list.querySelectorAll<HTMLAnchorElement>(":scope > tr > td:nth-child(2) > a")].map((a) =>
    a.getAttribute("href")!,
  );

function status() {
  actions.hidden = list.rows.length === 0;
  heading.textContent =
    results.length === 0
      ? "No results"
      : `${results.length} result${results.length === 1 ? "" : "s"}${results.length > shown ? `, showing ${shown}` : ""}`;
}

function showMore(data: Loaded, focus: boolean) {
  const items = results.slice(shown, shown + PAGE).map((position) => item(data, position));
  list.append(...items);
  applySort(table);
  shown += items.length;
  more.hidden = shown >= results.length;
  status();
  if (focus) items[0]?.querySelector("a")?.focus();
}

/** Pagefind's excerpt as DOM: its text, with only its <mark>s kept as elements. */
function excerpt(html: string): HTMLParagraphElement {
  const p = document.createElement("p");
  for (const node of new DOMParser().parseFromString(html, "text/html").body.childNodes) {
    if (node.nodeName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      p.append(mark);
    } else p.append(node.textContent ?? "");
  }
  return p;
}

/** The second tier: Pagefind over page text, pages not already listed above. */
async function pageText(query: string, listed: ReadonlySet<string>, id: number) {
  textSection.hidden = true;
  textList.replaceChildren();
  try {
    const path = "/pagefind/pagefind.js";
    const pagefind = (await import(/* @vite-ignore */ path)) as Pagefind;
    await pagefind.options({ ranking: { pageLength: 0.1, termFrequency: 0.5 } });
    const found = (await pagefind.search(query))?.results ?? [];
    const pages: PageData[] = [];
    for (const result of found.slice(0, 40)) {
      const data = await result.data();
      if (!listed.has(data.url.replace(/\/$/, ""))) pages.push(data);
      if (pages.length >= TEXT_MATCHES) break;
    }
    if (id !== run_id || pages.length === 0) return;
    textList.append(
      ...pages.map((page) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = page.url;
        a.textContent = page.meta.title ?? page.url;
        li.append(a, excerpt(page.excerpt));
        return li;
      }),
    );
    textSection.hidden = false;
  } catch {
    // Page text is a second tier: without its index (a development build) the services stand alone.
  }
}

/**
 * A search that found nothing: the words no service has and the nearest jobs; or a product the
 * catalogue does not list, read as its kinds. As the text host says them.
 */
function showDeadEnd(outcome: ReturnType<ServiceSearch["search"]>, groups: readonly { readonly id: string }[]) {
  deadEnd.replaceChildren();
  const unmatched = outcome.unmatched ?? [];
  const jobs = outcome.nearestJobs ?? [];
  const other = outcome.otherProduct;
  const anchor = (name: string, path: string) => {
    const link = document.createElement("a");
    link.href = path;
    link.textContent = name;
    return link;
  };
  if (other) {
    deadEnd.append(`${other.name} is not in the catalogue; shown instead, the services of its kind: `);
    other.kinds.forEach((kind, i) => {
      const path = groups.some((group) => group.id === kind.id)
        ? href("equivalence-group", { id: kind.id })
        : href("category", { id: kind.id });
      deadEnd.append(...(i > 0 ? [", "] : []), anchor(kind.name, path));
    });
    deadEnd.append(`. ${other.why} `);
  }
  if (unmatched.length > 0)
    deadEnd.append(`No service has: ${unmatched.join(", ")}; the catalogue does not know what that is. `);
  if (jobs.length > 0) {
    deadEnd.append("Nearest jobs: ");
    jobs.forEach((job, i) =>
      deadEnd.append(...(i > 0 ? [", "] : []), anchor(job.name, href("equivalence-group", { id: job.id }))),
    );
    deadEnd.append(".");
  }
  deadEnd.hidden = !other && unmatched.length === 0 && jobs.length === 0;
}

interface Asked {
  readonly query: string;
  readonly filters: Readonly<Record<string, string>>;
}

/** What the form asks now. */
const asked = (): Asked => ({
  query: input.value.trim(),
  filters: Object.fromEntries(
    controls.flatMap((control) => {
      const name = control.dataset.searchFilter!;
      if (control instanceof HTMLInputElement && control.type === "checkbox")
        return control.checked ? [[name, "true"]] : [];
      return control.value.trim() ? [[name, control.value.trim()]] : [];
    }),
  ),
});

/** Whether the form asks what only the server answers: a place, or a country= carried from the URL. */
const askedOfServer = () =>
  Object.keys(asked().filters).some((name) => SERVER_FILTERS.has(name)) ||
  form.querySelector('input[type="hidden"][data-search-place]') !== null;

/** Every service in the catalogue's order: what a compliance filter without words lists, as the API does. */
const everything = (data: Loaded): ReturnType<ServiceSearch["search"]> => ({
  slugs: data.index.search.docs.map((doc) => doc.id),
  closest: false,
  providers: [],
  kind: false,
  subServices: {},
});

/** Ranks the query over the index into `results` (filtered) and `matched`; the search's outcome. */
function rank(data: Loaded, { query, filters }: Asked) {
  const outcome = query ? data.search.search(query) : everything(data);
  matched = outcome.subServices;
  const asked = (filters.compliance ?? "").split(",").filter(Boolean);
  const scope = (filters.complianceScope ?? "own") as ComplianceFilterScope;
  const counts = { own: 0, provider: 0 };
  const wide: Record<string, string> = {};
  // The API's filters, applied after ranking as listServices does; compliance last, both holdings counted.
  results = outcome.slugs
    .map((slug) => data.position.get(slug)!)
    .filter((position) => {
      const doc = data.index.search.docs[position]!;
      if (
        (filters.provider && doc.provider !== filters.provider) ||
        (filters.category && doc.category !== filters.category) ||
        (filters.lifecycle && data.index.lifecycle[position]!.split(" ")[0] !== filters.lifecycle) ||
        (filters.jurisdiction && jurisdictionOf(data.index, doc.provider) !== filters.jurisdiction) ||
        (filters.freeTier && data.index.freeTier?.[position] !== "1")
      )
        return false;
      if (asked.length === 0) return true;
      const held = complianceHeldAt(data.index, position, asked);
      if (held) counts[held]++;
      if (held === "provider") {
        const own = ownAt(data.index, position);
        wide[doc.id] = asked
          .filter((id) => !own.includes(id))
          .map((id) => data.index.compliance.names[id] ?? id)
          .join(", ");
      }
      return scopeKeeps(scope, held);
    });
  heldWide = scope === "own" ? {} : wide;
  showCompliance(data, { query, filters }, asked, counts, scope);
  return outcome;
}

/** The compliance filter's two holdings counted apart, with links to the other scopes; as the text host says it. */
function showCompliance(
  data: Loaded,
  { query, filters }: Asked,
  asked: readonly string[],
  counts: { own: number; provider: number },
  scope: ComplianceFilterScope,
) {
  complianceLine.replaceChildren();
  complianceLine.hidden = asked.length === 0;
  if (asked.length === 0) return;
  const names = asked.map((id) => data.index.compliance.names[id] ?? id).join(", ");
  complianceLine.append(complianceCountsText(names, counts, scope), " Show: ");
  COMPLIANCE_SCOPES_SHOWN.filter((other) => other !== scope).forEach((other, i) => {
    const { complianceScope: _, ...rest } = filters;
    const link = document.createElement("a");
    link.href = searchHref(query, other === "own" ? rest : { ...rest, complianceScope: other });
    link.textContent = COMPLIANCE_SCOPE_LABELS[other];
    complianceLine.append(...(i > 0 ? [", "] : []), link);
  });
  complianceLine.append(".");
}

async function run(focus: boolean) {
  const id = ++run_id;
  // The painted results' page-text button: a new search runs its own.
  textMore.hidden = true;
  const { query, filters } = asked();
  const url = new URL(location.href);
  const sorted = new URLSearchParams(location.search);
  url.search = new URLSearchParams({
    ...(query ? { q: query } : {}),
    ...filters,
    // The sort is the page's, kept across searches.
    ...Object.fromEntries(["sort", "dir"].flatMap((key) => (sorted.get(key) ? [[key, sorted.get(key)!]] : []))),
  }).toString();
  history.replaceState(null, "", url);
  if (!query && Object.keys(filters).length === 0) {
    complianceLine.hidden = true;
    list.replaceChildren();
    table.dataset.source = "index";
    results = [];
    shown = 0;
    more.hidden = true;
    hint.hidden = true;
    textSection.hidden = true;
    heading.textContent = "Results";
    return;
  }
  const data = await load();
  if (id !== run_id) return;
  const outcome = rank(data, { query, filters });
  // The same words as the text host's (sidecar/text/site.ts searchHint).
  hint.textContent = [
    results.length === 0 ? "Nothing in the catalogue matches; try another name or fewer words." : "",
    outcome.closest && results.length > 0 ? "No service matches every word; these are the closest." : "",
  ]
    .filter(Boolean)
    .join(" ");
  hint.hidden = !hint.textContent;
  // "Did you mean" is a link to the respelt search, as the text host renders it.
  respelt.replaceChildren();
  if (outcome.suggestion) {
    const link = document.createElement("a");
    link.href = searchHref(outcome.suggestion, filters);
    link.textContent = outcome.suggestion;
    respelt.append("Did you mean ", link, "?");
  }
  respelt.hidden = !outcome.suggestion;
  showDeadEnd(outcome, data.search.data.groups);
  // The server's page links belong to the search it rendered.
  document.querySelector("[data-search-pager]")?.remove();
  const first = results.slice(0, PAGE).map((position) => data.index.paths[position]!);
  const painted = paintedHrefs();
  if (painted.length === first.length && painted.every((href, i) => href === first[i])) {
    // The text host painted these very results: keep them, no repaint, no reorder.
    shown = painted.length;
    more.hidden = shown >= results.length;
    status();
  } else {
    list.replaceChildren();
    shown = 0;
    showMore(data, false);
  }
  // Marks the list as final (the browser tests wait for it).
  table.dataset.source = "index";
  if (focus) heading.focus();
  if (query) void pageText(query, new Set(first), id);
}

// A place filter (region=, country=) is answered by the server: the index knows no placements.
form.addEventListener("submit", (event) => {
  if (askedOfServer()) return;
  event.preventDefault();
  void run(true);
});
form.addEventListener("change", (event) => {
  if (!(event.target as HTMLElement).matches("[data-search-filter]")) return;
  if (askedOfServer()) form.requestSubmit();
  else void run(false);
});
const params = new URLSearchParams(location.search);
input.value = params.get("q") ?? input.value;
// The text host wrote the controls as it read the URL (names as ids: provider=AWS as aws): they
// stand; the URL fills only what the page left empty (a prerendered page arrived at with a query).
for (const control of controls) {
  const value = params.get(control.dataset.searchFilter!);
  if (value === null || (control instanceof HTMLInputElement && control.type === "checkbox")) continue;
  if (
    !control.value &&
    (!(control instanceof HTMLSelectElement) || [...control.options].some((o) => o.value === value))
  )
    control.value = value;
}
const arrived = asked();
wireRows(table);

more.addEventListener(
  "click",
  () =>
    void load().then((data) => {
      // The text host's first page: rank what it asked, the same search, to go on from there.
      if (table.dataset.source === "server") {
        rank(data, arrived);
        table.dataset.source = "index";
      }
      showMore(data, true);
    }),
);
textMore.querySelector("button")!.addEventListener("click", () => {
  textMore.hidden = true;
  void pageText(arrived.query, new Set(paintedHrefs()), run_id);
});

if (table.hasAttribute("data-painted") && (arrived.query || Object.keys(arrived.filters).length > 0)) {
  // The text host painted these results (the page rendered on demand for ?q=): they stand, and
  // neither index is fetched until the query changes, "More results" or the page-text search.
  shown = list.rows.length;
  table.dataset.source = "server";
  heading.focus();
  // No dead end: with no service found, the pages' text is searched at once, inline.
  if (shown === 0 && arrived.query) void pageText(arrived.query, new Set(), run_id);
} else {
  // Arriving with a query (a prerendered page): results get the focus.
  void run(Boolean(arrived.query || Object.keys(arrived.filters).length > 0));
}
