/**
 * Progressive enhancement of the service tables (components/ServiceTable.astro): sortable columns
 * (aria-sort), the page's filters (components/TableTools.astro), the state of both in the URL
 * (?provider=AWS&lifecycle=active&sort=service&dir=desc), and a CSV download of the rows shown.
 */
import { downloadCsv, formState, orderBy, restoreForm, saveUrlState, shownText } from "./view.ts";

const tables = [...document.querySelectorAll<HTMLTableElement>("table[data-table]")];
const tools = document.querySelector<HTMLFormElement>("[data-table-tools]");
const FILTERS = ["provider", "category", "jurisdiction", "lifecycle", "free-tier"] as const;
const rows = () => tables.flatMap((table) => [...table.tBodies[0]!.rows]);
const columnKey = (th: HTMLTableCellElement) => (th.textContent ?? "").trim().toLowerCase().replace(/\s+/g, "-");
const params = new URLSearchParams(location.search);
let sort = { key: params.get("sort") ?? "", dir: params.get("dir") === "desc" ? "desc" : "asc" };

/** The value a column sorts by: the lifecycle's status and date, else the cell's text. */
function sortValue(row: HTMLTableRowElement, index: number, key: string): string {
  if (key === "lifecycle") return row.dataset.lifecycleLabel ?? "";
  return (row.cells[index]?.textContent ?? "").trim();
}

function applySort() {
  for (const table of tables) {
    const headers = [...table.tHead!.rows[0]!.cells];
    const index = headers.findIndex((th) => columnKey(th) === sort.key);
    headers.forEach((th, i) => {
      if (i === index) th.setAttribute("aria-sort", sort.dir === "asc" ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
    if (index < 0) continue;
    const body = table.tBodies[0]!;
    body.append(...orderBy([...body.rows], (row) => sortValue(row, index, sort.key), sort.dir === "desc"));
  }
}

function applyFilters() {
  if (!tools) return;
  const chosen = Object.entries(formState(tools, FILTERS));
  // Services, not rows: a service listed under two groups is one service (decisions.md#one-search).
  const shown = new Set<string>();
  const all = rows();
  for (const row of all) {
    const match = chosen.every(([key, value]) => !value || row.getAttribute(`data-${key}`) === value);
    row.hidden = !match;
    if (match) shown.add(row.dataset.slug ?? "");
  }
  const total = new Set(all.map((row) => row.dataset.slug ?? "")).size;
  // A table (and its section) with nothing left to show is hidden with it.
  for (const table of tables) {
    const empty = [...table.tBodies[0]!.rows].every((row) => row.hidden);
    const holder = table.closest("section") ?? table.closest(".table-wrap");
    if (holder instanceof HTMLElement) holder.hidden = empty;
  }
  tools.querySelector("[data-table-count]")!.textContent = shownText(shown.size, total, "services");
}

function saveState() {
  saveUrlState({
    ...(tools ? formState(tools, FILTERS) : {}),
    sort: sort.key,
    dir: sort.key ? sort.dir : "",
  });
}

function downloadShown() {
  const shown = rows().filter((row) => !row.hidden && !row.closest("[hidden]"));
  const grouped = shown.some((row) => row.dataset.group);
  const head = ["Service", "Id", "Provider", "Category", "Jurisdiction", "Lifecycle", "Free tier"];
  const lines = [[...head, ...(grouped ? ["Group"] : [])]];
  for (const row of shown)
    lines.push([
      (row.cells[0]?.textContent ?? "").trim(),
      row.dataset.slug ?? "",
      row.dataset.provider ?? "",
      row.dataset.category ?? "",
      row.dataset.jurisdiction ?? "",
      row.dataset.lifecycleLabel ?? "",
      row.dataset.freeTier ?? "",
      ...(grouped ? [row.dataset.group ?? ""] : []),
    ]);
  downloadCsv(tools?.dataset.csvName ?? "services", lines);
}

for (const table of tables) {
  for (const th of table.tHead!.rows[0]!.cells) {
    const key = columnKey(th);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.append(...th.childNodes);
    th.append(button);
    button.addEventListener("click", () => {
      sort = { key, dir: sort.key === key && sort.dir === "asc" ? "desc" : "asc" };
      applySort();
      saveState();
    });
  }
}

if (tools) {
  tools.hidden = false;
  restoreForm(tools, FILTERS, params);
  tools.addEventListener("change", () => {
    applyFilters();
    saveState();
  });
  tools.addEventListener("submit", (event) => event.preventDefault());
  tools.querySelector("[data-table-reset]")!.addEventListener("click", () => {
    tools.reset();
    applyFilters();
    saveState();
  });
  tools.querySelector("[data-table-csv]")!.addEventListener("click", downloadShown);
  applyFilters();
}
if (sort.key) applySort();
