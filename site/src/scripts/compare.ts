/**
 * /compare/a,b,c: the picker, the shareable URL and the side-by-side table from GET /v1/compare.
 * Column headers name the provider; ids the catalogue does not know are named and left out, and
 * the rest compared. The rows come in the attribute groups of catalogue/equivalence/compare.ts; the options
 * (one group, only rows that differ, the order of the services) keep their state in the URL
 * (?group=provider&differences=1&sort=jurisdiction) beside the ids in the path, and the CSV
 * download is what is shown.
 */
import { COMPARE_GROUPS, compareCell, compareShown } from "../../../catalogue/equivalence/compare.ts";
import { MAX_TEXT_COMPARE_SHOWN as MAX } from "../../../catalogue/base/limits.ts";
import type { components } from "../../../catalogue/generated/openapi-types.ts";
import { api, errorMessage } from "./api.ts";
import { describeService, listCatalogue, splitKnown, type BrowserCatalogue } from "./list-catalogue.ts";
import { picker } from "./picker.ts";
import { downloadCsv, formState, orderBy, restoreForm, saveUrlState, shownText } from "./view.ts";
import { href, servicePath } from "../../../catalogue/base/urls.ts";

const result = document.querySelector<HTMLElement>("[data-compare-result]")!;
const note = document.querySelector<HTMLElement>("[data-compare-note]")!;
const tools = document.querySelector<HTMLFormElement>("[data-compare-tools]")!;
const STATE = ["group", "differences", "sort"] as const;
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
restoreForm(tools, STATE, params);

type CompareResult = components["schemas"]["CompareResult"];

/** Compliance programme names by id (the page's data-compliance-names), shown in place of the API's ids. */
const complianceNames = new Map(
  Object.entries(JSON.parse(result.dataset.complianceNames ?? "{}") as Record<string, string>),
);
const shownCell = (attribute: CompareResult["attributes"][number], slug: string) =>
  compareShown(attribute.attribute, attribute.values[slug] ?? null, (id) => complianceNames.get(id) ?? id);

let catalogue: BrowserCatalogue | undefined;
let shown: CompareResult | undefined;

/** The ids stay in the path, in the order chosen (the shared-link form); the options go in the query. */
function saveUrl(slugs: string[]) {
  const url = new URL(location.href);
  url.pathname = slugs.length ? href("compare-ids", { ids: slugs.join(",") }) : href("compare");
  url.search = "";
  saveUrlState(formState(tools, STATE), url);
}

/** What the options leave of the answer: the columns in their order, the groups and their rows. */
function view(answer: CompareResult) {
  const state = formState(tools, STATE);
  const jurisdictions = answer.attributes.find((a) => a.attribute === "jurisdiction")?.values ?? {};
  const columns = answer.services.map((service) => ({
    ...service,
    provider: catalogue?.listed.get(service.slug)?.providerShortName ?? service.providerId,
    jurisdiction: compareCell(jurisdictions[service.slug] ?? null),
  }));
  type Column = (typeof columns)[number];
  const keys: Record<string, (column: Column) => string> = {
    name: (column) => column.name,
    provider: (column) => column.provider,
    jurisdiction: (column) => column.jurisdiction,
  };
  const key = keys[state.sort];
  const groups = COMPARE_GROUPS.filter((group) => !state.group || group.id === state.group)
    .map((group) => ({
      label: group.label,
      rows: answer.attributes.filter(
        (a) => (group.attributes as readonly string[]).includes(a.attribute) && !(state.differences && a.shared),
      ),
    }))
    .filter((group) => group.rows.length > 0);
  return { columns: key ? orderBy(columns, key) : columns, groups };
}

const rowLabel = (attribute: CompareResult["attributes"][number]) =>
  attribute.label + (attribute.shared ? " (same)" : "");

function draw() {
  if (!shown) return;
  const { columns, groups } = view(shown);
  const table = document.createElement("table");
  table.style.setProperty("--columns", String(columns.length));
  const caption = table.createCaption();
  caption.className = "skip";
  caption.textContent = "Services side by side";
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.scope = "col";
  corner.textContent = "Attribute";
  head.append(corner);
  for (const service of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.dataset.slug = service.slug;
    const link = document.createElement("a");
    link.href = servicePath(service);
    link.textContent = service.name;
    const provider = document.createElement("span");
    provider.className = "provider";
    provider.textContent = service.provider;
    th.append(link, provider);
    head.append(th);
  }
  for (const group of groups) {
    const body = table.createTBody();
    const th = document.createElement("th");
    th.scope = "rowgroup";
    th.colSpan = columns.length + 1;
    // The label sticks to the left edge like the row headers while the columns scroll.
    const label = document.createElement("span");
    label.textContent = group.label;
    th.append(label);
    body.insertRow().append(th);
    for (const attribute of group.rows) {
      const row = body.insertRow();
      const rowHeader = document.createElement("th");
      rowHeader.scope = "row";
      rowHeader.textContent = rowLabel(attribute);
      row.append(rowHeader);
      for (const service of columns) row.insertCell().textContent = shownCell(attribute, service.slug);
    }
  }
  result.replaceChildren(table);
  // Drawn here, from the API's answer with the options applied (the text host fills in a plain
  // comparison for browsers without JavaScript, which this replaces).
  result.dataset.source = "api";
  const rows = groups.reduce((sum, group) => sum + group.rows.length, 0);
  tools.querySelector("[data-compare-count]")!.textContent = shownText(rows, shown.attributes.length, "attributes");
  tools.hidden = false;
}

async function show(slugs: string[]) {
  saveUrl(slugs);
  shown = undefined;
  // The options stay while the answer comes (hiding them meanwhile would move the table twice).
  if (slugs.length === 0) {
    tools.hidden = true;
    return result.replaceChildren();
  }
  const { data, error, response } = await api.GET("/v1/compare", { params: { query: { ids: slugs.join(",") } } });
  if (!data) {
    tools.hidden = true;
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = errorMessage(error, response);
    return result.replaceChildren(p);
  }
  shown = data;
  draw();
}

tools.querySelector("[data-compare-csv]")!.addEventListener("click", () => {
  if (!shown) return;
  const { columns, groups } = view(shown);
  downloadCsv("comparison", [
    ["Group", "Attribute", ...columns.map((service) => `${service.name} (${service.provider})`)],
    ...groups.flatMap((group) =>
      group.rows.map((attribute) => [
        group.label,
        rowLabel(attribute),
        ...columns.map((service) => shownCell(attribute, service.slug)),
      ]),
    ),
  ]);
});

let slugs: string[] = [];
tools.addEventListener("change", () => {
  saveUrl(slugs);
  draw();
});
tools.addEventListener("submit", (event) => event.preventDefault());

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
