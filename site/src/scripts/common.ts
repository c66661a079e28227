/**
 * Behaviour every page shares: the theme toggle, the approved-list count and "add to list"
 * buttons (the list lives in localStorage), "Copy" buttons beside an address, and outbound-click
 * reporting for documentation and pricing links. Everything degrades to plain links (and text to
 * select) without JavaScript.
 */
import type { components } from "../../../catalogue/generated/openapi-types.ts";
import { APPROVED_LIST_KEY, THEME_KEY } from "../../../catalogue/render/theme.ts";
import { api } from "./api.ts";

const LIST_KEY = APPROVED_LIST_KEY;
/** Fired on window when the list changed in another tab (the storage event), with the new list. */
export const LIST_CHANGED = "csc-list-changed";

export function readList(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(LIST_KEY) ?? "[]") as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The services the address names (?ids=a,b): a page that takes services reads them from there
 * first, so a shared link opens on its services whatever this browser's list holds.
 */
export function addressIds(search = location.search): string[] {
  const ids = (new URLSearchParams(search).get("ids") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return [...new Set(ids)];
}

/** The saved list the address names (?list=<slug or id>), if any. */
export const addressListId = (search = location.search): string | undefined =>
  new URLSearchParams(search).get("list")?.trim() || undefined;

/** Writes the page's services into its address (?ids=), in place: the address stays the page's list. */
export function writeAddressIds(ids: readonly string[]): void {
  const url = new URL(location.href);
  if (ids.length > 0) url.searchParams.set("ids", ids.join(","));
  else url.searchParams.delete("ids");
  url.searchParams.delete("list");
  history.replaceState(null, "", url);
}

export function writeList(ids: string[]): void {
  localStorage.setItem(LIST_KEY, JSON.stringify([...new Set(ids)]));
  updateCount();
}

function updateCount(): void {
  const count = readList().length;
  document
    .querySelectorAll("[data-list-count]")
    .forEach((element) => (element.textContent = count ? `(${count})` : ""));
  document.querySelectorAll<HTMLButtonElement>("[data-add-to-list]").forEach((button) => {
    const inList = readList().includes(button.dataset.addToList!);
    button.textContent = inList ? "✓ In my list (remove)" : "+ Add to my list";
    button.setAttribute("aria-pressed", String(inList));
  });
}

// The saved theme is applied before first paint by the inline script in Layout.astro (catalogue/render/theme.ts).
const root = document.documentElement;
const isDark = () =>
  root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
const themeToggle = document.querySelector<HTMLButtonElement>("[data-theme-toggle]");
if (themeToggle) {
  themeToggle.dataset.ready = "";
  themeToggle.setAttribute("aria-pressed", String(isDark()));
  themeToggle.addEventListener("click", () => {
    root.dataset.theme = isDark() ? "light" : "dark";
    localStorage.setItem(THEME_KEY, root.dataset.theme);
    themeToggle.setAttribute("aria-pressed", String(isDark()));
  });
}

// In place from the first paint (data-js-only), so wiring them moves nothing.
document.querySelectorAll<HTMLButtonElement>("[data-add-to-list]").forEach((button) => {
  button.addEventListener("click", () => {
    const id = button.dataset.addToList!;
    const list = readList();
    writeList(list.includes(id) ? list.filter((other) => other !== id) : [...list, id]);
  });
});
updateCount();

/**
 * Wires a "Copy" button (data-copy: the text to copy; data-copy-from: the id of the field whose
 * value or text it copies, such as a calendar feed's address); it says whether the copy was made.
 */
export function wireCopy(button: HTMLButtonElement): void {
  const label = button.textContent;
  button.addEventListener("click", () => {
    const done = (text: string) => {
      button.textContent = text;
      setTimeout(() => (button.textContent = label), 2000);
    };
    const from = button.dataset.copyFrom ? document.getElementById(button.dataset.copyFrom) : null;
    const text = from instanceof HTMLInputElement ? from.value : (from?.textContent ?? button.dataset.copy!);
    navigator.clipboard.writeText(text).then(
      () => done("Copied"),
      () => done("Not copied: select the address"),
    );
  });
}
document.querySelectorAll<HTMLButtonElement>("button[data-copy], button[data-copy-from]").forEach(wireCopy);

// Another tab changed the list: show it here too, so the next edit here does not drop that change.
window.addEventListener("storage", (event) => {
  if (event.key !== LIST_KEY && event.key !== null) return;
  updateCount();
  window.dispatchEvent(new CustomEvent(LIST_CHANGED, { detail: readList() }));
});

/** Saves text as a file. The object URL is revoked later: revoked at once, Chrome may drop the download. */
export function saveFile(name: string, body: string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

document.addEventListener("click", (event) => {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-outbound]");
  if (!link) return;
  const kind = link.dataset.outbound as NonNullable<components["schemas"]["OutboundClickBody"]["kind"]>;
  void api
    .POST("/v1/analytics/outbound", {
      keepalive: true,
      body: {
        url: link.href,
        ...(link.dataset.service ? { serviceId: link.dataset.service } : {}),
        kind,
        page: location.pathname,
      },
    })
    .catch(() => undefined);
});
