/**
 * The site's last seams (issue 90), in Debian's chromium through playwright-core: no control that
 * does nothing without JavaScript on any page type of the page table, the service picker by
 * keyboard (ARIA combobox), the table first on a phone, the matrix holding only the chosen
 * columns, a saved list's absolute address with its copy button, and what axe and screen readers
 * need on the saved list's exit plan and the matrix's empty cells. The set-up is shared
 * (browser-harness.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { PAGES } from "../../catalogue/outputs/pages.ts";
import { APPROVED_LIST_KEY } from "../../catalogue/render/theme.ts";
import { executablePath, useSiteBrowser, WIDTHS, stack, browser, open } from "./browser-harness.ts";

/** A page of each row of the page table, with the query that makes it what it is. */
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
  search: ["/search/", "/search/?q=object%20storage", "/search/?q=storage&page=2"],
  equivalents: ["/equivalents/", "/equivalents/?providers=aws,ovhcloud,scaleway&category=storage"],
  "equivalence-group": ["/equivalents/virtual-machines"],
  // The form's page; its refusal (POST) renders the same component, posted below.
  feedback: ["/feedback/"],
  exposure: ["/exposure/", "/exposure/?ids=aws-s3,gcp-cloud-storage"],
  "list-builder": ["/list/", "/list/?ids=aws-s3,aws-lambda"],
  // A file to download, not a page.
  "list-file": [],
  // Answers 303 to the saved list (below).
  "save-list": [],
  // A POST of a template: its form is the list builder's (above), its answer a document page.
  "deployment-check": [],
  "saved-list": ["/lists/axe-list"],
  "exit-plan": ["/lists/axe-list/exit-plan", "/lists/axe-list/exit-plan?providers=ovhcloud"],
  register: ["/lists/axe-list/register"],
  built: ["/no-such-page"],
};

/** Every visible button, input, select and textarea that neither a form with an action nor a link would carry. */
function deadControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, input:not([type=hidden]), select, textarea")]
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(control).visibility !== "hidden";
      })
      .filter((control) => {
        const form = (control as HTMLInputElement).form;
        return !(form?.hasAttribute("action") ?? false) && !control.closest("a[href]");
      })
      .map((control) => control.outerHTML.slice(0, 120)),
  );
}

const isPhone = WIDTHS[1];

