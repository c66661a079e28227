/**
 * /compare/a,b,c: the picker, the shareable URL and the side-by-side table from GET /v1/compare.
 * Column headers name the provider; ids the catalogue does not know are named and left out, and
 * the rest compared; "only rows that differ" and the CSV download (of what is shown) keep their
 * state in the URL (?differences=1).
 */
import { MAX_TEXT_COMPARE_SHOWN as MAX } from "../../../catalogue/limits.ts";
import { API_URL, errorMessage, saveFile, toCsv } from "./common.ts";
import { describeService, listCatalogue, splitKnown, type BrowserCatalogue } from "./list-catalogue.ts";
import { picker } from "./picker.ts";

const result = document.querySelector<HTMLElement>("[data-compare-result]")!;
const note = document.querySelector<HTMLElement>("[data-compare-note]")!;
const tools = document.querySelector<HTMLFormElement>("[data-compare-tools]")!;
const differences = tools.querySelector<HTMLInputElement>("[data-compare-differences]")!;
const params = new URLSearchParams(location.search);
const fromPath = decodeURIComponent(location.pathname.replace(/^\/compare\/?/, "").replace(/\/$/, ""));
// /compare/a,b or /compare/?ids=a,b or, from a service page's form, ?ids=a&ids=b.
const requested = [
  ...new Set(
    [fromPath, ...params.getAll("ids")]
      .join(",")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
differences.checked = params.get("differences") === "1";

interface CompareResult {
  services: { slug: string; name: string; providerId: string }[];
  attributes: { label: string; values: Record<string, string | boolean | string[] | null>; shared: boolean }[];
}

const cell = (value: string | boolean | string[] | null) =>
  value === null
    ? "—"
    : Array.isArray(value)
      ? value.join(", ") || "—"
      : typeof value === "boolean"
        ? value
          ? "Yes"
          : "No"
        : value;

let catalogue: BrowserCatalogue | undefined;
let shown: CompareResult | undefined;

function saveUrl(slugs: string[]) {
  const url = new URL(location.href);
  url.pathname = slugs.length ? `/compare/${slugs.join(",")}` : "/compare/";
  url.search = differences.checked ? "?differences=1" : "";
  history.replaceState(null, "", url);
}

function draw() {
  if (!shown) return;
  const table = document.createElement("table");
  const caption = table.createCaption();
  caption.className = "skip";
  caption.textContent = "Services side by side";
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.scope = "col";
  corner.textContent = "Attribute";
  head.append(corner);
  for (const service of shown.services) {
    const th = document.createElement("th");
    th.scope = "col";
    const link = document.createElement("a");
    link.href = `/${service.providerId}/${service.slug.slice(service.providerId.length + 1)}`;
    link.textContent = service.name;
    const provider = document.createElement("span");
    provider.className = "provider";
    provider.textContent = catalogue?.listed.get(service.slug)?.providerShortName ?? service.providerId;
    th.append(link, provider);
    head.append(th);
  }
  const body = table.createTBody();
  for (const attribute of shown.attributes) {
    if (differences.checked && attribute.shared) continue;
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = attribute.label + (attribute.shared ? " (same)" : "");
    row.append(th);
    for (const service of shown.services) row.insertCell().textContent = cell(attribute.values[service.slug] ?? null);
  }
  result.replaceChildren(table);
  tools.hidden = false;
}

async function show(slugs: string[]) {
  saveUrl(slugs);
  shown = undefined;
  tools.hidden = true;
  if (slugs.length === 0) return result.replaceChildren();
  const response = await fetch(`${API_URL}/v1/compare?ids=${slugs.map(encodeURIComponent).join(",")}`);
  if (!response.ok) {
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = await errorMessage(response);
    return result.replaceChildren(p);
  }
  shown = (await response.json()) as CompareResult;
  draw();
}

tools.querySelector("[data-compare-csv]")!.addEventListener("click", () => {
  const rows = [...result.querySelectorAll("tr")].map((tr) =>
    [...tr.cells].map((c, i) =>
      tr.parentElement?.tagName === "THEAD" && i > 0
        ? `${c.querySelector("a")?.textContent ?? ""} (${c.querySelector(".provider")?.textContent ?? ""})`
        : (c.textContent ?? "").trim(),
    ),
  );
  saveFile("comparison.csv", toCsv(rows), "text/csv");
});

let slugs: string[] = [];
differences.addEventListener("change", () => {
  saveUrl(slugs);
  draw();
});

const control = picker(
  document.querySelector<HTMLElement>('[data-picker="compare"]')!,
  [],
  (next) => {
    slugs = next;
    void show(next);
  },
  (slug) => describeService(catalogue, slug),
);

void listCatalogue().then(
  (loaded) => {
    catalogue = loaded;
    const { known, unknown } = splitKnown(loaded, requested);
    const notes: string[] = [];
    if (unknown.length > 0)
      notes.push(
        `Not in the catalogue: ${unknown.join(", ")}. ${known.length > 0 ? "Comparing the rest." : "Pick services below."}`,
      );
    if (known.length > MAX)
      notes.push(`Showing the first ${MAX} of ${known.length} services; the site compares at most ${MAX}.`);
    note.hidden = notes.length === 0;
    note.textContent = notes.join(" ");
    control.set(known.slice(0, MAX));
  },
  () => control.set(requested.slice(0, MAX)),
);
