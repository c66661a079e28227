/**
 * The site in Debian's chromium through playwright-core: search, compare, exposure, the list
 * builder with its shared URL, browsing with JavaScript off, and axe-core on the main pages.
 * Screenshots go to test-artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { requireComponent } from "../helpers/components.ts";
import { startStack, type Stack } from "../helpers/stack.ts";

const executablePath = requireComponent("chromium");
const ARTIFACTS = "test-artifacts/screenshots";
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe.skipIf(!executablePath)("the site in a browser", () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startStack({ textPerMinute: 100_000 });
    await fetch(`${stack.apiUrl}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Axe list",
        slug: "axe-list",
        approvedServiceIds: ["aws-s3", "azure-blob-storage"],
      }),
    });
    browser = await chromium.launch({
      executablePath: executablePath!,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(
    path: string,
    options: { javaScriptEnabled?: boolean; bypassCSP?: boolean; colorScheme?: "light" | "dark" } = {},
  ): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${stack.textUrl}${path}`);
    (page as Page & { errors: string[] }).errors = errors;
    return page;
  }

  async function axe(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
    await page.evaluate(axeSource);
    const results = await page.evaluate(async () => {
      const run = (
        window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
        }
      ).axe.run;
      return (await run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    return results.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  }

  it("keeps a service page's HTML, CSS and JS under 100 KB uncompressed (Pagefind aside)", async () => {
    const { readFileSync: read } = await import("node:fs");
    const { join } = await import("node:path");
    const client = join(stack.distDir, "site", "client");
    const html = read(join(client, "aws", "s3", "index.html"), "utf8");
    const assets = [...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
    // Scripts import shared chunks; count those too.
    const seen = new Set<string>();
    const queue = [...assets];
    while (queue.length > 0) {
      const asset = queue.pop()!;
      if (seen.has(asset)) continue;
      seen.add(asset);
      if (asset.endsWith(".js"))
        for (const m of read(join(client, asset), "utf8").matchAll(/from"\.\/([^"]+)"|import"\.\/([^"]+)"/g))
          queue.push(`/_astro/${m[1] ?? m[2]}`);
    }
    const total = Buffer.byteLength(html) + [...seen].reduce((sum, asset) => sum + read(join(client, asset)).length, 0);
    console.log(`site: /aws/s3 is ${(total / 1024).toFixed(1)} KiB of HTML, CSS and JS (${seen.size} assets)`);
    expect(total).toBeLessThan(100 * 1024);
  });

  it("finds Cloud Storage through search", async () => {
    const page = await open("/search/?q=cloud%20storage");
    await page.locator("[data-search-results] li").first().waitFor();
    const text = await page.locator("[data-search-results]").innerText();
    expect(text).toContain("Cloud Storage");
    expect(text).toMatch(/Google Cloud|GCP/);
    await page.screenshot({ path: `${ARTIFACTS}/search.png`, fullPage: true });
  });

  it("compares three services side by side from a shareable URL and through the picker", async () => {
    const page = await open("/compare/aws-s3,azure-blob-storage,gcp-cloud-storage");
    await page.locator("[data-compare-result] table").waitFor();
    expect(await page.locator("[data-compare-result] thead th").count()).toBe(4);
    expect(await page.locator("[data-compare-result]").innerText()).toContain("Head office");
    await page.locator("#compare-input").fill("kubernetes");
    await page.locator("[data-picker-options] button").first().click();
    await page.waitForFunction(() => document.querySelectorAll("[data-compare-result] thead th").length === 5);
    expect(page.url()).toMatch(/\/compare\/aws-s3,azure-blob-storage,gcp-cloud-storage,[a-z0-9-]+$/);
    await page.screenshot({ path: `${ARTIFACTS}/compare.png`, fullPage: true });
  });

  it("shows exposure figures and the disclaimer", async () => {
    const page = await open(
      "/exposure/?ids=aws-s3,azure-blob-storage,gcp-cloud-storage,ovhcloud-object-storage,scaleway-object-storage",
    );
    await page.locator("[data-exposure-result]:not([hidden])").waitFor();
    expect(await page.locator('[data-figure="services"]').innerText()).toBe("5");
    expect(await page.locator('[data-figure="us"]').innerText()).toMatch(/^\d+(\.\d)? %$/);
    expect(await page.locator("[data-disclaimer]").innerText()).toMatch(/not legal advice/);
    await page.screenshot({ path: `${ARTIFACTS}/exposure.png`, fullPage: true });
  });

  it("builds a list, saves it and opens the same services at its shared URL", async () => {
    const page = await open("/aws/s3");
    await page.locator("[data-add-to-list]").click();
    await page.goto(`${stack.textUrl}/gcp/cloud-storage`);
    await page.locator("[data-add-to-list]").click();
    await page.goto(`${stack.textUrl}/list/`);
    expect(await page.locator("[data-picker-selected] li").count()).toBe(2);
    await page.locator("#list-name").fill("Browser test list");
    await page.locator("[data-save] button").click();
    const link = page.locator("[data-list-status] a");
    await link.waitFor();
    const href = await link.getAttribute("href");
    expect(href).toBe("/lists/browser-test-list");
    await page.goto(`${stack.textUrl}${href}`);
    expect(await page.locator("h1").innerText()).toBe("Browser test list");
    const rows = await page.locator("tbody tr td:first-child").allInnerTexts();
    expect(rows).toEqual(["Amazon Simple Storage Service", "Cloud Storage"].filter((name) => rows.includes(name)));
    expect(rows).toHaveLength(2);
    await page.screenshot({ path: `${ARTIFACTS}/list.png`, fullPage: true });
  });

  it("browses with JavaScript off", async () => {
    const page = await open("/gcp/cloud-storage", { javaScriptEnabled: false });
    expect(await page.locator("h1").innerText()).toContain("Cloud Storage");
    expect(await page.locator("h2", { hasText: "Equivalents" }).count()).toBe(1);
    await page.locator("a", { hasText: "Google Cloud" }).first().click();
    expect(await page.locator("h1").innerText()).toBe("Google Cloud");
  });

  it("has no serious or critical accessibility violations in the dark theme", async () => {
    for (const path of ["/", "/gcp/cloud-storage", "/lifecycle/"]) {
      const page = await open(path, { bypassCSP: true, colorScheme: "dark" });
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 22, 27)");
      expect(await axe(page), path).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/dark${path.replaceAll("/", "_")}.png` });
    }
  });

  for (const path of [
    "/",
    "/gcp/cloud-storage",
    "/compare/aws-s3,gcp-cloud-storage",
    "/exposure/?ids=aws-s3,gcp-cloud-storage",
    "/list/",
    "/lists/axe-list",
    "/lifecycle/",
  ]) {
    it(`has no serious or critical accessibility violations on ${path}`, async () => {
      const page = await open(path, { bypassCSP: true });
      await page.waitForLoadState("networkidle");
      expect(await axe(page)).toEqual([]);
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
    });
  }
});
