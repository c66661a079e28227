/**
 * /equivalents/: choose the matrix's columns (providers) and a category; both live in the URL
 * (?providers=a,b&category=id: a link shares the view), rows without a member among the chosen
 * providers or outside the category are hidden, and "Download CSV" saves what is shown.
 */
import { downloadCsv, saveUrlState, shownText } from "./view.ts";

const form = document.querySelector<HTMLFormElement>("[data-matrix-form]")!;
const table = document.querySelector<HTMLTableElement>("[data-matrix]")!;
const category = form.querySelector<HTMLSelectElement>("[data-matrix-category]")!;
const count = form.querySelector<HTMLElement>("[data-matrix-count]")!;
const csv = form.querySelector<HTMLButtonElement>("[data-matrix-csv]")!;
const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="providers"]')];
const defaults = boxes.filter((box) => box.defaultChecked).map((box) => box.value);
const rows = [...table.tBodies[0]!.rows];

function chosen(): string[] {
  return boxes.filter((box) => box.checked).map((box) => box.value);
}

function apply() {
  const providers = new Set(chosen());
  for (const cell of table.querySelectorAll<HTMLElement>("[data-provider]"))
    cell.hidden = !providers.has(cell.dataset.provider!);
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
  const list = chosen();
  const isDefault = list.length === defaults.length && list.every((id, i) => id === defaults[i]);
  saveUrlState({ providers: isDefault ? "" : list.join(","), category: category.value });
}

function restore() {
  const params = new URLSearchParams(location.search);
  const asked = params
    .getAll("providers")
    .flatMap((value) => value.split(","))
    .filter((id) => boxes.some((box) => box.value === id));
  if (asked.length > 0) for (const box of boxes) box.checked = asked.includes(box.value);
  const wanted = params.get("category") ?? "";
  category.value = [...category.options].some((option) => option.value === wanted) ? wanted : "";
}

form.addEventListener("change", apply);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  apply();
});
csv.addEventListener("click", () => {
  const columns = [...table.tHead!.rows[0]!.cells].filter((cell) => !cell.hidden);
  const head = columns.map((cell) => cell.textContent.trim());
  const body = rows
    .filter((row) => !row.hidden)
    .map((row) =>
      [...row.cells].filter((cell) => !cell.hidden).map((cell) => cell.textContent.replace(/\s+/g, " ").trim()),
    );
  downloadCsv("equivalents", [head, ...body.map((cells) => cells.map((cell) => (cell === "—" ? "" : cell)))]);
});
restore();
apply();
