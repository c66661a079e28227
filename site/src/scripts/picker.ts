/**
 * Service picker: searches the API as you type; selected slugs are kept in order and shown by
 * name, provider and lifecycle. Removing one moves focus to the next remove button (or the input).
 */
import { API_URL } from "./common.ts";

interface Found {
  slug: string;
  name: string;
  providerId: string;
}

export interface Picker {
  /** Replaces the selection and reports it (onChange). */
  set(slugs: string[]): void;
  /** Shows a selection that changed elsewhere (another tab) without reporting it back. */
  show(slugs: string[]): void;
  /** Redraws the selected chips (after names arrive). */
  refresh(): void;
}

export function picker(
  root: HTMLElement,
  initial: string[],
  onChange: (slugs: string[]) => void,
  describe: (slug: string) => string = (slug) => slug,
): Picker {
  const max = Number(root.dataset.max);
  const input = root.querySelector<HTMLInputElement>("input")!;
  const options = root.querySelector<HTMLElement>("[data-picker-options]")!;
  const selected = root.querySelector<HTMLElement>("[data-picker-selected]")!;
  const status = root.querySelector<HTMLElement>("[data-picker-status]")!;
  // Chips the page rendered (ServicePicker's `selected`) stand until the first change replaces them.
  const rendered = [...selected.querySelectorAll<HTMLElement>("li[data-slug]")].map((item) => item.dataset.slug!);
  let slugs = [...initial];
  const chip = (text: string, action: "add" | "remove", onClick: () => void, slug?: string) => {
    const item = document.createElement("li");
    if (slug) item.dataset.slug = slug;
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
      ...slugs.map((slug, index) =>
        chip(
          describe(slug),
          "remove",
          () => {
            update(slugs.filter((s) => s !== slug));
            // Keep focus in place: the chip that took this one's place, else the one before, else the input.
            const buttons = selected.querySelectorAll<HTMLButtonElement>("button");
            (buttons[Math.min(index, buttons.length - 1)] ?? input).focus();
          },
          slug,
        ),
      ),
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
      if (!response.ok) return;
      const { data } = (await response.json()) as { data: Found[] };
      options.replaceChildren(
        ...data.map((s) => chip(`${s.name} (${s.providerId})`, "add", () => update([...slugs, s.slug]))),
      );
      status.textContent = `${data.length} matching services.`;
    }, 200);
  });
  // The page's own chips and count are what render() would draw (names come with the catalogue).
  if (rendered.length === 0 || initial.length > 0) render();
  else slugs = rendered;
  return {
    set: (next) => update(next),
    show: (next) => {
      slugs = [...new Set(next)].slice(0, max);
      render();
    },
    refresh: render,
  };
}
