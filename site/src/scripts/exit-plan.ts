/**
 * /list/exit/: "Plan an exit" for the list being built, computed here by exitPlan()
 * (catalogue/exit/plan.ts, the API's own function) over /exit-catalogue.json, so it costs no API
 * request. An alternative picked per service changes the proposed list and its exposure (the
 * same exposureReport as GET /v1/exposure), and so does a gap kept where it is (a partial exit:
 * the API's proposal leaves gaps out); "Use as my list" makes it the list, which the builder's
 * policies and Markdown export then follow, after asking when it would replace a non-empty list.
 * The criteria live in the address (?sovereignOption=true&jurisdictions=EU,CH, the text host's
 * /lists/{id}/exit-plan query), and a plan whose criteria changed says so until Plan is pressed.
 * A saved list (?list=) is planned by listExitPlan with the jobs and data volumes saved with it,
 * the function GET /v1/lists/{id}/exit-plan answers with; the browser's own list by exitPlan with
 * the form's jobs and data fields, as POST /v1/exit-plan (issue 114: one plan on every face).
 */
import { expandExitCatalogue, type CompactExitCatalogue } from "../../../catalogue/exit/catalogue.ts";
import { exitPlan, exposureOf } from "../../../catalogue/exit/plan.ts";
import { listExitPlan, listFieldsOf, listFieldsText, type ListToPlan } from "../../../catalogue/exit/list-plan.ts";
import type { ExitCatalogue } from "../../../catalogue/exit/context.ts";
import { HttpError } from "../../../catalogue/base/problem.ts";
import {
  exitPlanCsv,
  exitPlanDoc,
  exposureRows,
  headline,
  jobsText,
  sellersText,
  unplacedSentence,
} from "../../../catalogue/render/exit-plan.ts";
import { renderMarkdown } from "../../../catalogue/format/markdown.ts";
import type { ExitPlanT, ExitTargetT } from "../../../catalogue/schema/index.ts";
import { api, errorMessage } from "./api.ts";
import { readList, saveFile, writeList } from "./common.ts";
import { href } from "../../../catalogue/base/urls.ts";

const form = document.querySelector<HTMLFormElement>("[data-exit-form]")!;
const status = document.querySelector<HTMLElement>("[data-exit-status]")!;
const result = document.querySelector<HTMLElement>("[data-exit-result]")!;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string) => {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  return element;
};

let loaded: Promise<ExitCatalogue> | undefined;
const exitCatalogue = () =>
  (loaded ??= fetch("/exit-catalogue.json")
    .then((response) => {
      if (!response.ok) throw new Error(`exit-catalogue.json: ${response.status}`);
      return response.json() as Promise<CompactExitCatalogue>;
    })
    .then(expandExitCatalogue));

function targetOfForm(): ExitTargetT {
  const data = new FormData(form);
  const all = (name: string) => data.getAll(name).map(String);
  const to: ExitTargetT = {};
  if (data.get("sovereignOption")) to.sovereignOption = true;
  if (data.get("euResidentOnly")) to.euResidentOnly = true;
  if (all("jurisdictions").length > 0) to.jurisdictions = all("jurisdictions");
  if (all("providers").length > 0) to.providers = all("providers");
  if (all("exclude").length > 0) to.exclude = all("exclude");
  return to;
}

const TARGET_KEYS = ["sovereignOption", "euResidentOnly", "jurisdictions", "providers", "exclude"] as const;
const LISTED_KEYS = ["jurisdictions", "providers", "exclude"] as const;

/** The address's criteria put in the form; none there: the form's defaults stand. */
function formOfAddress(): void {
  const params = new URLSearchParams(location.search);
  if (!TARGET_KEYS.some((key) => params.has(key))) return;
  const on = (key: string) => ["true", "1"].includes(params.get(key) ?? "");
  for (const key of ["sovereignOption", "euResidentOnly"] as const)
    form.querySelector<HTMLInputElement>(`input[name="${key}"]`)!.checked = on(key);
  for (const key of LISTED_KEYS) {
    const values = new Set((params.get(key) ?? "").split(",").filter(Boolean));
    form
      .querySelectorAll<HTMLInputElement>(`input[name="${key}"]`)
      .forEach((input) => (input.checked = values.has(input.value)));
  }
}

