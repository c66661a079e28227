/**
 * Issue 116, in Debian's chromium through playwright-core at 1280 and 390 px: no visible control is
 * dead with JavaScript on any page type. Every visible enabled button, pressed, does something (the
 * page changes, its address changes, it navigates, a file downloads, or the browser says why a
 * form is not sent); every visible field outside a form with a submit button, changed, does
 * something; every disabled control says why (aria-describedby, visible). Before: "More results"
 * showed and did nothing, an empty /compare/ showed its table tools, and /list/?ids=… left the seven
 * downloads disabled and the deployment check "empty" (the script read only the browser's list).
 * Then the list builder from the address, end to end. The set-up is shared (browser-harness.ts).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { PAGES } from "../../catalogue/outputs/pages.ts";
import { APPROVED_LIST_KEY } from "../../catalogue/render/theme.ts";
import { download, executablePath, open, stack, useSiteBrowser } from "./browser-harness.ts";
import { inLanes, LAYOUT_SHIFT_LANES } from "./layout-shift.ts";

/** A page of each row of the page table with JavaScript, as a visitor meets it. */
const PAGE_OF_ROW: Record<(typeof PAGES)[number]["id"], readonly string[]> = {
  home: ["/"],
  lifecycle: ["/lifecycle/"],
  category: ["/category/storage"],
  provider: ["/aws"],
  service: ["/aws/s3"],
  "exit-planner": ["/list/exit/", "/list/exit/?list=axe-list"],
  "feedback-sent": ["/feedback/thanks/"],
  "compare-ids": ["/compare/aws-s3,gcp-cloud-storage"],
  compare: ["/compare/", "/compare/?ids=aws-s3,azure-blob-storage"],
  search: ["/search/", "/search/?q=object%20storage", "/search/?q=dynamodb"],
  equivalents: ["/equivalents/", "/equivalents/?providers=aws,ovhcloud,scaleway&category=storage"],
  "equivalence-group": ["/equivalents/virtual-machines"],
  feedback: ["/feedback/"],
  exposure: ["/exposure/", "/exposure/?ids=aws-s3,gcp-cloud-storage", "/exposure/?list=axe-list"],
  "list-builder": ["/list/", "/list/?ids=aws-s3,azure-blob-storage,gcp-cloud-storage", "/list/?list=axe-list"],
  // A file, a form's target or a POST: reached from the pages above.
  "list-file": [],
  "save-list": [],
  "deployment-check": [],
  "saved-list": ["/lists/axe-list"],
  "exit-plan": ["/lists/axe-list/exit-plan"],
  register: ["/lists/axe-list/register?allowedLocations=EU"],
  built: ["/no-such-page"],
};
const PATHS = Object.values(PAGE_OF_ROW).flat();
const SIZES = [
  { name: "1280 px", width: 1280, height: 900 },
  { name: "390 px", width: 390, height: 844 },
] as const;

/** What a control is, as the check reads it; `probe` finds it again in the page. */
interface Control {
  readonly probe: number;
  readonly html: string;
  /** A button is pressed; a field changed; a field of a form with a submit button acts through that button. */
  readonly kind: "button" | "field" | "submitted";
  readonly disabled: boolean;
  /** A disabled control's reason: the visible text of what aria-describedby names, or its title. */
  readonly why: string;
}

/** Marks every visible control (data-probe, in document order) and describes it. */
function visibleControls(page: Page): Promise<Control[]> {
  return page.evaluate(() => {
    const visible = (element: HTMLElement) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
    };
    // The header's search and theme toggle are the layout's, the same on every page: checked on the home page.
    const layout = location.pathname === "/" ? "" : "header.site ";
    const controls = [
      ...document.querySelectorAll<HTMLElement>("button, input:not([type=hidden]), select, textarea"),
    ].filter((control) => visible(control) && !(layout && control.closest(layout.trim())));
    return controls.map((control, probe) => {
      control.dataset.probe = String(probe);
      const described = (control.getAttribute("aria-describedby") ?? "")
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter((element): element is HTMLElement => element !== null && visible(element));
      const disabled = (control as HTMLButtonElement).disabled || control.getAttribute("aria-disabled") === "true";
      const form = (control as HTMLInputElement).form;
      const submits = form
        ? [...form.elements].some(
            (element) =>
              element instanceof HTMLButtonElement &&
              element.type === "submit" &&
              visible(element) &&
              !element.disabled,
          )
        : false;
      return {
        probe,
        html: control.outerHTML.slice(0, 140),
        // A field of a form with a submit button acts through it (the button is checked itself).
        kind: control instanceof HTMLButtonElement ? "button" : submits ? "submitted" : "field",
        disabled,
        why: [described.map((element) => element.textContent?.trim() ?? "").join(" "), control.title].join(" ").trim(),
      } as Control;
    });
  });
}

