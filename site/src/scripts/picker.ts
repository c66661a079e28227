/** Service picker: searches the API as you type; selected slugs are kept in order. */
import { API_URL } from "./common.ts";

interface Found {
  slug: string;
  name: string;
  providerId: string;
}

export function picker(
  root: HTMLElement,
  initial: string[],
  onChange: (slugs: string[]) => void,
): { set(slugs: string[]): void } {
  const max = Number(root.dataset.max);
  const input = root.querySelector<HTMLInputElement>("input")!;
  const options = root.querySelector<HTMLElement>("[data-picker-options]")!;
  const selected = root.querySelector<HTMLElement>("[data-picker-selected]")!;
  const status = root.querySelector<HTMLElement>("[data-picker-status]")!;
  let slugs = [...initial];
  const chip = (text: string, action: string, onClick: () => void) => {
    const item = document.createElement("li");
    item.append(text);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = action === "add" ? "+" : "×";
    button.setAttribute("aria-label", `${action === "add" ? "Add" : "Remove"} ${text}`);
    button.addEventListener("click", onClick);
    item.append(button);
    return item;
  };
  const render = () => {
    selected.replaceChildren(
      ...slugs.map((slug) => chip(slug, "remove", () => update(slugs.filter((s) => s !== slug)))),
    );
    status.textContent = `${slugs.length} of ${max} selected.`;
  };
  const update = (next: string[]) => {
    slugs = [...new Set(next)].slice(0, max);
    render();
    onChange(slugs);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = input.value.trim();
      if (!q) return options.replaceChildren();
      const response = await fetch(`${API_URL}/v1/services?limit=12&q=${encodeURIComponent(q)}`);
      const { data } = (await response.json()) as { data: Found[] };
      options.replaceChildren(
        ...data.map((s) => chip(`${s.name} (${s.providerId})`, "add", () => update([...slugs, s.slug]))),
      );
      status.textContent = `${data.length} matching services.`;
    }, 200);
  });
  render();
  return { set: (next) => update(next) };
}