/** The criteria planned with, written to the address (beside ?list=), so the plan can be shared. */
function addressOfTarget(to: ExitTargetT): void {
  const url = new URL(location.href);
  for (const key of TARGET_KEYS) url.searchParams.delete(key);
  if (to.sovereignOption) url.searchParams.set("sovereignOption", "true");
  else url.searchParams.set("sovereignOption", "false");
  if (to.euResidentOnly) url.searchParams.set("euResidentOnly", "true");
  for (const key of LISTED_KEYS) if (to[key]?.length) url.searchParams.set(key, to[key].join(","));
  history.replaceState(null, "", url);
}

let plan: ExitPlanT | undefined;
let catalogue: ExitCatalogue | undefined;
/** The candidate picked per mapped service, when not the proposed one. */
const picks = new Map<string, string>();
/** The gaps kept on their current provider in the proposed list. */
const kept = new Set<string>();

// The gap's own reason follows: its provider is not allowed, or the service is closed to new customers there.
const keptReason = (entry: { providerName: string; reason: string }) =>
  `Kept on ${entry.providerName} in the proposed list, by choice; still a gap: ${entry.reason}`;

/**
 * The plan with the choices applied: each picked candidate first (in place of rank 1; a target
 * proposed for a second job stays), each kept gap in the proposed list (its reason says so), the
 * list and its exposure recomputed as exitPlan computes them.
 */
function picked(base: ExitPlanT, c: ExitCatalogue): ExitPlanT {
  const services = base.services.map((entry) => {
    if (kept.has(entry.slug)) return { ...entry, reason: keptReason(entry) };
    const pick = picks.get(entry.slug);
    if (!pick || entry.candidates[0]?.slug === pick) return entry;
    const chosen = entry.candidates.find((candidate) => candidate.slug === pick)!;
    const first = entry.candidates[0]!.slug;
    return {
      ...entry,
      candidates: [
        { ...chosen, proposed: true, reason: `Picked instead of rank 1. ${chosen.reason}` },
        ...entry.candidates
          .filter((candidate) => candidate.slug !== pick)
          .map((c) => ({ ...c, proposed: c.proposed && c.slug !== first })),
      ],
    };
  });
  const ids = [
    ...new Set(
      services.flatMap((entry) =>
        entry.outcome === "stays" || kept.has(entry.slug)
          ? [entry.slug]
          : entry.candidates.filter((candidate) => candidate.proposed).map((candidate) => candidate.slug),
      ),
    ),
  ];
  return {
    ...base,
    services,
    gaps: base.gaps.map((gap) =>
      kept.has(gap.slug) ? { ...gap, reason: services.find((entry) => entry.slug === gap.slug)!.reason } : gap,
    ),
    targetList: {
      ...base.targetList,
      approvedServiceIds: ids,
      providers: [...new Set(ids.map((id) => c.bySlug.get(id)!.service.providerId))].sort(),
    },
    exposure: { ...exposureOf(c, [], services, ids), before: base.exposure.before },
  };
}

/**
 * A table; `stacked`, it becomes a card per row on a phone (global.css, table.stacked), each cell
 * led by its column's name (data-label), rather than squeeze its columns into slivers.
 */