/** Counts what happens in the page from now on: DOM changes, address changes. */
function watch(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { changes: number; startHref: string };
    w.changes = 0;
    w.startHref = location.href;
    new MutationObserver((records) => (w.changes += records.length)).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

/** Whether pressing (or changing) the control did something within a few seconds; why not, when it could not be used. */
async function responds(page: Page, control: Control): Promise<boolean | string> {
  const target = page.locator(`[data-probe="${control.probe}"]`);
  if ((await target.count()) === 0 || !(await target.isVisible())) return true;
  // Disabled since (an earlier control changed the page: a chip removed leaves no AWS service for
  // the SCP): then it must say why, as a control disabled from the start must.
  const disabledWhy = await target.evaluate((element) => {
    if (!(element as HTMLButtonElement).disabled) return undefined;
    const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    return [...ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? ""), (element as HTMLElement).title]
      .join(" ")
      .trim();
  });
  if (disabledWhy !== undefined) return disabledWhy ? true : "disabled since, without a reason";
  // A form the browser will not send says why itself (its validation bubble).
  const invalid = await target.evaluate((element) => {
    const form = (element as HTMLButtonElement).form;
    return element instanceof HTMLButtonElement && element.type === "submit" && form !== null && !form.checkValidity();
  });
  if (invalid) return true;
  await watch(page);
  const startUrl = page.url();
  const navigated = page.waitForEvent("framenavigated", { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  const downloaded = page.waitForEvent("download", { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  const changed = page
    .waitForFunction(
      () => {
        const w = window as unknown as { changes: number; startHref: string };
        return w.changes > 0 || location.href !== w.startHref;
      },
      undefined,
      { timeout: 10_000 },
    )
    .then(
      () => true,
      () => false,
    );
  // A control that cannot be pressed (something lies over it) is reported, fast, rather than waited for.
  const PRESS = { noWaitAfter: true, timeout: 10_000 } as const;
  try {
    if (control.kind === "button") await target.click(PRESS);
    else {
      const tag = await target.evaluate((element) => `${element.tagName}:${(element as HTMLInputElement).type}`);
      if (tag.startsWith("SELECT")) {
        const values = await target.evaluate((element) =>
          [...(element as HTMLSelectElement).options].map((option) => option.value),
        );
        const current = await target.inputValue();
        await target.selectOption(values.find((value) => value !== current) ?? values[0]!);
      } else if (/checkbox|radio/.test(tag)) await target.click(PRESS);
      else {
        // A field asking where data sits takes a place; any other, a word to search for.
        const label = await target.evaluate((element) =>
          [...((element as HTMLInputElement).labels ?? [])].map((label) => label.textContent ?? "").join(" "),
        );
        await target.fill(/where the data sits|regions|countries/i.test(label) ? "EU" : "s3", { timeout: 10_000 });
        // Then left, as a user leaves it: a field that acts on its change (exposure's places) acts now.
        await target.dispatchEvent("change");
      }
    }
  } catch (error) {
    const why = (error as Error).message.split("\n");
    return `could not be used: ${why[0]} ${why.find((line) => /intercepts|not enabled|not visible|not stable/.test(line)) ?? ""}`;
  }
  // The first sign that something happened, or none within ten seconds (the search index, a page rendered on demand: seconds on a loaded machine).
  const happened = await new Promise<boolean>((resolve) => {
    let waiting = 3;
    for (const sign of [navigated, downloaded, changed])
      void sign.then((seen) => (seen ? resolve(true) : --waiting === 0 && resolve(false)));
  });
  // What a field opened (the picker's matches) closes again, so it covers no later control.
  if (control.kind !== "button" && !page.isClosed()) await target.press("Escape").catch(() => undefined);
  return happened || page.url() !== startUrl;
}

/** The controls of `path` that are dead, and the disabled ones that do not say why. */
async function deadControlsOf(path: string, size: (typeof SIZES)[number]): Promise<string[]> {
  const problems: string[] = [];
  let page = await open(path, { size });
  await page.waitForLoadState("networkidle");
  const controls = await visibleControls(page);
  for (const control of controls) {
    if (control.disabled) {
      if (!control.why) problems.push(`${path} (${size.name}): disabled without a reason: ${control.html}`);
      continue;
    }
    if (control.kind === "submitted") continue;
    const answer = await responds(page, control);
    if (answer !== true)
      problems.push(`${path} (${size.name}): ${answer === false ? "does nothing" : answer}: ${control.html}`);
    // Navigated away (a form sent, a link followed): back to a fresh copy of the page for the next one.
    if (new URL(page.url()).pathname !== new URL(`${stack.textUrl}${path}`).pathname) {
      await page.context().close();
      page = await open(path, { size });
      await page.waitForLoadState("networkidle");
      await visibleControls(page);
    }
  }
  // The missing page's own 404 is its answer, not an error of the page.
  const errors = page.errors.filter((error) => !(path === "/no-such-page" && error.includes("status of 404")));
  if (errors.length > 0) problems.push(`${path} (${size.name}): errors: ${errors.join("; ")}`);
  await page.context().close();
  return problems;
}

describe.skipIf(!executablePath)("the site's controls, with JavaScript", () => {
  useSiteBrowser();

  for (const size of SIZES)
    it(
      `every visible control does something and every disabled one says why (${size.name})`,
      { timeout: 900_000 },
      async () => {
        const problems: string[] = [];
        await inLanes(PATHS, LAYOUT_SHIFT_LANES, async (path) => {
          problems.push(...(await deadControlsOf(path, size)));
        });
        expect(problems.sort()).toEqual([]);
      },
    );

  it(
    "/list/?ids=… enables the seven downloads and the deployment check, and leaves this browser's list as it is",
    {
      timeout: 240_000,
    },
    async () => {
      const ids = ["aws-s3", "azure-blob-storage", "gcp-cloud-storage"];
      const mine = ["aws-lambda"];
      const page = await open(`/list/?ids=${ids.join(",")}`, {
        init: () => localStorage.setItem("csc-approved-list", JSON.stringify(["aws-lambda"])),
      });
      await page.locator(":root[data-list-drawn]").waitFor({ state: "attached" });
      const buttons = page.locator("[data-download-button]");
      expect(await buttons.count()).toBe(7);
      for (let i = 0; i < 7; i++) expect(await buttons.nth(i).isEnabled(), `download ${i}`).toBe(true);
      expect(await page.textContent("[data-list-source]")).toContain("come from the page's address");
      const markdown = await download(page, () => page.click('[data-file="approved-services.md"] button'));
      for (const name of ["Amazon Simple Storage Service", "Azure Blob Storage", "Cloud Storage"])
        expect(markdown).toContain(name);
      // The check reads the page's list, not the browser's.
      await page.fill("#check-template", "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n");
      await page.click("[data-check-form] button[type=submit]");
      await page.locator("[data-check-answer] h3").waitFor();
      expect(await page.textContent("[data-check-answer]")).toMatch(/aws, from aws-s3/);
      expect(await page.evaluate((key) => localStorage.getItem(key), APPROVED_LIST_KEY)).toBe(JSON.stringify(mine));
      // Removing a chip keeps the list in the address; "Make this my list" asks, then copies it.
      await page.click('[data-picker-selected] button[aria-label^="Remove Azure Blob Storage"]');
      await page.waitForFunction(() => location.search === "?ids=aws-s3%2Cgcp-cloud-storage");
      expect(await buttons.first().isEnabled()).toBe(true);
      await page.click("[data-adopt-address]");
      expect(await page.textContent("[data-list-status]")).toContain("press again");
      await page.click("[data-adopt-address]");
      expect(await page.evaluate((key) => localStorage.getItem(key), APPROVED_LIST_KEY)).toBe(
        JSON.stringify(["aws-s3", "gcp-cloud-storage"]),
      );
      expect(page.errors).toEqual([]);
      await page.context().close();
    },
  );

  it("/list/?list=<saved list> works on the saved list's services", { timeout: 120_000 }, async () => {
    const page = await open("/list/?list=axe-list");
    await page.locator(":root[data-list-drawn]").waitFor({ state: "attached" });
    expect(await page.locator("[data-picker-selected] li").count()).toBe(2);
    expect(await page.locator("[data-download-button]").first().isEnabled()).toBe(true);
    expect(await page.locator("input[name=ids][data-check-ids]").inputValue()).toBe("aws-s3,azure-blob-storage");
    await page.context().close();
  });

  it("the picker shows the latest query's matches, never an older answer that arrives late", async () => {
    const page = await open("/compare/");
    await page.waitForLoadState("networkidle");
    // The first query's answer is held back until after the second's.
    await page.route(/\/v1\/services\?.*q=lambda/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    const box = page.locator("#compare-input");
    await box.fill("lambda");
    await page.waitForTimeout(400);
    await box.fill("bigquery");
    await page.locator("#compare-options li").first().waitFor();
    await page.waitForTimeout(2000);
    const shown = await page.locator("#compare-options li").allTextContents();
    expect(shown.join(" ")).toMatch(/BigQuery/);
    expect(shown.join(" ")).not.toMatch(/Lambda/);
    // Escape closes the matches, and a search still on its way does not open them again.
    await box.fill("storage");
    await box.press("Escape");
    await page.waitForTimeout(1500);
    expect(await page.locator("#compare-options").isVisible()).toBe(false);
    await page.context().close();
  });

  it("hides what a script hid: 'More results' with nothing more, an empty comparison's tools", async () => {
    const search = await open("/search/?q=dynamodb");
    await search.waitForLoadState("networkidle");
    expect(await search.locator("[data-search-more]").isVisible()).toBe(false);
    await search.context().close();
    const compare = await open("/compare/");
    await compare.waitForLoadState("networkidle");
    expect(await compare.locator("[data-compare-tools]").isVisible()).toBe(false);
    await compare.context().close();
    // And still shows them when they do something.
    const broad = await open("/search/?q=storage");
    await broad.waitForLoadState("networkidle");
    expect(await broad.locator("[data-search-more]").isVisible()).toBe(true);
    await broad.context().close();
  });
});
