/**
 * What the enhanced views share (the service tables, the lifecycle cards, compare): a form whose
 * state lives in the page URL (restored on load, so a link shares the view), a stable text
 * ordering, the "showing n of m" wording and the CSV download of what is shown.
 */
import { toCsv } from "../../../catalogue/format/csv.ts";
import { saveFile } from "./common.ts";

type Control = HTMLSelectElement | HTMLInputElement;

const controlOf = (form: HTMLFormElement, name: string): Control | null => {
  const control = form.elements.namedItem(name);
  return control instanceof HTMLSelectElement || control instanceof HTMLInputElement ? control : null;
};

/**
 * Sets each named control from the URL: a select only to a value it offers (a stale or edited link
 * falls back to "All"), a checkbox checked by "1".
 */
export function restoreForm(
  form: HTMLFormElement,
  names: readonly string[],
  params = new URLSearchParams(location.search),
): void {
  for (const name of names) {
    const control = controlOf(form, name);
    const value = params.get(name) ?? "";
    if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === "1";
    else if (control instanceof HTMLSelectElement)
      control.value = [...control.options].some((option) => option.value === value) ? value : "";
  }
}

/** The named controls' values: a select's value, "1" for a ticked checkbox, "" for the default. */
export function formState<Name extends string>(form: HTMLFormElement, names: readonly Name[]): Record<Name, string> {
  return Object.fromEntries(
    names.map((name) => {
      const control = controlOf(form, name);
      if (control instanceof HTMLInputElement && control.type === "checkbox") return [name, control.checked ? "1" : ""];
      return [name, control?.value ?? ""];
    }),
  ) as Record<Name, string>;
}

/**
 * Writes state into the page URL, leaving out defaults (""), so a link carries only what was
 * chosen; other parameters stay. replaceState: a filter change is not a page to go back to.
 */
export function saveUrlState(state: Readonly<Record<string, string>>, url = new URL(location.href)): void {
  for (const [name, value] of Object.entries(state))
    if (value) url.searchParams.set(name, value);
    else url.searchParams.delete(name);
  history.replaceState(null, "", url);
}

/** Items ordered by a key (text in English order, "v10" after "v9"); ties keep their order. */
export function orderBy<T>(items: readonly T[], key: (item: T) => string | number, descending = false): T[] {
  const sign = descending ? -1 : 1;
  return [...items].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order =
      typeof x === "number" && typeof y === "number"
        ? x - y
        : String(x).localeCompare(String(y), "en", { numeric: true });
    return order * sign;
  });
}

export { shownText } from "../lib/shown-text.ts";

/** Downloads rows (the header first) as `name.csv`. */
export const downloadCsv = (name: string, rows: readonly (readonly string[])[]): void =>
  saveFile(`${name}.csv`, toCsv(rows), "text/csv");
