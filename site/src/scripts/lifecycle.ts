/**
 * The lifecycle page (pages/lifecycle.astro) in the browser: countdowns refreshed for today, and
 * over the no-JS cards the status, provider, kind and date-window filters (`within=90d` as on
 * GET /v1/lifecycle: dates from today to today + 90 days; the first group is then headed "Next n
 * days" when n is shorter), a sort (next date keeps the date groups;
 * provider, name or status list every card in one sorted list), their state in the URL
 * (?status=deprecated&within=90d&sort=provider, restored on load), the feed, calendar and JSON
 * links to the API's same filter and the CSV download of the cards shown, in their order.
 */
import { LIFECYCLE_WITHIN_MAX_DAYS } from "../../../catalogue/base/limits.ts";
import { relativeDays } from "../../../catalogue/render/relative.ts";
import { downloadCsv, formState, orderBy, restoreForm, saveUrlState, shownText } from "./view.ts";

const DAY = 86_400_000;
const today = Date.parse(new Date().toISOString().slice(0, 10));
const daysTo = (date: string) => Math.round((Date.parse(date) - today) / DAY);

// Countdowns were computed at build time; refresh them for today.
document.querySelectorAll<HTMLTimeElement>("time[data-countdown]").forEach((time) => {
  time.textContent = relativeDays(daysTo(time.dateTime));
});

const tools = document.querySelector<HTMLFormElement>("[data-lifecycle-tools]");
const sorted = document.querySelector<HTMLElement>("[data-lifecycle-sorted]");
const groups = [...document.querySelectorAll<HTMLElement>(".lifecycle-group")];
// In build order, which is next-date order; each card's home is its date group's list.
const cards = [...document.querySelectorAll<HTMLLIElement>("li.card[data-slug]")];
const home = new Map(cards.map((card) => [card, card.parentElement!]));
const STATE = ["status", "provider", "kind", "within", "sort"] as const;
/** The filters GET /v1/lifecycle, .atom and .ics take too (their links carry them). */
const API_FILTERS = ["status", "provider", "kind", "within"] as const;

/**
 * A window from a link ("90", "90d"), as the select's value; one the select does not offer (45d)
 * is added to it, so a shared link keeps its window. Undefined for none or a bad one.
 */
function windowOf(select: HTMLSelectElement, raw: string | null): string | undefined {
  const days = /^(\d{1,4})d?$/.exec(raw ?? "")?.[1];
  if (days === undefined || Number(days) > LIFECYCLE_WITHIN_MAX_DAYS) return undefined;
  const value = `${Number(days)}d`;
  if (![...select.options].some((option) => option.value === value))
    select.append(new Option(`Within ${Number(days)} days`, value));
  return value;
}

if (tools && sorted) {
  const params = new URLSearchParams(location.search);
  const linkedWindow = windowOf(tools.elements.namedItem("within") as HTMLSelectElement, params.get("within"));
  if (linkedWindow) params.set("within", linkedWindow);
  const links = [...document.querySelectorAll<HTMLAnchorElement>("a[data-lifecycle-json], a[data-lifecycle-feed]")];
  // The calendar's address to copy (components/CalendarSubscribe.astro) follows the filters too.
  const fields = [...document.querySelectorAll<HTMLElement>("code[data-lifecycle-feed]")];
  // Each group's title as built ("Next 90 days"), so a shorter window can rename the first.
  const titles = new Map(groups.map((group) => [group, group.querySelector("[data-group-title]")?.textContent ?? ""]));
  const sortSelect = tools.elements.namedItem("sort") as HTMLSelectElement;
  // The status select lists LIFECYCLE_STATUSES in their order (preview … retired): sort by that.
  const statusRank = [...(tools.elements.namedItem("status") as HTMLSelectElement).options].map((o) => o.value);
  const sortKeys: Record<string, (card: HTMLElement) => string | number> = {
    provider: (card) => card.dataset.providerName ?? "",
    name: (card) => card.dataset.name ?? "",
    status: (card) => statusRank.indexOf(card.dataset.status ?? ""),
  };

  const matches = (card: HTMLElement, status: string, provider: string, kind: string, within: string) => {
    const date = card.dataset.date;
    const days = within ? Number(within.replace(/d$/, "")) : undefined;
    return (
      (!status || card.dataset.status === status) &&
      (!provider || card.dataset.provider === provider) &&
      (!kind || card.dataset.kind === kind) &&
      (days === undefined || (date !== undefined && daysTo(date) >= 0 && daysTo(date) <= days))
    );
  };

  const apply = () => {
    const state = formState(tools, STATE);
    const { status, provider, kind, within, sort } = state;
    const key = sortKeys[sort];
    let shown = 0;
    for (const card of cards) {
      card.hidden = !matches(card, status, provider, kind, within);
      if (!card.hidden) shown++;
    }
    if (key) {
      // One list in the chosen order; ties keep the date order.
      sorted.querySelector("ul")!.append(...orderBy(cards, key));
      sorted.querySelector("[data-lifecycle-sorted-title]")!.textContent =
        `By ${sortSelect.selectedOptions[0]!.text.toLowerCase()} (${shown})`;
    } else for (const card of cards) home.get(card)!.append(card);
    sorted.hidden = !key;
    for (const group of groups) {
      const inGroup = group.querySelectorAll("li.card:not([hidden])").length;
      group.hidden = Boolean(key) || inGroup === 0;
      group.querySelector("[data-group-count]")!.textContent = String(inGroup);
      // The soon group holds the next 90 days; within a shorter window it holds that window.
      const title = group.querySelector("[data-group-title]");
      const days = within ? Number(within.replace(/d$/, "")) : undefined;
      if (title)
        title.textContent =
          group.dataset.group === "soon" &&
          days !== undefined &&
          /^Next \d+ days$/.test(titles.get(group)!) &&
          days < Number(/\d+/.exec(titles.get(group)!)![0])
            ? `Next ${days} day${days === 1 ? "" : "s"}`
            : titles.get(group)!;
    }
    tools.querySelector("[data-lifecycle-count]")!.textContent = shownText(shown, cards.length, "entries");
    const filtered = (address: string) => {
      const url = new URL(address);
      for (const name of API_FILTERS)
        if (state[name]) url.searchParams.set(name, state[name]);
        else url.searchParams.delete(name);
      return url.href;
    };
    for (const link of links) link.href = filtered(link.href);
    for (const field of fields) field.textContent = filtered(field.textContent);
  };

  /** The cards shown, in page order (a collapsed group's cards count: they are one click away). */
  const downloadShown = () => {
    const shown = [...document.querySelectorAll<HTMLElement>("li.card[data-slug]:not([hidden])")];
    const field = (card: HTMLElement, name: string) => card.dataset[name] ?? "";
    downloadCsv("lifecycle", [
      ["Id", "Service", "Provider", "Status", "Date", "GA target", "Successor", "Successor id", "Announcement"],
      ...shown.map((card) =>
        [
          "slug",
          "name",
          "providerName",
          "status",
          "date",
          "gaTarget",
          "successorName",
          "successor",
          "announcement",
        ].map((name) => field(card, name)),
      ),
    ]);
  };

  restoreForm(tools, STATE, params);
  tools.addEventListener("change", () => {
    apply();
    saveUrlState(formState(tools, STATE));
  });
  tools.addEventListener("submit", (event) => event.preventDefault());
  tools.querySelector("[data-lifecycle-csv]")!.addEventListener("click", downloadShown);
  tools.hidden = false;
  apply();
  // A link's values the page no longer offers (a provider gone from the list) drop out of the URL.
  saveUrlState(formState(tools, STATE));
}
