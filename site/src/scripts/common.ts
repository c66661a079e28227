/**
 * Behaviour every page shares: the theme toggle, the approved-list count and "add to list"
 * buttons (the list lives in localStorage), and outbound-click reporting for documentation and
 * pricing links. Everything degrades to plain links without JavaScript.
 */
/** The API, same-origin: the text host answers /v1/* (sidecar/text.ts; nginx routes it likewise). */
export const API_URL = "";
const LIST_KEY = "csc-approved-list";

export function readList(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(LIST_KEY) ?? "[]") as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
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

const root = document.documentElement;
const savedTheme = localStorage.getItem("csc-theme");
if (savedTheme === "dark" || savedTheme === "light") root.dataset.theme = savedTheme;
document.querySelector("[data-theme-toggle]")?.addEventListener("click", () => {
  const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  root.dataset.theme = dark ? "light" : "dark";
  localStorage.setItem("csc-theme", root.dataset.theme);
});

document.querySelectorAll<HTMLButtonElement>("[data-add-to-list]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => {
    const id = button.dataset.addToList!;
    const list = readList();
    writeList(list.includes(id) ? list.filter((other) => other !== id) : [...list, id]);
  });
});
updateCount();

document.addEventListener("click", (event) => {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-outbound]");
  if (!link) return;
  void fetch(`${API_URL}/v1/analytics/outbound`, {
    method: "POST",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      url: link.href,
      serviceId: link.dataset.service,
      kind: link.dataset.outbound,
      page: location.pathname,
    }),
  }).catch(() => undefined);
});
