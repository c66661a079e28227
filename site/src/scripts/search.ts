/** /search/?q=…: Pagefind's JS API over the built site; each result shows provider and lifecycle. */
interface PagefindResult {
  data(): Promise<{ url: string; excerpt: string; meta: Record<string, string> }>;
}
interface Pagefind {
  search(query: string): Promise<{ results: PagefindResult[] }>;
}

const form = document.querySelector<HTMLFormElement>("[data-search-form]")!;
const input = form.querySelector<HTMLInputElement>("input")!;
const statusLine = document.querySelector<HTMLElement>("[data-search-status]")!;
const list = document.querySelector<HTMLElement>("[data-search-results]")!;
let pagefind: Pagefind | undefined;

async function run(query: string) {
  history.replaceState(null, "", query ? `?q=${encodeURIComponent(query)}` : location.pathname);
  if (!query) return list.replaceChildren();
  // The index is written by the build next to the pages; the path is resolved at run time.
  const path = "/pagefind/pagefind.js";
  pagefind ??= (await import(/* @vite-ignore */ path)) as Pagefind;
  const { results } = await pagefind.search(query);
  const data = await Promise.all(results.slice(0, 20).map((result) => result.data()));
  statusLine.textContent = `${results.length} results${results.length > 20 ? ", showing 20" : ""}.`;
  list.replaceChildren(
    ...data.map((item) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = item.url;
      a.textContent = item.meta.title ?? item.url;
      const meta = document.createElement("div");
      meta.className = "muted";
      meta.textContent = [item.meta.provider, item.meta.lifecycle].filter(Boolean).join(" · ");
      const excerpt = document.createElement("p");
      // Pagefind's excerpt marks matches with <mark>; keep the text only.
      excerpt.textContent = new DOMParser().parseFromString(item.excerpt, "text/html").body.textContent ?? "";
      li.append(a, meta, excerpt);
      return li;
    }),
  );
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void run(input.value.trim());
});
const initial = new URLSearchParams(location.search).get("q") ?? "";
input.value = initial;
void run(initial);
