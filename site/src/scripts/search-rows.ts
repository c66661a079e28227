/**
 * The search page's result table (components/pages/Search.astro): a row as the page draws it, the
 * columns sorted in place (the header links sort on the server without JavaScript; here a click
 * sorts the rows shown and keeps ?sort=&dir= in the URL), and the picked rows added to this
 * browser's list (without JavaScript the same button opens the list builder with them, /list/?ids=).
 */
import type { SiteSearchIndex } from "../lib/search-index.ts";
import { readList, writeList } from "./common.ts";
import { orderBy } from "./view.ts";

/** What a row shows, as the text host draws it. */
export interface RowFacts {
  readonly slug: string;
  readonly name: string;
  readonly path: string;
  readonly provider: string;
  readonly category: string;
  /** As the text host labels it ("active", "sunset 2027-03-31"). */
  readonly lifecycle: string;
  readonly jurisdiction: string;
  readonly freeTier: boolean;
  readonly notes: readonly string[];
  readonly description: string;
}

const jurisdictions = new WeakMap<SiteSearchIndex, Map<string, string>>();

/** A provider's head-office jurisdiction, from the index's providers. */
export function jurisdictionOf(index: SiteSearchIndex, provider: string): string {
  let map = jurisdictions.get(index);
  if (!map) jurisdictions.set(index, (map = new Map(index.search.providers.map((p) => [p.id, p.jurisdiction]))));
  return map.get(provider) ?? "";
}

const cell = (text: string, optional = false) => {
  const td = document.createElement("td");
  if (optional) td.className = "optional";
  td.textContent = text;
  return td;
};

/** A result row, the same markup as the page's (Search.astro), so a painted page and a drawn one match. */
export function resultRow(facts: RowFacts): HTMLTableRowElement {
  const tr = document.createElement("tr");
  tr.dataset.slug = facts.slug;
  const pick = document.createElement("td");
  pick.className = "pick";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = "ids";
  box.value = facts.slug;
  box.setAttribute("aria-label", `Pick ${facts.name}`);
  pick.append(box);
  const service = document.createElement("td");
  const a = document.createElement("a");
  a.href = facts.path;
  a.textContent = facts.name;
  service.append(a);
  if (facts.notes.length > 0) {
    const notes = document.createElement("div");
    notes.className = "muted";
    notes.textContent = facts.notes.join(" · ");
    service.append(notes);
  }
  if (facts.description) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = facts.description;
    service.append(p);
  }
  // The badge as components/LifecycleBadge.astro draws it: status, then the date kept whole.
  const [status = "active", date] = facts.lifecycle.split(" ");
  const lifecycle = document.createElement("td");
  lifecycle.dataset.value = facts.lifecycle;
  const badge = document.createElement("span");
  badge.className = `badge ${status}`;
  badge.append(status);
  if (date) {
    const day = document.createElement("span");
    day.className = "badge-date";
    day.textContent = date;
    badge.append(" ", day);
  }
  lifecycle.append(badge);
  tr.append(
    pick,
    service,
    cell(facts.provider),
    cell(facts.category, true),
    lifecycle,
    cell(facts.jurisdiction, true),
    cell(facts.freeTier ? "yes" : "no", true),
  );
  return tr;
}

/** The sort the URL asks (?sort=provider&dir=desc), if any. */
const sortAsked = () => {
  const params = new URLSearchParams(location.search);
  const key = params.get("sort");
  return key ? { key, dir: params.get("dir") === "desc" ? "desc" : "asc" } : undefined;
};

/** The value a row sorts by in a column: the lifecycle's label, else the cell's text. */
const sortValue = (row: HTMLTableRowElement, index: number) => {
  const td = row.cells[index];
  return (td?.dataset.value ?? td?.querySelector("a")?.textContent ?? td?.textContent ?? "").trim();
};

/** Sorts the rows shown by the URL's sort (none: the search's order stands), marking the header. */
export function applySort(table: HTMLTableElement): void {
  const asked = sortAsked();
  const headers = [...table.tHead!.rows[0]!.cells];
  headers.forEach((th) => {
    if (asked && th.dataset.sort === asked.key)
      th.setAttribute("aria-sort", asked.dir === "asc" ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  });
  const index = headers.findIndex((th) => th.dataset.sort === asked?.key);
  if (!asked || index < 0) return;
  const body = table.tBodies[0]!;
  body.append(...orderBy([...body.rows], (row) => sortValue(row, index), asked.dir === "desc"));
}

/** A column's header sorts in place; the picked rows' "add to a list" adds them to this browser's list. */
export function wireRows(table: HTMLTableElement): void {
  for (const th of table.tHead!.rows[0]!.cells) {
    const key = th.dataset.sort;
    if (!key) continue;
    // A header of the prerendered page is text: it becomes a button; the text host's is a link.
    let control = th.querySelector<HTMLElement>("a");
    if (!control) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.append(...th.childNodes);
      th.append(button);
      control = button;
    }
    control.addEventListener("click", (event) => {
      event.preventDefault();
      const asked = sortAsked();
      const url = new URL(location.href);
      url.searchParams.set("sort", key);
      url.searchParams.set("dir", asked?.key === key && asked.dir === "asc" ? "desc" : "asc");
      history.replaceState(null, "", url);
      applySort(table);
    });
  }
  const picks = table.closest("form")!;
  const said = picks.querySelector<HTMLElement>("[data-search-picked]")!;
  picks.querySelector("[data-search-to-list]")!.addEventListener("click", (event) => {
    event.preventDefault();
    const picked = [...picks.querySelectorAll<HTMLInputElement>('input[name="ids"]:checked')].map((box) => box.value);
    if (picked.length === 0) {
      said.textContent = "Pick services first.";
      return;
    }
    const list = readList();
    const added = picked.filter((id) => !list.includes(id));
    writeList([...list, ...added]);
    said.textContent = `Added ${added.length} to your list (${readList().length} in it).`;
  });
  picks.addEventListener("submit", (event) => {
    if (picks.querySelectorAll('input[name="ids"]:checked').length > 0) return;
    event.preventDefault();
    said.textContent = "Pick services first.";
  });
}
