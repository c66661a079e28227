/** What the site suites' layout-shift checks share: every page type, and an observer of layout shifts and its reading. */
import type { Page } from "playwright-core";

/** Every page type the site and the text host serve a browser, the on-demand ones with their query; `savedList` is a saved list's slug. */
export const pageTypes = (savedList: string) => [
  "/",
  "/aws",
  "/aws/s3",
  "/category/storage",
  "/lifecycle/",
  "/compare/",
  "/compare/aws-s3,gcp-cloud-storage",
  "/equivalents/",
  "/equivalents/?providers=aws,ovhcloud,scaleway&category=storage",
  "/equivalents/virtual-machines",
  "/exposure/",
  "/exposure/?ids=aws-s3,gcp-cloud-storage",
  "/search/",
  "/search/?q=object%20storage",
  "/list/",
  "/list/exit/",
  `/lists/${savedList}`,
  `/lists/${savedList}/exit-plan`,
  "/feedback/",
  "/feedback/thanks/",
  "/no-such-page",
];

/**
 * An init script (it runs in the page, so it uses nothing from here): from the first paint on, sums
 * the layout shifts no input caused in `window.cls` and names what moved in `window.moved`.
 */
export function observeLayoutShifts(): void {
  const w = window as unknown as { cls: number; moved: string[] };
  w.cls = 0;
  w.moved = [];
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries() as unknown as {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null }[];
    }[]) {
      if (entry.hadRecentInput) continue;
      w.cls += entry.value;
      for (const { node } of entry.sources)
        w.moved.push(node instanceof Element ? node.outerHTML.slice(0, 80) : String(node?.nodeName));
    }
  }).observe({ type: "layout-shift", buffered: true });
}

/** What observeLayoutShifts has summed and named so far on `page`. */
export const layoutShiftOf = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { cls: number; moved: string[] };
    return { cls: w.cls, moved: w.moved };
  });

/**
 * Runs `check` on every item, `lanes` at a time: a layout-shift check mostly waits (for the network
 * to idle, for a throttled link), so pages in separate browser contexts load side by side.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, check: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) await check(items[next++]!);
    }),
  );
}

/** Pages checked at once by the layout-shift suites: three took a width's throttled check from 45 to 25 s (two cores). */
export const LAYOUT_SHIFT_LANES = 3;