function table(head: string[], rows: (string | Node)[][], caption: string, stacked = false): HTMLTableElement {
  const t = el("table");
  if (stacked) t.className = "stacked";
  t.append(el("caption", caption));
  const tr = el("tr");
  for (const cell of head) {
    const th = el("th", cell);
    th.scope = "col";
    tr.append(th);
  }
  t.append(el("thead"));
  t.tHead!.append(tr);
  const body = el("tbody");
  for (const row of rows) {
    const r = el("tr");
    for (const [index, cell] of row.entries()) {
      const td = el("td");
      td.dataset.label = head[index] ?? "";
      td.append(cell);
      r.append(td);
    }
    body.append(r);
  }
  t.append(body);
  return t;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** A service's jobs in full where it has several or one is not covered; else "covered" (Move to says by what). */
const jobsCell = (entry: ExitPlanT["services"][number]) =>
  (entry.jobs?.length ?? 0) > 1 || (entry.coverage !== undefined && entry.coverage !== "covered")
    ? jobsText(entry)
    : "covered";

function showExposure(current: ExitPlanT) {
  const { before } = current.exposure;
  // The operators' row is a paragraph of its own: too long for three columns on a phone.
  const rows = exposureRows(current.exposure);
  const operators = rows.find(([measure]) => measure!.startsWith("Operators"));
  document.querySelector("[data-exit-exposure]")!.replaceChildren(
    table(
      ["Measure", "Before", "After"],
      rows.filter((row) => row !== operators),
      "Exposure of the current list and of the proposed one",
    ),
    ...(operators ? [el("p", `${operators[0]}: before, ${operators[1]}; after, ${operators[2]}.`)] : []),
  );
  const unplaced = current.exposure.unplacedServiceIds;
  document.querySelector("[data-exit-disclaimer]")!.textContent =
    `${unplaced.length > 0 ? `${unplacedSentence(unplaced)} ` : ""}${before.disclaimer}`;
  document.querySelector("[data-exit-summary]")!.textContent =
    `${headline(current)} The proposed list has ${plural(current.targetList.approvedServiceIds.length, "service")} on ${plural(current.targetList.providers.length, "provider")} (${current.targetList.providers.join(", ") || "none"})${kept.size > 0 ? `, ${plural(kept.size, "gap")} kept where ${kept.size === 1 ? "it is" : "they are"}` : ""}.`;
}

/** A gap's name and the choice to keep it where it is (in the proposed list) rather than leave it out. */
function keepChoice(base: ExitPlanT, c: ExitCatalogue, entry: ExitPlanT["services"][number]): Node {
  const cell = el("div", `${entry.name} (${entry.providerName})`);
  const label = el("label");
  label.className = "block";
  const input = el("input");
  input.type = "checkbox";
  input.name = `keep-${entry.slug}`;
  input.checked = kept.has(entry.slug);
  input.addEventListener("change", () => {
    if (input.checked) kept.add(entry.slug);
    else kept.delete(entry.slug);
    showExposure(picked(base, c));
  });
  label.append(input, ` Keep on ${entry.providerName} for now`);
  cell.append(label);
  return cell;
}

/** Alternatives a mapped service shows before "n more": a phone's card stays a screen or so tall. */
const ALTERNATIVES_SHOWN = 3;

/** A mapped service's choice among its candidates, the first few shown and the rest one click away. */
function alternatives(base: ExitPlanT, c: ExitCatalogue, entry: ExitPlanT["services"][number]): HTMLFieldSetElement {
  const group = el("fieldset");
  group.append(el("legend", `Replace ${entry.name} with`));
  const chosen = picks.get(entry.slug) ?? entry.candidates[0]!.slug;
  const choice = (candidate: (typeof entry.candidates)[number]) => {
    const label = el("label");
    label.className = "block";
    const input = el("input");
    input.type = "radio";
    input.name = `pick-${entry.slug}`;
    input.value = candidate.slug;
    input.checked = candidate.slug === chosen;
    input.addEventListener("change", () => {
      picks.set(entry.slug, candidate.slug);
      showExposure(picked(base, c));
    });
    label.append(
      input,
      ` ${candidate.rank}. ${candidate.name} (${candidate.providerName}${candidate.lifecycle === "preview" ? ", preview" : ""})`,
    );
    label.title = candidate.reason;
    return label;
  };
  group.append(...entry.candidates.slice(0, ALTERNATIVES_SHOWN).map(choice));
  const rest = entry.candidates.slice(ALTERNATIVES_SHOWN);
  if (rest.length > 0) {
    const more = el("details");
    // Open when the choice made is among them, so it is never out of sight.
    more.open = rest.some((candidate) => candidate.slug === chosen);
    more.append(el("summary", `${rest.length} more alternative${rest.length === 1 ? "" : "s"}`), ...rest.map(choice));
    group.append(more);
  }
  const also = entry.candidates.slice(1).filter((candidate) => candidate.proposed);
  if (also.length > 0)
    group.append(
      el(
        "p",
        `Also proposed, for another job it does: ${also.map((c) => `${c.name} (${c.providerName})`).join(", ")}.`,
      ),
    );
  return group;
}

function show(base: ExitPlanT, c: ExitCatalogue) {
  const current = picked(base, c);
  const gaps = document.querySelector("[data-exit-gaps]")!;
  if (base.gaps.length === 0) gaps.replaceChildren(el("p", "None: every service stays or has an equivalent."));
  else
    gaps.replaceChildren(
      table(
        ["Service", "Why", "Same category, not equivalent", "Sold by (outside the target)"],
        base.gaps.map((gap) => {
          const entry = base.services.find((one) => one.slug === gap.slug)!;
          // A service mapped for its other jobs is in the list already: only a whole gap can be kept.
          return [
            entry.outcome === "no-equivalent" ? keepChoice(base, c, entry) : `${entry.name} (${entry.providerName})`,
            gap.reason,
            entry.nearest.map((near) => `${near.name} (${near.providerName})`).join("; ") || "none",
            // The first three sellers: the handover document names them all.
            sellersText(gap, 3),
          ];
        }),
        "Services with no equivalent, or a used job none does, on the providers chosen",
        true,
      ),
    );
  const rows = base.services
    .filter((entry) => entry.outcome !== "no-equivalent")
    .map((entry) => {
      if (entry.outcome === "stays") return [`${entry.name} (${entry.providerName})`, "Stays", entry.reason, "covered"];
      const group = alternatives(base, c, entry);
      return [`${entry.name} (${entry.providerName})`, group, entry.candidates[0]!.reason, jobsCell(entry)];
    });
  document
    .querySelector("[data-exit-mapping]")!
    .replaceChildren(
      table(["Service", "Move to", "Why rank 1", "Jobs"], rows, "What each service becomes; rank 1 is proposed", true),
    );
  showExposure(current);
  showWhyAndLeaving(base);
  result.hidden = false;
}

/** Why each provider is in the proposed list, and what leaving costs (issue 114), as the plan says them. */
function showWhyAndLeaving(base: ExitPlanT) {
  document
    .querySelector("[data-exit-why]")!
    .replaceChildren(...(base.targetList.why ?? []).map((provider) => el("li", provider.reason)));
  const leaving = base.leaving;
  const box = document.querySelector("[data-exit-leaving]")!;
  if (!leaving) return void box.replaceChildren(el("p", "This catalogue carries no egress data."));
  box.replaceChildren(
    el("p", `${leaving.dataAct.name}, on ${leaving.asOf}: ${leaving.dataAct.rule}`),
    ...leaving.providers.map((provider) => el("p", provider.words)),
    ...leaving.notes.map((note) => el("p", note)),
  );
}

/** ?list=<slug or id>: a saved list as saved (GET /v1/lists/{id}, not rate-limited), fetched once. */
const savedListId = new URLSearchParams(location.search).get("list");
let saved: Promise<{ list: ListToPlan; name: string } | string> | undefined;
const savedList = (id: string) =>
  (saved ??= api.GET("/v1/lists/{id}", { params: { path: { id } } }).then(({ data: list, error, response }) => {
    if (!list) return errorMessage(error, response);
    const { approvedServiceIds, jobsUsed, dataGb } = list;
    return {
      list: { approvedServiceIds, ...(jobsUsed ? { jobsUsed } : {}), ...(dataGb ? { dataGb } : {}) },
      name: list.name ?? list.slug ?? id,
    };
  }));

/** The form's jobs and data fields, and whether they are the saved list's own (shown, not edited). */
const listFields = {
  jobsUsed: form.querySelector<HTMLInputElement>('input[name="jobsUsed"]')!,
  dataGb: form.querySelector<HTMLInputElement>('input[name="dataGb"]')!,
};
function showSavedFields(list: ListToPlan): void {
  const text = listFieldsText(list);
  for (const key of ["jobsUsed", "dataGb"] as const) {
    listFields[key].value = text[key];
    listFields[key].readOnly = true;
  }
  form.querySelector<HTMLElement>("[data-exit-list-saved]")!.hidden = false;
}

/** The list to plan: the saved list named in the address, as saved, else the list being built. */
async function listToPlan(): Promise<{ list: ListToPlan; saved: boolean; from: string } | undefined> {
  if (!savedListId) {
    const ids = readList();
    if (ids.length > 0) return { list: { approvedServiceIds: ids }, saved: false, from: "your list" };
    status.textContent = "Your list is empty: add services in the list builder first.";
    return undefined;
  }
  const found = await savedList(savedListId).catch(() => "The saved list could not be loaded; try again.");
  if (typeof found === "string") {
    status.textContent = found;
    return undefined;
  }
  showSavedFields(found.list);
  return { list: found.list, saved: true, from: `the saved list “${found.name}”` };
}

/** The plan of the list to the form's target: a saved list's as the API plans it, else the form's. */
function planOf(c: ExitCatalogue, toPlan: { list: ListToPlan; saved: boolean }, to: ExitTargetT): ExitPlanT {
  if (toPlan.saved) return listExitPlan(c, toPlan.list, to);
  const known = toPlan.list.approvedServiceIds.filter((id) => c.bySlug.has(id));
  const fields = listFieldsOf((key) => listFields[key].value);
  return exitPlan(c, known, to, fields.jobsUsed, fields.dataGb);
}

async function planNow() {
  const list = await listToPlan();
  if (!list) {
    result.hidden = true;
    return;
  }
  const ids = list.list.approvedServiceIds;
  try {
    catalogue = await exitCatalogue();
  } catch {
    status.textContent = "The catalogue could not be loaded; reload the page to plan.";
    return;
  }
  const known = ids.filter((id) => catalogue!.bySlug.has(id));
  try {
    plan = planOf(catalogue, list, targetOfForm());
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    result.hidden = true;
    status.textContent = `${error.message}: ${error.details ?? ""}`;
    return;
  }
  addressOfTarget(targetOfForm());
  stale(false);
  picks.clear();
  kept.clear();
  status.textContent = `Planned ${plural(known.length, "service")} of ${list.from}${known.length < ids.length ? ` (${ids.length - known.length} no longer in the catalogue left out)` : ""}.`;
  show(plan, catalogue);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void planNow();
});

