/**
 * /search/?q=…: the one search (catalogue/search/search.ts) run in the browser over /search-index.json,
 * so the results are the API's and the text host's, in their order: when the text host has filled
 * them in, they stay as they are, and nothing is fetched until the query changes. Filters (provider, category, lifecycle) and the query live in
 * the URL; twenty results at a time ("More results"); focus moves to the results after a search.
 * Pagefind is the second tier: pages whose text matches, other than the services listed.
 */
import type { ServiceSearch } from "../../../catalogue/search/search.ts";
import { TEXT_SEARCH_RESULTS as PAGE } from "../../../catalogue/base/limits.ts";
import { searchHref } from "../../../catalogue/render/pages.ts";
import type { SiteSearchIndex } from "../lib/search-index.ts";
import { href } from "../../../catalogue/base/urls.ts";

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
const list = document.querySelector<HTMLOListElement>("[data-search-results]")!;
const more = document.querySelector<HTMLButtonElement>("[data-search-more]")!;
const respelt = document.querySelector<HTMLElement>("[data-search-respelt]")!;
const deadEnd = document.querySelector<HTMLElement>("[data-search-dead-end]")!;
const textSection = document.querySelector<HTMLElement>("[data-search-text]")!;
const textList = document.querySelector<HTMLOListElement>("[data-search-text-results]")!;
const textMore = document.querySelector<HTMLElement>("[data-search-text-more]")!;
const selects = [...form.querySelectorAll<HTMLSelectElement>("[data-search-filter]")];

interface Loaded {
  readonly search: ServiceSearch;
  readonly index: SiteSearchIndex;
  readonly position: ReadonlyMap<string, number>;
}
let loaded: Promise<Loaded> | undefined;
let results: number[] = [];
/** Slug → the sub-service a result was found through ("matches S3 Glacier Deep Archive"). */
let matched: Readonly<Record<string, string>> = {};
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

function item({ index }: Loaded, position: number): HTMLLIElement {
  const doc = index.search.docs[position]!;
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = index.paths[position]!;
  a.textContent = doc.names[0]!;
  const meta = document.createElement("div");
  meta.className = "muted";
  const category = index.search.categories.find((c) => c.id === doc.category)?.name ?? doc.category;
  meta.textContent = [
    index.providerNames[doc.provider],
    category,
    index.lifecycle[position]!,
    ...(matched[doc.id] ? [`matches ${matched[doc.id]}`] : []),
  ].join(" · ");
  li.append(a, meta);
  if (doc.description) {
    const p = document.createElement("p");
    p.textContent = doc.description;
    li.append(p);
  }
  return li;
}

/** The hrefs of the results on the page. */
const paintedHrefs = () =>
  [...list.querySelectorAll<HTMLAnchorElement>(":scope > li > a")].map((a) => a.getAttribute("href")!);

function status() {
  heading.textContent =
    results.length === 0
      ? "No results"
      : `${results.length} result${results.length === 1 ? "" : "s"}${results.length > shown ? `, showing ${shown}` : ""}`;
}

function showMore(data: Loaded, focus: boolean) {
  const items = results.slice(shown, shown + PAGE).map((position) => item(data, position));
  list.append(...items);
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
    selects.filter((select) => select.value).map((select) => [select.dataset.searchFilter!, select.value]),
  ),
});

/** Ranks the query over the index into `results` (filtered) and `matched`; the search's outcome. */
function rank(data: Loaded, { query, filters }: Asked) {
  const outcome = data.search.search(query);
  matched = outcome.subServices;
  // The API's filters, applied after ranking as listServices does.
  results = outcome.slugs
    .map((slug) => data.position.get(slug)!)
    .filter((position) => {
      const doc = data.index.search.docs[position]!;
      return (
        (!filters.provider || doc.provider === filters.provider) &&
        (!filters.category || doc.category === filters.category) &&
        (!filters.lifecycle || data.index.lifecycle[position]!.split(" ")[0] === filters.lifecycle)
      );
    });
  return outcome;
}

async function run(focus: boolean) {
  const id = ++run_id;
  // The painted results' page-text button: a new search runs its own.
  textMore.hidden = true;
  const { query, filters } = asked();
  const url = new URL(location.href);
  url.search = new URLSearchParams({ ...(query ? { q: query } : {}), ...filters }).toString();
  history.replaceState(null, "", url);
  if (!query) {
    list.replaceChildren();
    list.dataset.source = "index";
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
  list.dataset.source = "index";
  if (focus) heading.focus();
  void pageText(query, new Set(first), id);
}

// A place filter (region=, country=) is answered by the server: the index knows no placements.
const placed = form.querySelector("[data-search-place]") !== null;
form.addEventListener("submit", (event) => {
  if (placed) return;
  event.preventDefault();
  void run(true);
});
form.addEventListener("change", (event) => {
  if (!(event.target as HTMLElement).matches("[data-search-filter]")) return;
  if (placed) form.requestSubmit();
  else void run(false);
});
const params = new URLSearchParams(location.search);
input.value = params.get("q") ?? input.value;
for (const select of selects) select.value = params.get(select.dataset.searchFilter!) ?? "";
const arrived = asked();

more.addEventListener(
  "click",
  () =>
    void load().then((data) => {
      // The text host's first page: rank what it asked, the same search, to go on from there.
      if (list.dataset.source === "server") {
        rank(data, arrived);
        list.dataset.source = "index";
      }
      showMore(data, true);
    }),
);
textMore.querySelector("button")!.addEventListener("click", () => {
  textMore.hidden = true;
  void pageText(arrived.query, new Set(paintedHrefs()), run_id);
});

if (list.hasAttribute("data-painted") && arrived.query) {
  // The text host painted these results (the page rendered on demand for ?q=): they stand, and
  // neither index is fetched until the query changes, "More results" or the page-text search.
  shown = list.children.length;
  list.dataset.source = "server";
  heading.focus();
  // No dead end: with no service found, the pages' text is searched at once, inline.
  if (shown === 0) void pageText(arrived.query, new Set(), run_id);
} else {
  // Arriving with a query (a prerendered page): results get the focus.
  void run(Boolean(arrived.query));
}
