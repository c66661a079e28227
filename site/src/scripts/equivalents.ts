/**
 * /equivalents/: choose the matrix's columns (providers) and a category; both live in the URL
 * (?providers=a,b&category=id: a link shares the view), rows without a member among the chosen
 * providers or outside the category are hidden, and "Download CSV" saves what is shown. The page
 * holds only the chosen columns: other columns are the text host's page for them, fetched and
 * put in place of the table (or, should that fail, opened).
 */
import { downloadCsv, saveUrlState, shownText } from "./view.ts";

const form = document.querySelector<HTMLFormElement>("[data-matrix-form]")!;
const table = document.querySelector<HTMLTableElement>("[data-matrix]")!;
const category = form.querySelector<HTMLSelectElement>("[data-matrix-category]")!;
const count = form.querySelector<HTMLElement>("[data-matrix-count]")!;
const csv = form.querySelector<HTMLButtonElement>("[data-matrix-csv]")!;
const chosenNames = form.querySelector<HTMLElement>("[data-matrix-chosen]")!;
const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="providers"]')];
const defaults = (form.dataset.defaultProviders ?? "").split(",");
let rows = [...table.tBodies[0]!.rows];

function chosen(): string[] {
  return boxes.filter((box) => box.checked).map((box) => box.value);
}

/** The columns the table holds. */
const columns = () =>
  [...table.tHead!.querySelectorAll<HTMLElement>("th[data-provider]")].map((th) => th.dataset.provider!);

function apply() {
  const providers = new Set(columns());
  let shown = 0;
  for (const row of rows) {
    const inCategory = !category.value || row.dataset.category === category.value;
    const hasMember = [...row.cells].some(
      (cell) => cell.dataset.provider && providers.has(cell.dataset.provider) && cell.querySelector("a"),
    );
    row.hidden = !(inCategory && (hasMember || providers.size === 0));
    if (!row.hidden) shown++;
  }
  count.textContent = shownText(shown, rows.length, "kinds of service");
  const list = columns();
  const isDefault = list.length === defaults.length && list.every((id, i) => id === defaults[i]);
  saveUrlState({ providers: isDefault ? "" : list.join(","), category: category.value });
}

/** The boxes as the table's columns (a page come back to may keep other ticks), the category as the URL's. */
function restore() {
  const shown = new Set(columns());
  for (const box of boxes) box.checked = shown.has(box.value);
  const params = new URLSearchParams(location.search);
  const wanted = params.get("category") ?? "";
  category.value = [...category.options].some((option) => option.value === wanted) ? wanted : "";
}

let asked = 0;
/** The table for the ticked providers, from the page the form would open (the default when none). */
async function loadColumns() {
  const ticket = ++asked;
  const query = new URLSearchParams();
  if (chosen().length > 0) query.set("providers", chosen().join(","));
  if (category.value) query.set("category", category.value);
  const url = `${location.pathname}${query.size > 0 ? `?${query}` : ""}`;
  const response = await fetch(url, { headers: { accept: "text/html" } }).catch(() => undefined);
  if (ticket !== asked) return;
  const page = response?.ok && new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page && page.querySelector("table[data-matrix]");
  if (!page || !fresh) return location.assign(url);
  table.replaceChildren(...fresh.childNodes);
  table.setAttribute("style", fresh.getAttribute("style") ?? "");
  chosenNames.textContent = page.querySelector("[data-matrix-chosen]")?.textContent ?? "";
  rows = [...table.tBodies[0]!.rows];
  // None ticked is the default columns, as without JavaScript: the boxes say which.
  restore();
  apply();
}

form.addEventListener("change", (event) => {
  if ((event.target as HTMLInputElement).name === "providers") void loadColumns();
  else apply();
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (chosen().join(",") !== columns().join(",")) void loadColumns();
  else apply();
});
csv.addEventListener("click", () => {
  const head = [...table.tHead!.rows[0]!.cells].map((cell) => cell.textContent.trim());
  const body = rows
    .filter((row) => !row.hidden)
    .map((row) =>
      [...row.cells].map((cell) => ("empty" in cell.dataset ? "" : cell.textContent.replace(/\s+/g, " ").trim())),
    );
  downloadCsv("equivalents", [head, ...body]);
});
restore();
apply();
