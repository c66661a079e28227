/** /compare/a,b,c: the picker, the shareable URL and the side-by-side table from GET /v1/compare. */
import { API_URL } from "./common.ts";
import { picker } from "./picker.ts";

const MAX = 8;
const result = document.querySelector<HTMLElement>("[data-compare-result]")!;
const note = document.querySelector<HTMLElement>("[data-compare-note]")!;
const fromPath = decodeURIComponent(location.pathname.replace(/^\/compare\/?/, "").replace(/\/$/, ""));
const requested = (fromPath || new URLSearchParams(location.search).get("ids") || "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
if (requested.length > MAX) {
  note.hidden = false;
  note.textContent = `Showing the first ${MAX} of ${requested.length} services; the site compares at most ${MAX}.`;
}

interface CompareResult {
  services: {
    slug: string;
    name: string;
    providerId: string;
    description?: string;
    lifecycle?: { status: string; sunsetDate?: string };
  }[];
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

async function show(slugs: string[]) {
  history.replaceState(null, "", slugs.length ? `/compare/${slugs.join(",")}` : "/compare/");
  if (slugs.length === 0) return result.replaceChildren();
  const response = await fetch(`${API_URL}/v1/compare?ids=${slugs.map(encodeURIComponent).join(",")}`);
  const body = await response.json();
  if (!response.ok) {
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = `${body.error}: ${body.details ?? ""}`;
    return result.replaceChildren(p);
  }
  const data = body as CompareResult;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.scope = "col";
  corner.textContent = "Attribute";
  head.append(corner);
  for (const service of data.services) {
    const th = document.createElement("th");
    th.scope = "col";
    const link = document.createElement("a");
    link.href = `/${service.providerId}/${service.slug.slice(service.providerId.length + 1)}`;
    link.textContent = service.name;
    th.append(link);
    head.append(th);
  }
  const body2 = table.createTBody();
  for (const attribute of data.attributes) {
    const row = body2.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = attribute.label + (attribute.shared ? " (same)" : "");
    row.append(th);
    for (const service of data.services) row.insertCell().textContent = cell(attribute.values[service.slug] ?? null);
  }
  result.replaceChildren(table);
}

const root = document.querySelector<HTMLElement>('[data-picker="compare"]')!;
picker(root, requested.slice(0, MAX), (slugs) => void show(slugs));
void show(requested.slice(0, MAX));