describe.skipIf(!executablePath)("the site's last seams", () => {
  useSiteBrowser();

  it("names a page for every row of the page table", () => {
    expect(Object.keys(PAGE_OF_ROW).sort()).toEqual(PAGES.map((row) => row.id).sort());
  });

  for (const size of WIDTHS)
    it(
      `shows no control without JavaScript that does nothing, on every page type (${size.name})`,
      // Some thirty pages, each in a fresh context: minutes on a loaded machine.
      { timeout: 480_000 },
      async () => {
        const dead: string[] = [];
        for (const path of Object.values(PAGE_OF_ROW).flat()) {
          const page = await open(path, { javaScriptEnabled: false, size });
          // Collapsed sections hold controls too: open them all.
          await page.evaluate(() => document.querySelectorAll("details").forEach((details) => (details.open = true)));
          for (const control of await deadControls(page)) dead.push(`${path}: ${control}`);
          await page.context().close();
        }
        // The feedback form refused (its POST without JavaScript) renders the form again.
        const refused = await open("/feedback/", { javaScriptEnabled: false, size });
        await refused.locator("#fb-message").fill("       ");
        await Promise.all([
          refused.waitForResponse((response) => response.request().method() === "POST"),
          refused.locator("[data-feedback] button").click(),
        ]);
        await refused.waitForLoadState();
        for (const control of await deadControls(refused)) dead.push(`POST /feedback/: ${control}`);
        await refused.context().close();
        expect(dead).toEqual([]);
      },
    );

  it("hides the exit planner's criteria without JavaScript and says where a saved list's plan is", async () => {
    const page = await open("/list/exit/", { javaScriptEnabled: false });
    expect(await page.locator('[data-exit-form] input[type="checkbox"]').first().isVisible()).toBe(false);
    expect(await page.locator('main a[href="/list/"]').isVisible()).toBe(true);
    // The picker's box needs JavaScript: without it, the ids form is the only one.
    const compare = await open("/compare/", { javaScriptEnabled: false });
    expect(await compare.locator("#compare-input").isVisible()).toBe(false);
    expect(await compare.locator("#compare-ids").isVisible()).toBe(true);
    await page.context().close();
    await compare.context().close();
  });

  it("picks a service by keyboard: arrows move, Enter adds, Escape closes (ARIA combobox)", async () => {
    const page = await open("/compare/");
    const input = page.locator("#compare-input");
    expect(await input.getAttribute("role")).toBe("combobox");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    const listbox = page.locator(`#${await input.getAttribute("aria-controls")}`);
    expect(await listbox.getAttribute("role")).toBe("listbox");
    await input.focus();
    await page.keyboard.type("object storage");
    await listbox.locator('[role="option"]').nth(2).waitFor();
    expect(await input.getAttribute("aria-expanded")).toBe("true");
    const options = listbox.locator('[role="option"]');
    const active = () => input.getAttribute("aria-activedescendant");
    await page.keyboard.press("ArrowDown");
    expect(await active()).toBe(await options.nth(0).getAttribute("id"));
    await page.keyboard.press("ArrowDown");
    expect(await active()).toBe(await options.nth(1).getAttribute("id"));
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("false");
    await page.keyboard.press("ArrowUp");
    expect(await active()).toBe(await options.nth(0).getAttribute("id"));
    const first = await options.nth(0).getAttribute("data-slug");
    await page.keyboard.press("Enter");
    await page.locator(`[data-picker-selected] li[data-slug="${first}"]`).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("compare-input");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    expect(await input.inputValue()).toBe("");
    await page.keyboard.type("kubernetes");
    await options.first().waitFor();
    await page.keyboard.press("Escape");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    expect(await listbox.isVisible()).toBe(false);
    expect(await page.locator("[data-picker-selected] li").count()).toBe(1);
    expect(page.errors).toEqual([]);
    await page.context().close();
  });

  it("puts the table first on a phone: the header under 100 px, the matrix and the comparison in the first screen", async () => {
    for (const [path, table] of [
      ["/equivalents/", "table[data-matrix]"],
      ["/compare/aws-s3,gcp-cloud-storage", "[data-compare-result] table"],
    ] as const) {
      for (const javaScriptEnabled of [true, false]) {
        const page = await open(path, { size: isPhone, javaScriptEnabled });
        await page.waitForLoadState("networkidle");
        const header = await page.locator("header.site").evaluate((h) => h.getBoundingClientRect().height);
        const top = await page.locator(table).evaluate((t) => t.getBoundingClientRect().top);
        expect(header, `${path}: header`).toBeLessThanOrEqual(100);
        expect(top, `${path}: the table's top`).toBeLessThan(isPhone.height * 0.75);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path}: width`).toBeLessThanOrEqual(
          isPhone.width,
        );
        await page.context().close();
      }
    }
  });

  it("fetches the columns chosen into the matrix, which holds only those", async () => {
    const page = await open("/equivalents/");
    const heads = () =>
      page.locator("table[data-matrix] thead th").evaluateAll((cells) => cells.map((c) => c.textContent.trim()));
    expect(await heads()).toEqual(["Kind", "AWS", "Azure", "Google Cloud"]);
    await page.locator(".matrix-choice summary").click();
    await page.locator('input[name="providers"][value="azure"]').uncheck();
    await page.locator('table[data-matrix] th[data-provider="azure"]').waitFor({ state: "detached" });
    await page.locator('input[name="providers"][value="scaleway"]').check();
    await page.locator('table[data-matrix] th[data-provider="scaleway"]').waitFor();
    expect(await heads()).toEqual(["Kind", "AWS", "Google Cloud", "Scaleway"]);
    expect(await page.locator("[data-matrix-chosen]").innerText()).toBe("AWS, Google Cloud, Scaleway");
    expect(new URL(page.url()).searchParams.get("providers")).toBe("aws,gcp,scaleway");
    expect(page.errors).toEqual([]);
    await page.context().close();
  });

  it("sends only the chosen columns: a three-provider matrix is a fraction of every provider's", async () => {
    const html = async (query: string) =>
      (await fetch(`${stack.textUrl}/equivalents/${query}`, { headers: { accept: "text/html" } })).text();
    const three = await html("?providers=aws,ovhcloud,scaleway");
    // Every provider: the form offers them all.
    const providers = [...three.matchAll(/name="providers" value="([^"]+)"/g)].map((m) => m[1]!);
    expect(providers.length).toBeGreaterThan(30);
    const all = await html(`?providers=${providers.join(",")}`);
    // Every provider's columns were in the page whatever was shown: 835 KB. Three are under 200 KB.
    expect(Buffer.byteLength(three)).toBeLessThan(200_000);
    expect(Buffer.byteLength(three) * 3).toBeLessThan(Buffer.byteLength(all));
    expect([...three.matchAll(/<th scope="col" data-provider="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "aws",
      "ovhcloud",
      "scaleway",
    ]);
    expect(Buffer.byteLength(await html(""))).toBeLessThan(200_000);
  });

  it("labels the matrix's empty cells for screen readers", async () => {
    const page = await open("/equivalents/?providers=aws,ovhcloud,scaleway", { size: isPhone });
    const empty = page.locator("table[data-matrix] tbody tr:not([hidden]) td[data-empty]").first();
    expect(await empty.ariaSnapshot()).toMatch(/no equivalent/);
    expect(await empty.evaluate((cell) => (cell as HTMLElement).innerText.trim())).toMatch(/^—/);
    await page.context().close();
  });

  it("answers a saved list with its absolute address and a copy button, and the copy is that address", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.textUrl });
    await context.addInitScript(([key, ids]) => localStorage.setItem(key!, JSON.stringify(ids)), [
      APPROVED_LIST_KEY,
      ["aws-s3", "aws-lambda"],
    ] as const);
    const page = await context.newPage();
    await page.goto(`${stack.textUrl}/list/`);
    await page.locator("[data-save] button[type=submit]").click();
    const link = page.locator("[data-list-status] a");
    await link.waitFor();
    const address = await link.innerText();
    expect(address).toMatch(new RegExp(`^${stack.textUrl}/lists/[A-Za-z0-9_-]+$`));
    expect(await link.getAttribute("href")).toBe(address);
    await page.locator("[data-list-status] button[data-copy]").click();
    await expect.poll(() => page.locator("[data-list-status] button[data-copy]").innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await context.close();
    // Without JavaScript: the saved list's page shows the address as text, and no dead button.
    const saved = await open("/lists/axe-list", { javaScriptEnabled: false });
    expect(await saved.locator("[data-share-address]").innerText()).toBe(`${stack.textUrl}/lists/axe-list`);
    expect(await saved.locator("button[data-copy]").isVisible()).toBe(false);
    await saved.context().close();
  });

  it("names the saved list's exit plan's regions apart (axe landmark-unique, any impact)", async () => {
    const page = await open("/lists/axe-list/exit-plan", { bypassCSP: true });
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"));
    const violations = await page.evaluate(async () => {
      const checker = (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe;
      return (await checker.run()).violations.map((violation) => violation.id);
    });
    expect(violations).toEqual([]);
    const names = await page
      .locator('main [role="region"]')
      .evaluateAll((regions) => regions.map((r) => r.getAttribute("aria-label")));
    expect(names.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    await page.context().close();
  });
});