/** A plan shown for criteria changed since: marked, and said, until Plan is pressed. */
const staleNote = document.querySelector<HTMLElement>("[data-exit-stale]")!;
function stale(changed: boolean) {
  result.classList.toggle("stale", changed);
  staleNote.hidden = !changed;
}
form.addEventListener("change", () => {
  if (plan) stale(true);
});

const confirmBox = document.querySelector<HTMLElement>("[data-exit-confirm]")!;
const adopt = (ids: string[]) => {
  writeList(ids);
  location.href = href("list-builder");
};
const proposed = () => (plan && catalogue ? picked(plan, catalogue).targetList.approvedServiceIds : undefined);
document.querySelector("[data-exit-adopt]")!.addEventListener("click", () => {
  const ids = proposed();
  if (!ids) return;
  if (ids.length === 0) return void (status.textContent = "The proposed list is empty: nothing to adopt.");
  const mine = readList();
  // Never silently: a list with services in it is replaced only when the visitor says so.
  if (mine.length === 0 || (mine.length === ids.length && mine.every((id, i) => id === ids[i]))) return adopt(ids);
  confirmBox.querySelector("[data-exit-confirm-text]")!.textContent =
    `Your list has ${plural(mine.length, "service")}. Replace it with the proposed ${plural(ids.length, "service")}?`;
  confirmBox.hidden = false;
  confirmBox.querySelector<HTMLElement>("[data-exit-confirm-text]")!.focus();
});
confirmBox.querySelector("[data-exit-replace]")!.addEventListener("click", () => {
  const ids = proposed();
  if (ids && ids.length > 0) adopt(ids);
});
confirmBox.querySelector("[data-exit-cancel]")!.addEventListener("click", () => {
  confirmBox.hidden = true;
});

document.querySelectorAll<HTMLButtonElement>("[data-exit-download]").forEach((button) =>
  button.addEventListener("click", () => {
    if (!plan || !catalogue) return;
    const current = picked(plan, catalogue);
    if (button.dataset.exitDownload === "csv") saveFile("exit-plan.csv", exitPlanCsv(current), "text/csv");
    // Absolute links (the host this page is served from): the document is pasted into tickets.
    else
      saveFile(
        "exit-plan.md",
        renderMarkdown(exitPlanDoc(catalogue, current, { base: location.origin })),
        "text/markdown",
      );
    status.textContent = "Downloaded.";
  }),
);

formOfAddress();
void planNow();
