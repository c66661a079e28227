/**
 * /search/?q=…: Pagefind over the built site, with filters (provider, category, lifecycle) and
 * their state in the URL, ten results at a time ("More results"), and focus moved to the results
 * after a search so keyboard users do not start again from the top.
 */
import { nameMatch, tellingWords } from "../../../catalogue/query.ts";

interface PageData {
  url: string;
  excerpt: string;
  meta: Record<string, string>;
}
interface PagefindResult {
  data(): Promise<PageData>;
}
interface Pagefind {
  options(options: object): Promise<void>;
  filters(): Promise<Record<string, Record<string, number>>>;
  search(query: string, options?: { filters?: Record<string, string> }): Promise<{ results: PagefindResult[] } | null>;
}

const PAGE = 10;
/**
 * Pagefind ranks by word frequency and cannot tell that "s3" is S3's name and only part of "S3
 * Tables"'s. Its first WINDOW results are re-ranked by the API's rule (catalogue/query.ts): pages
 * whose name, short name, alias or kind the query is exactly come first, the most prominent first;
 * the rest keep Pagefind's order. The names, brand and prominence are Pagefind meta of each page.
 */
const WINDOW = 30;
const form = document.querySelector<HTMLFormElement>("[data-search-form]")!;
const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
const heading = document.querySelector<HTMLElement>("[data-search-status]")!;
const list = document.querySelector<HTMLOListElement>("[data-search-results]")!;
const more = document.querySelector<HTMLButtonElement>("[data-search-more]")!;
const selects = [...form.querySelectorAll<HTMLSelectElement>("[data-search-filter]")];
let pagefind: Pagefind | undefined;
let results: { data: () => Promise<PageData> }[] = [];
let shown = 0;

async function load(): Promise<Pagefind> {
  if (pagefind) return pagefind;
  // The index is written by the build next to the pages; the path is resolved at run time.
  const path = "/pagefind/pagefind.js";
  const loaded = (await import(/* @vite-ignore */ path)) as Pagefind;
  // Page length barely matters: a service page is short, a provider page long, and both are wanted.
  await loaded.options({ ranking: { pageLength: 0.1, termFrequency: 0.5 } });
  const available = await loaded.filters();
  for (const select of selects) {
    const values = Object.keys(available[select.dataset.searchFilter!] ?? {}).sort((a, b) => a.localeCompare(b));
    select.append(...values.map((value) => new Option(value, value)));
  }
  form.querySelector<HTMLElement>("[data-search-filters]")!.hidden = false;
  return (pagefind = loaded);
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

function isExact(query: string, meta: Record<string, string>): boolean {
  if (!meta.names) return false;
  const telling = tellingWords(query, new Set((meta.brand ?? "").split(" ").filter(Boolean)));
  return meta.names.split("|").some((name) => nameMatch(name.split(" ").filter(Boolean), telling).exact);
}

async function rerank(query: string, found: PagefindResult[]): Promise<{ data: () => Promise<PageData> }[]> {
  const head = await Promise.all(found.slice(0, WINDOW).map((result) => result.data()));
  const exact = head.map((data) => isExact(query, data.meta));
  const order = head
    .map((data, index) => ({ data, index }))
    .sort(
      (a, b) =>
        Number(exact[b.index]) - Number(exact[a.index]) ||
        (exact[a.index] ? Number(b.data.meta.prominence ?? 0) - Number(a.data.meta.prominence ?? 0) : 0) ||
        a.index - b.index,
    );
  return [
    ...order.map(({ data }) => ({ data: () => Promise.resolve(data) })),
    ...found.slice(WINDOW).map((result) => ({ data: () => result.data() })),
  ];
}

async function showMore(focus: boolean) {
  const page = await Promise.all(results.slice(shown, shown + PAGE).map((result) => result.data()));
  const items = page.map((item) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = item.url;
    a.textContent = item.meta.title ?? item.url;
    const meta = document.createElement("div");
    meta.className = "muted";
    meta.textContent = [item.meta.provider, item.meta.category, item.meta.lifecycle].filter(Boolean).join(" · ");
    li.append(a, meta, excerpt(item.excerpt));
    return li;
  });
  list.append(...items);
  shown += page.length;
  more.hidden = shown >= results.length;
  heading.textContent = `${results.length} result${results.length === 1 ? "" : "s"}${results.length > shown ? `, showing ${shown}` : ""}`;
  if (focus) items[0]?.querySelector("a")?.focus();
}

async function run(focus: boolean) {
  const query = input.value.trim();
  const filters = Object.fromEntries(
    selects.filter((select) => select.value).map((select) => [select.dataset.searchFilter!, select.value]),
  );
  const url = new URL(location.href);
  url.search = new URLSearchParams({ ...(query ? { q: query } : {}), ...filters }).toString();
  history.replaceState(null, "", url);
  list.replaceChildren();
  // The text host may have filled in the API's results (for no-JS visitors); these are Pagefind's.
  list.dataset.source = "pagefind";
  results = [];
  shown = 0;
  more.hidden = true;
  if (!query) {
    heading.textContent = "Results";
    return;
  }
  const found = (await (await load()).search(query, { filters }))?.results ?? [];
  results = await rerank(query, found);
  if (results.length === 0) heading.textContent = "No results";
  else await showMore(false);
  if (focus) heading.focus();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void run(true);
});
form.addEventListener("change", (event) => {
  if ((event.target as HTMLElement).matches("[data-search-filter]")) void run(false);
});
more.addEventListener("click", () => void showMore(true));

const params = new URLSearchParams(location.search);
input.value = params.get("q") ?? input.value;
void load().then(() => {
  for (const select of selects) select.value = params.get(select.dataset.searchFilter!) ?? "";
  // Arriving with a query (from the search box on every page): results get the focus.
  return run(Boolean(input.value.trim()));
});
