/**
 * /exposure/?ids=… (or a saved list's ?list=): the picker, GET /v1/exposure, figures and accessible
 * bar charts. The address's services first; "use my list" takes this browser's list instead.
 */
import { MAX_EXPOSURE_IDS } from "../../../catalogue/base/limits.ts";
import type { components } from "../../../catalogue/generated/openapi-types.ts";
import { api, errorMessage } from "./api.ts";
import { addressIds, addressListId, readList } from "./common.ts";
import { describeService, listCatalogue, splitKnown, type BrowserCatalogue } from "./list-catalogue.ts";
import { picker } from "./picker.ts";
import { placedIn, placesNotes } from "../../../catalogue/equivalence/exposure-places.ts";

type Count = components["schemas"]["ExposureCount"];

const section = document.querySelector<HTMLElement>("[data-exposure-result]")!;
const note = document.querySelector<HTMLElement>("[data-exposure-note]")!;
const figure = (name: string, value: string) =>
  (document.querySelector(`[data-figure="${name}"]`)!.textContent = value);

function chart(container: Element, counts: Count[], label: string) {
  const list = document.createElement("div");
  list.setAttribute("role", "list");
  list.setAttribute("aria-label", label);
  for (const count of counts.slice(0, 25)) {
    const row = document.createElement("div");
    row.className = "chart-row";
    row.setAttribute("role", "listitem");
    const key = document.createElement("span");
    key.textContent = count.key;
    const track = document.createElement("span");
    const bar = document.createElement("span");
    bar.className = "chart-bar";
    bar.style.display = "block";
    bar.style.width = `${count.percentage}%`;
    track.append(bar);
    const value = document.createElement("span");
    value.textContent = `${count.count} (${count.percentage} %)`;
    row.append(key, track, value);
    list.append(row);
  }
  container.replaceChildren(list);
}

const regionsInput = document.querySelector<HTMLInputElement>("[data-exposure-regions]");
const placesBlock = document.querySelector<HTMLElement>("[data-exposure-places]")!;
/** The places typed (GET /v1/exposure's regions), comma-separated, blanks dropped. */
const placesAsked = () =>
  (regionsInput?.value ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean)
    .join(",");

/** The services last scored, to score again when the places change. */
let scored: string[] = [];

async function show(slugs: string[]) {
  scored = slugs;
  const url = new URL(location.href);
  if (slugs.length) url.searchParams.set("ids", slugs.join(","));
  else url.searchParams.delete("ids");
  const regions = placesAsked();
  if (regions) url.searchParams.set("regions", regions);
  else url.searchParams.delete("regions");
  history.replaceState(null, "", url);
  if (slugs.length === 0) {
    section.hidden = true;
    return;
  }
  const {
    data: report,
    error,
    response,
  } = await api.GET("/v1/exposure", {
    params: { query: { ids: slugs.join(","), ...(regions ? { regions } : {}) } },
  });
  if (!report) {
    section.hidden = true;
    note.hidden = false;
    note.textContent = errorMessage(error, response);
    return;
  }
  section.hidden = false;
  note.hidden = true;
  const notes = placesNotes(report);
  placesBlock.hidden = notes.length === 0;
  placesBlock.replaceChildren(
    Object.assign(document.createElement("h2"), { textContent: "Where the data sits" }),
    ...notes.map((line) => Object.assign(document.createElement("p"), { textContent: line })),
  );
  figure("services", String(report.totalServices));
  figure("providers", String(report.totalProviders));
  figure("us", `${report.usHeadquarteredProviderPercentage} %`);
  figure("sovereign", String(report.sovereignOptionCount));
  figure("eu", String(report.euResidentOnlyCount));
  document.querySelector("[data-disclaimer]")!.textContent = report.disclaimer;
  chart(
    document.querySelector('[data-chart="jurisdiction"]')!,
    report.byJurisdiction,
    "Services by head-office jurisdiction",
  );
  chart(document.querySelector('[data-chart="regions"]')!, report.byRegionCountry, "Services by region country");
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  const titles = ["Service", "Provider", "Jurisdiction", "Sovereign option", "EU-resident-only"];
  for (const title of report.places ? [...titles, "Where the data sits"] : titles) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const tbody = table.createTBody();
  for (const row of report.services) {
    const tr = tbody.insertRow();
    for (const value of [
      row.name,
      row.providerId,
      row.jurisdiction,
      row.sovereignOption ? "Yes" : "No",
      row.euResidentOnly ? "Yes" : "No",
      ...(report.places ? [placedIn(row)] : []),
    ])
      tr.insertCell().textContent = value;
  }
  document.querySelector("[data-exposure-rows]")!.replaceChildren(table);
}

const requested = addressIds();
const savedListId = addressListId();
let catalogue: BrowserCatalogue | undefined;
const control = picker(
  document.querySelector<HTMLElement>('[data-picker="exposure"]')!,
  [],
  (slugs) => void show(slugs),
  (slug) => describeService(catalogue, slug),
);
document.querySelector("[data-use-list]")!.addEventListener("click", () => {
  const mine = readList();
  // An empty list would clear the picker and say nothing: say why instead.
  if (mine.length === 0) {
    note.hidden = false;
    note.textContent = "Your list in this browser is empty: add services to it, or pick them below.";
    return;
  }
  control.set(mine.slice(0, MAX_EXPOSURE_IDS));
});
// Placing the scorecard again where the data sits, for the services chosen.
regionsInput?.addEventListener("change", () => void show(scored));
// A shared link with ids the catalogue no longer has: name them, score the rest.
void listCatalogue().then(
  (loaded) => {
    catalogue = loaded;
    const { known, unknown } = splitKnown(loaded, requested);
    if (unknown.length > 0) {
      note.hidden = false;
      note.textContent = `Not in the catalogue: ${unknown.join(", ")}. ${known.length > 0 ? "Scoring the rest." : "Pick services below."}`;
    }
    if (savedListId && requested.length === 0) return void scoreSavedList(savedListId);
    control.set(known.slice(0, MAX_EXPOSURE_IDS));
  },
  () => control.set(requested.slice(0, MAX_EXPOSURE_IDS)),
);

/** ?list=<slug or id>: a saved list's services (GET /v1/lists/{id}, not rate-limited), scored as ids. */
async function scoreSavedList(id: string) {
  const { data: list, error, response } = await api.GET("/v1/lists/{id}", { params: { path: { id } } });
  if (!list) {
    note.hidden = false;
    note.textContent = errorMessage(error, response);
    return;
  }
  control.set(list.approvedServiceIds.slice(0, MAX_EXPOSURE_IDS));
}
