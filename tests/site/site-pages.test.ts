/**
 * The site's remaining seams, in Debian's chromium through playwright-core: one page per service
 * URL (/aws/aws-s3 is /aws/s3), the equivalence kind pages and a saved list's exit plan in the
 * site's layout (axe, phone width), no layout shift with a non-empty list in localStorage, a
 * header on one row at desktop widths, and the no-JavaScript journey: build a list, download the
 * policies, save it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type Download, type Page } from "playwright-core";
import { equivalenceMatrix } from "../../catalogue/equivalence/equivalents.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { azurePolicySetTerraform, gcpOrgPolicyTerraform, scpTerraform } from "../../catalogue/policies/terraform.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { approvedListDoc } from "../../catalogue/render/pages.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { requireComponent } from "../helpers/components.ts";
import { startStack, type Stack } from "../helpers/stack.ts";
import { inLanes, LAYOUT_SHIFT_LANES, layoutShiftOf, observeLayoutShifts, pageTypes } from "./layout-shift.ts";

const executablePath = requireComponent("chromium");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const LIST_KEY = "csc-approved-list";

describe.skipIf(!executablePath)("the site's pages, one per address, in a browser", () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startStack({ textPerMinute: 100_000 });
    await fetch(`${stack.apiUrl}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Seams list", slug: "seams-list", approvedServiceIds: ["aws-s3", "aws-ec2"] }),
    });
    browser = await launchChromium(executablePath!);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(
    path: string,
    options: { size?: { width: number; height: number }; javaScriptEnabled?: boolean; list?: string[] } = {},
  ): Promise<Page> {
    const { size = DESKTOP, javaScriptEnabled = true, list } = options;
    const context = await browser.newContext({ viewport: size, javaScriptEnabled, acceptDownloads: true });
    if (list)
      await context.addInitScript(([key, ids]) => localStorage.setItem(key as string, JSON.stringify(ids)), [
        LIST_KEY,
        list,
      ] as const);
    await context.addInitScript(observeLayoutShifts);
    const page = await context.newPage();
    await page.goto(`${stack.textUrl}${path}`);
    return page;
  }

  async function axe(page: Page) {
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const checker = (
        window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
      ).axe;
      return (await checker.run()).violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    return violations;
  }

  /** The layout shift since the first paint (observed from before any script), and what moved. */
  it("answers /aws/aws-s3 with the site page of /aws/s3, for every service; Markdown at both", async () => {
    const catalogue = loadCatalogue();
    const html = { accept: "text/html" };
    const wrong: string[] = [];
    for (const { service } of catalogue.bySlug.values()) {
      const short = `/${service.providerId}/${service.slug.slice(service.providerId.length + 1)}`;
      const long = `/${service.providerId}/${service.slug}`;
      const response = await fetch(`${stack.textUrl}${long}`, { headers: html, redirect: "manual" });
      if (response.status !== 301 || response.headers.get("location") !== short)
        wrong.push(`${long}: ${response.status} ${response.headers.get("location")}`);
    }
    expect(wrong).toEqual([]);
    const [followed, direct] = await Promise.all(
      ["/aws/aws-s3", "/aws/s3"].map((path) => fetch(`${stack.textUrl}${path}`, { headers: html })),
    );
    expect(followed!.url).toBe(`${stack.textUrl}/aws/s3`);
    const page = await direct!.text();
    expect(await followed!.text()).toBe(page);
    expect(page).toContain('<header class="site">');
    for (const path of ["/aws/aws-s3", "/aws/s3"]) {
      const markdown = await fetch(`${stack.textUrl}${path}`, { headers: { accept: "text/markdown" } });
      expect(markdown.status, path).toBe(200);
      expect(await markdown.text(), path).toMatch(/^# Amazon Simple Storage Service/m);
    }
  });

  it(
    "renders every kind-of-service page and a saved list's exit plan in the site's layout: h1, header, axe 0, 390 px",
    { timeout: 600_000 },
    async () => {
      const kinds = equivalenceMatrix(loadCatalogue()).data.map((row) => row.id);
      expect(kinds.length).toBeGreaterThan(150);
      const problems: string[] = [];
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      for (const path of [...kinds.map((kind) => `/equivalents/${kind}`), "/lists/seams-list/exit-plan"]) {
        const response = await page.goto(`${stack.textUrl}${path}`);
        if (response?.status() !== 200) problems.push(`${path}: ${response?.status()}`);
        const shape = await page.evaluate(() => ({
          h1: document.querySelectorAll("main h1").length,
          header: document.querySelectorAll("header.site nav a").length,
          pre: document.querySelectorAll("pre").length,
          width: document.documentElement.scrollWidth,
        }));
        if (shape.h1 !== 1 || shape.header < 5 || shape.pre > 0 || shape.width > PHONE.width)
          problems.push(`${path}: ${JSON.stringify(shape)}`);
        const violations = await axe(page);
        if (violations.length > 0) problems.push(`${path}: ${violations.join(", ")}`);
      }
      await context.close();
      expect(problems).toEqual([]);
      // The matrix links its kinds to these pages, and a kind page links its services.
      const kindPage = await open("/equivalents/virtual-machines", { size: DESKTOP });
      expect(await kindPage.locator("main a[href='/aws/ec2']").count()).toBeGreaterThan(0);
      expect(await axe(kindPage)).toEqual([]);
      await kindPage.context().close();
    },
  );

  for (const size of [DESKTOP, PHONE])
    it(
      `does not shift any page type with a non-empty list: CLS under 0.05 (${size.width} px)`,
      // Twice the bound it had, so it holds on a machine half as fast (issue 116).
      { timeout: 600_000 },
      async () => {
        const shifts: string[] = [];
        await inLanes(pageTypes("seams-list"), LAYOUT_SHIFT_LANES, async (path) => {
          const page = await open(path, {
            size,
            list: ["aws-s3", "aws-ec2", "gcp-cloud-storage", "azure-blob-storage"],
          });
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(300);
          const { cls, moved } = await layoutShiftOf(page);
          if (!(cls < 0.05)) shifts.push(`${path}: ${cls.toFixed(4)} (${moved.join(" | ")})`);
          await page.context().close();
        });
        expect(shifts.sort()).toEqual([]);
      },
    );

  it(
    "keeps the header on one row at every desktop width from 1180 to 1600 px, with a list",
    { timeout: 120_000 },
    async () => {
      const rows: string[] = [];
      // One page resized: the header's layout is CSS alone (no script reads the width).
      const page = await open("/", { size: { width: 1180, height: 800 }, list: ["aws-s3", "aws-ec2"] });
      await page.waitForLoadState("networkidle");
      for (let width = 1180; width <= 1600; width += 30) {
        await page.setViewportSize({ width, height: 800 });
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const boxes = await page.evaluate(() =>
          [...document.querySelectorAll("header.site .bar > *, header.site nav li")].map((element) => {
            const box = element.getBoundingClientRect();
            return { centre: Math.round(box.top + box.height / 2), width: Math.round(box.width) };
          }),
        );
        const centres = boxes.map((box) => box.centre);
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (Math.max(...centres) - Math.min(...centres) > 8 || pageWidth > width)
          rows.push(`${width} px (page ${pageWidth}): ${boxes.map((box) => `${box.centre}/${box.width}`).join(" ")}`);
      }
      await page.context().close();
      expect(rows).toEqual([]);
    },
  );

  describe("without JavaScript", () => {
    it("builds a list, downloads the policies and the Markdown, and saves it", { timeout: 120_000 }, async () => {
      // One service of each of the three clouds: each policy has something to allow.
      const ids = ["aws-s3", "azure-blob-storage", "gcp-cloud-storage"];
      const catalogue = loadCatalogue();
      const page = await open("/list/", { javaScriptEnabled: false });
      // Nothing to download yet: the buttons are disabled, and look it.
      const first = page.locator("[data-download-button]").first();
      expect(await first.isDisabled()).toBe(true);
      const look = await first.evaluate((button) => {
        const style = getComputedStyle(button);
        return { opacity: Number(style.opacity), cursor: style.cursor };
      });
      expect(look.opacity).toBeLessThan(1);
      expect(look.cursor).toBe("not-allowed");
      await page.fill("#list-ids", ids.join(","));
      await page.click('form[action="/list/"] button[type=submit]');
      await page.waitForURL(/\/list\/\?ids=/);
      expect(await page.locator("[data-picker-selected] li").count()).toBe(3);
      const files = {
        scp: JSON.stringify(scpPolicy(catalogue, ids).policy, null, 2),
        azure: JSON.stringify(azurePolicySet(catalogue, ids).policy, null, 2),
        gcp: JSON.stringify(gcpOrgPolicy(catalogue, ids).policy, null, 2),
        markdown: renderMarkdown(approvedListDoc(catalogue, ids)),
      };
      const terraform = {
        "aws-scp.tf": scpTerraform([scpPolicy(catalogue, ids).policy], { strategy: "deny-list" }),
        "azure-policy-set.tf": azurePolicySetTerraform(azurePolicySet(catalogue, ids).policy),
        "gcp-org-policy.tf": gcpOrgPolicyTerraform(gcpOrgPolicy(catalogue, ids).policy),
      };
      const buttons = [
        ...Object.entries(files).map(([section, expected]) => ({
          // The section's first file: the vendor's JSON, or the Markdown.
          button: page.locator(`[data-download="${section}"] [data-download-button]`).first(),
          expected,
        })),
        ...Object.entries(terraform).map(([file, expected]) => ({
          button: page.locator(`form[data-file="${file}"] [data-download-button]`),
          expected,
        })),
      ];
      for (const { button, expected } of buttons) {
        expect(await button.isEnabled()).toBe(true);
        const [file] = (await Promise.all([page.waitForEvent("download"), button.click()])) as [Download, void];
        expect(readFileSync(await file.path(), "utf8"), file.suggestedFilename()).toBe(expected);
      }
      await page.fill("#list-name", "Without scripts");
      await page.fill("#list-slug", "without-scripts");
      await page.click("[data-save] button[type=submit]");
      await page.waitForURL(`${stack.textUrl}/lists/without-scripts`);
      expect(await page.locator("h1").innerText()).toBe("Without scripts");
      const saved = (await (await fetch(`${stack.apiUrl}/v1/lists/without-scripts`)).json()) as {
        approvedServiceIds: string[];
      };
      expect(saved.approvedServiceIds).toEqual(ids);
      await page.context().close();
    });

    it(
      "shows no button that does nothing: use my list and Plan are absent, the scorecard renders from ?ids=",
      { timeout: 120_000 },
      async () => {
        const exposure = await open("/exposure/?ids=aws-s3,gcp-cloud-storage,nope", { javaScriptEnabled: false });
        expect(await exposure.locator("[data-use-list]").isVisible()).toBe(false);
        expect(await exposure.locator("[data-exposure-result]").isVisible()).toBe(true);
        expect(await exposure.locator('[data-figure="services"]').innerText()).toBe("2");
        expect(await exposure.locator("[data-exposure-rows] tbody tr").count()).toBe(2);
        expect(await exposure.locator("[data-exposure-note]").innerText()).toContain("Not in the catalogue: nope.");
        await exposure.context().close();
        // Placed in places (1.12.0): a global service's vendor region, a provider-level one apart.
        const placed = await open("/exposure/?ids=aws-cloudfront,hetzner-cloud-servers&regions=EU", {
          javaScriptEnabled: false,
        });
        const where = await placed.locator("[data-exposure-places]").innerText();
        expect(where).toContain("Placed in EU (group).");
        expect(where).toContain("In none of these places: Amazon CloudFront.");
        expect(where).toMatch(/Provider level, listed apart .*: Cloud Servers\./);
        expect(await placed.locator("[data-exposure-rows]").innerText()).toContain("global: us-east-1");
        await placed.context().close();
        const exit = await open("/list/exit/", { javaScriptEnabled: false });
        expect(await exit.locator("[data-exit-form] button[type=submit]").isVisible()).toBe(false);
        await exit.context().close();
        // With scripts, the scorecard drawn on the server is the one the script draws: nothing moves.
        const scripted = await open("/exposure/?ids=aws-s3,gcp-cloud-storage");
        await scripted.waitForLoadState("networkidle");
        expect(await scripted.locator('[data-figure="services"]').innerText()).toBe("2");
        expect((await layoutShiftOf(scripted)).cls).toBeLessThan(0.05);
        expect(await axe(scripted)).toEqual([]);
        await scripted.context().close();
      },
    );
  });

  it(
    "keeps the exit planner's criteria in the address, marks a stale plan and asks before replacing a list",
    { timeout: 120_000 },
    async () => {
      const mine = ["aws-s3", "aws-lambda"];
      const page = await open("/list/exit/?euResidentOnly=true&sovereignOption=false", { list: mine });
      await page.locator("[data-exit-result]:not([hidden])").waitFor();
      expect(await page.locator('input[name="euResidentOnly"]').isChecked()).toBe(true);
      expect(await page.locator('input[name="sovereignOption"]').isChecked()).toBe(false);
      expect(await page.locator("[data-exit-stale]").isVisible()).toBe(false);
      await page.locator('input[name="jurisdictions"][value="EU"]').check();
      expect(await page.locator("[data-exit-stale]").isVisible()).toBe(true);
      await page.locator("[data-exit-form] button[type=submit]").click();
      await expect.poll(() => page.url()).toMatch(/jurisdictions=EU/);
      expect(new URL(page.url()).searchParams.get("euResidentOnly")).toBe("true");
      expect(await page.locator("[data-exit-stale]").isVisible()).toBe(false);
      await page.locator("[data-exit-adopt]").click();
      expect(await page.locator("[data-exit-confirm]").isVisible()).toBe(true);
      await page.locator("[data-exit-cancel]").click();
      expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), LIST_KEY))!)).toEqual(mine);
      await page.context().close();
    },
  );
});
