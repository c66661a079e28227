/**
 * Service picker: searches the API as you type; selected slugs are kept in order and shown by
 * name, provider and lifecycle. Removing one moves focus to the next remove button (or the input).
 * The matches are an ARIA combobox's listbox (WAI-ARIA APG, "list autocomplete"): focus stays in
 * the box, the arrows move the active option (aria-activedescendant), Enter adds it, Escape closes.
 */
import { api } from "./api.ts";

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
  const chip = (text: string, onClick: () => void, slug: string) => {
    const item = document.createElement("li");
    item.dataset.slug = slug;
    item.append(text);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = "×";
    button.setAttribute("aria-label", `Remove ${text}`);
    button.addEventListener("click", onClick);
    item.append(button);
    return item;
  };
  const render = () => {
    selected.replaceChildren(
      ...slugs.map((slug, index) =>
        chip(
          describe(slug),
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
  const matches = combobox(input, options, (slug) => update([...slugs, slug]));
  searchAsYouType(input, matches.show, status);
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

/** The listbox under a combobox input: shows matches, moves through them by keyboard, picks one. */
function combobox(input: HTMLInputElement, list: HTMLElement, pick: (slug: string) => void) {
  let items: HTMLElement[] = [];
  let active = -1;
  const setActive = (index: number) => {
    active = index;
    items.forEach((item, i) => item.setAttribute("aria-selected", String(i === index)));
    if (index < 0) input.removeAttribute("aria-activedescendant");
    else {
      input.setAttribute("aria-activedescendant", items[index]!.id);
      items[index]!.scrollIntoView({ block: "nearest" });
    }
  };
  const open = (on: boolean) => {
    list.hidden = !on;
    input.setAttribute("aria-expanded", String(on));
    if (!on) setActive(-1);
  };
  const choose = (item: HTMLElement) => {
    pick(item.dataset.slug!);
    input.value = "";
    show([]);
    input.focus();
  };
  const show = (found: readonly { slug: string; text: string }[]) => {
    items = found.map(({ slug, text }, i) => {
      const item = document.createElement("li");
      item.id = `${list.id}-${i}`;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      item.dataset.slug = slug;
      item.textContent = text;
      // Pressed, the input keeps focus (the option is not focusable); released, the option is added.
      item.addEventListener("mousedown", (event) => event.preventDefault());
      item.addEventListener("click", () => choose(item));
      return item;
    });
    list.replaceChildren(...items);
    open(items.length > 0);
  };
  input.addEventListener("keydown", (event) => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step !== undefined && items.length > 0) {
      event.preventDefault();
      if (list.hidden) open(true);
      setActive((active + step + items.length) % items.length);
    } else if (event.key === "Enter" && !list.hidden && items.length > 0) {
      event.preventDefault();
      choose(items[Math.max(active, 0)]!);
    } else if (event.key === "Escape") {
      if (!list.hidden) open(false);
      else input.value = "";
    }
  });
  input.addEventListener("blur", () => open(false));
  return { show };
}

/**
 * Searches the API as `input` is typed (200 ms after the last key) and shows the matches. Only the
 * answer to the latest query is shown: an older one still on its way is cancelled, and one that
 * arrives anyway (answered before the abort) is dropped by its number.
 */
function searchAsYouType(
  input: HTMLInputElement,
  show: (found: readonly { slug: string; text: string }[]) => void,
  status: HTMLElement,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  let inFlight: AbortController | undefined;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    inFlight?.abort();
    const ask = ++asked;
    timer = setTimeout(async () => {
      const q = input.value.trim();
      if (!q) return show([]);
      const controller = (inFlight = new AbortController());
      const answer = await api
        .GET("/v1/services", { params: { query: { limit: 12, q } }, signal: controller.signal })
        .catch(() => undefined);
      // Dropped too once the box has lost focus: matches popping up then would cover the page.
      if (ask !== asked || !answer?.data || document.activeElement !== input) return;
      const { data } = answer.data;
      show(data.map((s) => ({ slug: s.slug, text: `${s.name} (${s.providerId})` })));
      status.textContent = `${data.length} matching services.`;
    }, 200);
  });
  // Escape cancels the search on its way too: its matches must not open after the box was closed.
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    clearTimeout(timer);
    inFlight?.abort();
    asked++;
  });
}
