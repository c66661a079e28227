/**
 * Debian's chromium through playwright-core, launched the same way by every browser suite.
 *
 * Chromium 156 loads the omnibox popup's WebUI (two "browser_ui" pages,
 * chrome://omnibox-popup.top-chrome) in every window, headless too, and Playwright opens a window
 * per context: that was about 40 % of a browser suite's CPU (browser-accessibility alone,
 * system-wide: 136–142 CPU-s, 81 without them). They are turned off here. A second
 * --disable-features replaces Playwright's own list rather than adding to it, so the list passed is
 * Playwright's, read from playwright-core, with ours added.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser } from "playwright-core";

/** Browser UI a test never shows: the omnibox popup's WebUI. */
const UNUSED_BROWSER_UI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/** Playwright's own --disable-features (its chromiumSwitches.ts), which ours must keep. */
function playwrightDisabledFeatures(): string[] {
  const bundle = readFileSync(createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle"), "utf8");
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  if (!list)
    throw new Error("playwright-core's --disable-features list was not found: update tests/helpers/chromium.ts");
  return [...list.matchAll(/"(\w+)"/g)].map((match) => match[1]!);
}

/**
 * How long one browser step (a navigation, a wait for a selector or a load state) may take. Playwright's
 * default, 30 s, was all a throttled phone page rendered on demand had on a machine half as fast as
 * CI (issue 116: the layout-shift suite timed out at /equivalents/?providers=…): every time bound in
 * a test holds on such a machine.
 */
export const BROWSER_STEP_MS = 120_000;

export async function launchChromium(
  executablePath: string,
  options: { disableFeatures?: string[] } = {},
): Promise<Browser> {
  const features = [...playwrightDisabledFeatures(), ...UNUSED_BROWSER_UI, ...(options.disableFeatures ?? [])];
  const browser = await chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--disable-features=${features.join(",")}`,
    ],
  });
  // Every context a suite opens gets the step bound (contexts, not pages: a page inherits its context's).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(BROWSER_STEP_MS);
    context.setDefaultNavigationTimeout(BROWSER_STEP_MS);
    return context;
  };
  return browser;
}
