/**
 * The site in Debian's chromium through playwright-core, as a first-time user uses it, at desktop
 * and phone (390 px) widths: search (the one search over /search-index.json, filters, more results,
 * the ranking table, no reordering and layout shift under 0.1, Pagefind as a second tier), the
 * equivalence matrix (columns, category, URL state, CSV, without JavaScript),
 * the tables and the lifecycle cards (filter, sort, URL state, CSV equal to what is shown), the
 * list builder (downloads made in the browser, save, 429 wording, cross-tab sync, merge or
 * replace), compare (its options, URL state and CSV) and the error pages, and what works without
 * JavaScript; axe-core at 0 serious/critical and no console errors on every journey.
 * Screenshots go to test-artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Download, type Page } from "playwright-core";
import { exitPlan } from "../../catalogue/exit-plan.ts";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { loadCatalogue } from "../../catalogue/load.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { HELD_OUT_CASES, RANKING_CASES } from "../fixtures/ranking-queries.ts";
import { freePort, requireComponent } from "../helpers/components.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";
import { startStack, type Stack } from "../helpers/stack.ts";

const executablePath = requireComponent("chromium");
const ARTIFACTS = "test-artifacts/screenshots";
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WIDTHS = [
  { name: "desktop", width: 1200, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Width = (typeof WIDTHS)[number];

type TestPage = Page & { errors: string[] };

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

  /** A page in a fresh context; uncaught errors and console errors are collected in `errors`. */
  async function open(
    path: string,
    options: {
      javaScriptEnabled?: boolean;
      bypassCSP?: boolean;
      colorScheme?: "light" | "dark";
      size?: Width;
      base?: string;
      init?: () => void;
    } = {},
  ): Promise<TestPage> {
    const { size = WIDTHS[0], base = stack.textUrl, init, ...contextOptions } = options;
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      acceptDownloads: true,
      ...contextOptions,
    });
    if (init) await context.addInitScript(init);
    const page = (await context.newPage()) as TestPage;
    page.errors = [];
    page.on("pageerror", (error) => page.errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") page.errors.push(message.text());
    });
    await page.goto(`${base}${path}`);
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

  /** Axe, no console errors, no page wider than the viewport. */
  async function expectClean(page: TestPage, size: Width, label: string) {
    await page.waitForLoadState("networkidle");
    expect(await axe(page), label).toEqual([]);
    expect(page.errors, label).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label}: page width`).toBeLessThanOrEqual(
      size.width,
    );
  }

  async function download(page: Page, click: () => Promise<void>): Promise<string> {
    const [file] = (await Promise.all([page.waitForEvent("download"), click()])) as [Download, void];
    return readFileSync((await file.path())!, "utf8");
  }

  const slugOf = (href: string) => href.replace(/^\/|\/$/g, "").replace("/", "-");

  /** RFC 4180 as the site writes it (every field quoted, CRLF): the rows, header first. */
  function parseCsv(text: string): string[][] {
    expect(text.endsWith("\r\n")).toBe(true);
    return text
      .slice(0, -2)
      .split("\r\n")
      .map((line) => {
        const fields = [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1]!.replaceAll('""', '"'));
        expect(fields.map((f) => `"${f.replaceAll('"', '""')}"`).join(","), "a well-formed CSV line").toBe(line);
        return fields;
      });
  }

  /** The same order as the site's (scripts/view.ts): English text order, ties kept in place. */
  const ordered = <T>(items: readonly T[], key: (item: T) => string) =>
    [...items].sort((a, b) => key(a).localeCompare(key(b), "en", { numeric: true }));

  it("keeps page weights small: a service page's HTML, CSS and JS under 100 KB uncompressed (Pagefind aside)", async () => {
    const client = join(stack.distDir, "site", "client");
    const weigh = (path: string) => {
      const html = readFileSync(join(client, path, "index.html"), "utf8");
      const assets = [...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
      // Scripts import shared chunks; count those too.
      const seen = new Set<string>();
      const queue = [...assets];
      while (queue.length > 0) {
        const asset = queue.pop()!;
        if (seen.has(asset)) continue;
        seen.add(asset);
        if (asset.endsWith(".js"))
          for (const m of readFileSync(join(client, asset), "utf8").matchAll(/from"\.\/([^"]+)"|import"\.\/([^"]+)"/g))
            queue.push(`/_astro/${m[1] ?? m[2]}`);
      }
      return {
        total: Buffer.byteLength(html) + [...seen].reduce((sum, a) => sum + readFileSync(join(client, a)).length, 0),
        assets: seen.size,
      };
    };
    for (const path of ["aws/s3", "aws", "category/storage", "search", "list", "compare"]) {
      const { total, assets } = weigh(path);
      console.log(`site: /${path} is ${(total / 1024).toFixed(1)} KiB of HTML, CSS and JS (${assets} assets)`);
    }
    const catalogueFile = readFileSync(join(client, "list-catalogue.json"));
    const compressed = readFileSync(join(client, "list-catalogue.json.br"));
    console.log(
      `site: /list-catalogue.json is ${(catalogueFile.length / 1024).toFixed(1)} KiB (${(compressed.length / 1024).toFixed(1)} KiB brotli)`,
    );
    expect(weigh("aws/s3").total).toBeLessThan(100 * 1024);
  });

  describe("search", () => {
    it("meets the ranking table through the site's search page, in the API's order", { timeout: 240_000 }, async () => {
      // Typed into the page's form, so the browser's own search ranks (arriving with ?q=, the text
      // host's results stand).
      const page = await open("/search/");
      const failures: string[] = [];
      for (const { query, expect: expected, top } of [...RANKING_CASES, ...HELD_OUT_CASES]) {
        await page.evaluate(() => delete document.querySelector<HTMLElement>("[data-search-results]")!.dataset.source);
        await page.locator("#search-q").fill(query);
        await page.locator("#search-q").press("Enter");
        await page.locator('[data-search-results][data-source="index"]').waitFor({ state: "attached" });
        const slugs = (
          await page
            .locator("[data-search-results] li > a")
            .evaluateAll((links) => links.map((a) => a.getAttribute("href")!))
        ).map(slugOf);
        const api = (await (
          await fetch(`${stack.apiUrl}/v1/services?q=${encodeURIComponent(query)}&limit=20`)
        ).json()) as { data: { slug: string }[] };
        if (slugs.join(" ") !== api.data.map((s) => s.slug).join(" "))
          failures.push(`${query}: the site's order differs from the API's`);
        if (!RANKING_CASES.some((c) => c.query === query)) continue;
        const missing = expected.filter((slug) => !slug.split("|").some((one) => slugs.slice(0, top).includes(one)));
        if (missing.length > 0)
          failures.push(`${query}: ${missing.join(", ")} not in the top ${top} (${slugs.slice(0, 10).join(" ")})`);
      }
      expect(failures).toEqual([]);
      expect(page.errors).toEqual([]);
    });

    for (const size of WIDTHS)
      it(`keeps the results in place: no reordering, layout shift under 0.1 (${size.name})`, async () => {
        const page = await open("/search/", { size });
        await page.evaluate(() => {
          (window as unknown as { cls: number }).cls = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
        });
        await page.locator("#search-q").fill("kubernetes");
        await page.locator("#search-q").press("Enter");
        await page.locator('[data-search-results][data-source="index"] li').first().waitFor();
        const typed = await page
          .locator("[data-search-results] li > a")
          .evaluateAll((l) => l.map((a) => a.getAttribute("href")));
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(300);
        expect(
          await page.locator("[data-search-results] li > a").evaluateAll((l) => l.map((a) => a.getAttribute("href"))),
        ).toEqual(typed);
        expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBeLessThan(0.1);
        // Arriving with a query: the text host's results stay, the same nodes, in the same order.
        const arrived = await open("/search/?q=object%20storage", { size });
        await arrived.evaluate(() => {
          (window as unknown as { cls: number }).cls = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          document.querySelector("[data-search-results] li")?.setAttribute("data-painted", "server");
        });
        await arrived.locator('[data-search-results][data-source="server"]').waitFor({ state: "attached" });
        await arrived.waitForLoadState("networkidle");
        expect(await arrived.locator("[data-search-results] li").first().getAttribute("data-painted")).toBe("server");
        expect(await arrived.evaluate(() => (window as unknown as { cls: number }).cls)).toBeLessThan(0.1);
        await expectClean(arrived, size, `search arrived ${size.name}`);
      });

    it("says did-you-mean, closest matches, and nothing at all for nonsense", async () => {
      const page = await open("/search/?q=postgress");
      await page.locator("[data-search-results][data-source]").waitFor({ state: "attached" });
      // A link to the respelt search, with a whole word.
      const respelt = page.locator("[data-search-respelt] a");
      expect(await respelt.innerText()).toBe("postgres");
      expect(await respelt.getAttribute("href")).toBe("/search/?q=postgres");
      expect(await page.locator("[data-search-results] li").count()).toBeGreaterThan(3);
      await page.locator("#search-q").fill("xyzzyqwerty");
      await page.locator("#search-q").press("Enter");
      await page.waitForFunction(() => document.querySelector("[data-search-status]")?.textContent === "No results");
      expect(await page.locator("[data-search-results] li").count()).toBe(0);
      expect(await page.locator("[data-search-hint]").innerText()).toContain("Nothing in the catalogue matches");
      expect(page.errors).toEqual([]);
    });

    for (const size of WIDTHS)
      it(`finds the flagships, filters, shows more and moves focus to the results (${size.name})`, async () => {
        const page = await open("/search/?q=kubernetes", { size });
        await page.locator("[data-search-results][data-source] li").nth(19).waitFor();
        // Arriving with a query, focus is on the results, not back at the top of the page.
        expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-search-status"))).toBe(true);
        const first = (
          await page
            .locator("[data-search-results] li > a")
            .evaluateAll((links) => links.map((a) => a.getAttribute("href")!))
        ).map(slugOf);
        expect(first).toHaveLength(20);
        expect(first.slice(0, 3)).toEqual(["aws-eks", "azure-kubernetes-service", "gcp-gke"]);
        // Clean titles: no badge or button text.
        const text = await page.locator("[data-search-results]").innerText();
        expect(text).not.toMatch(/Add to my list|Id \/ slug/);
        expect(await page.locator("[data-search-results] li > a").allInnerTexts()).not.toContainEqual(
          expect.stringMatching(/ (active|preview|retired)$/),
        );
        // More results: twenty more, focus on the first new one.
        await page.locator("[data-search-more]").click();
        await page.locator("[data-search-results] li").nth(39).waitFor();
        expect(
          await page.evaluate(
            () => document.activeElement?.closest("li") === document.querySelectorAll("[data-search-results] li")[20],
          ),
        ).toBe(true);
        // A filter, kept in the URL.
        await page.locator('select[name="provider"]').selectOption("gcp");
        await page.waitForFunction(() => location.search.includes("provider=gcp"));
        await page.waitForFunction(() => {
          const found = [...document.querySelectorAll("[data-search-results] li .muted")];
          return found.length > 0 && found.every((m) => m.textContent!.startsWith("Google Cloud"));
        });
        // Page text is a second tier, below the services.
        await page.waitForLoadState("networkidle");
        // A new search from the form: focus goes to the results heading.
        await page.locator("#search-q").fill("object storage");
        await page.locator("#search-q").press("Enter");
        await page.waitForFunction(() => document.activeElement?.hasAttribute("data-search-status"));
        await page.screenshot({ path: `${ARTIFACTS}/search-${size.name}.png`, fullPage: true });
        await expectClean(page, size, `search ${size.name}`);
      });

    it("fetches neither index for results the text host painted, until the query changes or page text is asked for", async () => {
      const searchFiles = (paths: readonly string[]) =>
        paths.filter((path) => path === "/search-index.json" || path.startsWith("/pagefind/"));
      const page = await open("/feedback/");
      const fetched: string[] = [];
      page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
      await page.goto(`${stack.textUrl}/search/?q=object%20storage`);
      await page.locator('[data-search-results][data-source="server"] li').first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(300);
      expect(fetched).toContain("/search/");
      expect(searchFiles(fetched)).toEqual([]);
      // Page text, asked for: Pagefind alone.
      await page.locator("[data-search-text-more] button").click();
      await expect.poll(() => searchFiles(fetched).some((path) => path.startsWith("/pagefind/"))).toBe(true);
      expect(fetched).not.toContain("/search-index.json");
      // Another query: the browser's own search, over the index.
      await page.locator("#search-q").fill("kubernetes");
      await page.locator("#search-q").press("Enter");
      await page.locator('[data-search-results][data-source="index"] li').first().waitFor();
      expect(fetched).toContain("/search-index.json");
      expect(await page.locator("[data-search-results] li > a").first().getAttribute("href")).toBe("/aws/eks");
      expect(page.errors).toEqual([]);
    });

    it("answers without JavaScript with the API's ranking, filled in by the text host", async () => {
      const page = await open("/search/?q=s3", { javaScriptEnabled: false, size: WIDTHS[1] });
      expect(await page.locator("[data-search-results]").getAttribute("data-source")).toBeNull();
      expect(await page.locator("select[name=provider] option").count()).toBeGreaterThan(30);
      expect(await page.locator("#search-q").inputValue()).toBe("s3");
      expect(await page.locator("[data-search-results] li > a").first().innerText()).toBe(
        "Amazon Simple Storage Service",
      );
      // The header's search box leads to results too.
      await page.locator('header form[role="search"] input').fill("kubernetes");
      await page.locator('header form[role="search"] button').click();
      await page.waitForURL(/q=kubernetes/);
      expect(await page.locator("[data-search-results] li").count()).toBeGreaterThan(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });

  it("keeps each search filter's name with its select at 390 px", async () => {
    const page = await open("/search/?q=object%20storage", { size: WIDTHS[1] });
    const drift = await page.locator("[data-search-filters] label").evaluateAll((labels) =>
      labels.map((label) => {
        const box = label.getBoundingClientRect();
        const select = label.querySelector("select")!.getBoundingClientRect();
        // The select starts where its name starts, right under it.
        return Math.abs(select.left - box.left) + Math.max(0, select.top - box.top - 40);
      }),
    );
    expect(drift.length).toBe(3);
    for (const value of drift) expect(value).toBeLessThan(2);
  });

  describe("the equivalence matrix", () => {
    for (const size of WIDTHS)
      it(`keeps the provider header in view over its rows (${size.name})`, async () => {
        const page = await open("/equivalents/", { size });
        const wrap = page.locator(".table-wrap:has(table[data-matrix])");
        await wrap.evaluate((box) => box.scrollTo(0, 3000));
        const [boxTop, headTop] = await Promise.all([
          wrap.evaluate((box) => box.getBoundingClientRect().top),
          page
            .locator('table[data-matrix] thead th[data-provider="aws"]')
            .evaluate((th) => th.getBoundingClientRect().top),
        ]);
        expect(await wrap.evaluate((box) => box.scrollTop)).toBeGreaterThan(1000);
        expect(Math.abs(headTop - boxTop)).toBeLessThan(2);
      });

    for (const size of WIDTHS)
      it(`shows the three largest providers, takes others and a category, keeps both in the URL and downloads what is shown (${size.name})`, async () => {
        const page = await open("/equivalents/", { size });
        const heads = async () =>
          page
            .locator("table[data-matrix] thead th:not([hidden])")
            .evaluateAll((cells) => cells.map((c) => c.textContent!.trim()));
        expect(await heads()).toEqual(["Kind", "AWS", "Azure", "Google Cloud"]);
        await page.locator('input[name="providers"][value="ovhcloud"]').check();
        await page.locator("select[data-matrix-category]").selectOption("storage");
        await page.waitForFunction(() => location.search.includes("category=storage"));
        expect(new URL(page.url()).searchParams.get("providers")).toBe("aws,azure,gcp,ovhcloud");
        expect(await heads()).toEqual(["Kind", "AWS", "Azure", "Google Cloud", "OVHcloud"]);
        const rows = page.locator("table[data-matrix] tbody tr:not([hidden])");
        expect(await rows.count()).toBeGreaterThan(2);
        expect(await rows.filter({ hasText: "Managed Kubernetes" }).count()).toBe(0);
        const csv = parseCsv(await download(page, () => page.locator("[data-matrix-csv]").click()));
        expect(csv[0]).toEqual(["Kind", "AWS", "Azure", "Google Cloud", "OVHcloud"]);
        expect(csv.length - 1).toBe(await rows.count());
        const objectStorage = csv.find((row) => row[0] === "Object storage")!;
        expect(objectStorage[1]).toContain("Amazon S3");
        // The URL restores the view.
        const again = await open(new URL(page.url()).pathname + new URL(page.url()).search, { size });
        expect(
          await again
            .locator("table[data-matrix] thead th:not([hidden])")
            .evaluateAll((cells) => cells.map((c) => c.textContent!.trim())),
        ).toEqual(["Kind", "AWS", "Azure", "Google Cloud", "OVHcloud"]);
        expect(await again.locator("select[data-matrix-category]").inputValue()).toBe("storage");
        await page.screenshot({ path: `${ARTIFACTS}/equivalents-${size.name}.png` });
        await expectClean(page, size, `equivalents ${size.name}`);
      });

    it("works without JavaScript: the default matrix, and the form's choice applied by the text host", async () => {
      const page = await open("/equivalents/", { javaScriptEnabled: false, size: WIDTHS[1] });
      expect(
        await page
          .locator("table[data-matrix] thead th:not([hidden])")
          .evaluateAll((cells) => cells.map((c) => c.textContent!.trim())),
      ).toEqual(["Kind", "AWS", "Azure", "Google Cloud"]);
      await page.locator('input[name="providers"][value="azure"]').uncheck();
      await page.locator('input[name="providers"][value="ovhcloud"]').check();
      await page.locator("select[data-matrix-category]").selectOption("storage");
      await page.locator('[data-matrix-form] button[type="submit"]').click();
      await page.waitForURL(/category=storage/);
      expect(
        await page
          .locator("table[data-matrix] thead th:not([hidden])")
          .evaluateAll((cells) => cells.map((c) => c.textContent!.trim())),
      ).toEqual(["Kind", "AWS", "Google Cloud", "OVHcloud"]);
      expect(
        await page
          .locator("table[data-matrix] tbody tr:not([hidden])")
          .filter({ hasText: "Managed Kubernetes" })
          .count(),
      ).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });

  describe("tables", () => {
    for (const size of WIDTHS)
      it(`filters, sorts, keeps the state in the URL and downloads what is shown (${size.name})`, async () => {
        const page = await open("/aws", { size });
        const tools = page.locator("[data-table-tools]");
        await tools.waitFor();
        const total = await page.locator("table[data-table] tbody tr").count();
        await tools.locator('select[name="category"]').selectOption("Storage");
        await page.waitForFunction(() => location.search.includes("category=Storage"));
        const visible = page.locator("table[data-table] tbody tr:visible");
        const shown = await visible.count();
        expect(shown).toBeGreaterThan(3);
        expect(shown).toBeLessThan(total);
        expect(
          new Set(await visible.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.category))),
        ).toEqual(new Set(["Storage"]));
        await page.locator("th button.sort", { hasText: "Service" }).click();
        await page.locator("th button.sort", { hasText: "Service" }).click();
        expect(await page.locator("th", { hasText: "Service" }).first().getAttribute("aria-sort")).toBe("descending");
        expect(page.url()).toMatch(/sort=service&dir=desc/);
        const names = await visible.evaluateAll((rows) => rows.map((r) => r.querySelector("td")!.textContent!.trim()));
        expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, "en", { numeric: true })));
        const csv = await download(page, () => tools.locator("[data-table-csv]").click());
        const lines = csv.trim().split("\r\n");
        expect(lines[0]).toBe('"Service","Id","Provider","Category","Jurisdiction","Lifecycle","Free tier"');
        expect(lines).toHaveLength(shown + 1);
        expect(lines[1]).toContain(`"${names[0]}"`);
        // The URL brings the same view back.
        const again = await open(new URL(page.url()).pathname + new URL(page.url()).search, { size });
        await again.locator("[data-table-tools]").waitFor();
        expect(await again.locator("table[data-table] tbody tr:visible").count()).toBe(shown);
        await page.screenshot({ path: `${ARTIFACTS}/provider-${size.name}.png` });
        await expectClean(page, size, `/aws ${size.name}`);
      });

    it("filters a category page's grouped tables by provider and jurisdiction", async () => {
      const page = await open("/category/storage?provider=Google+Cloud");
      await page.locator("[data-table-tools]").waitFor();
      const providers = await page
        .locator("table[data-table] tbody tr:visible")
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.provider));
      expect(providers.length).toBeGreaterThan(0);
      expect(new Set(providers)).toEqual(new Set(["Google Cloud"]));
      // Sections left empty by the filter are hidden with their heading.
      expect(await page.locator("section:visible h2").count()).toBeLessThan(await page.locator("section h2").count());
      // The count is of services, not rows: storage lists some services under two groups (decisions.md#one-search).
      const slugs = (rows: string) =>
        page.locator(rows).evaluateAll((all) => all.map((r) => (r as HTMLElement).dataset.slug));
      const everyRow = await slugs("table[data-table] tbody tr");
      const total = new Set(everyRow).size;
      expect(everyRow.length).toBeGreaterThan(total);
      expect(await page.locator("[data-category-summary]").innerText()).toMatch(new RegExp(`^${total} services,`));
      const google = new Set(await slugs("table[data-table] tbody tr:visible")).size;
      expect(await page.locator("[data-table-count]").innerText()).toBe(`Showing ${google} of ${total} services.`);
      await page.locator('select[name="provider"]').selectOption("");
      expect(await page.locator("[data-table-count]").innerText()).toBe(`${total} services.`);
      await page.locator('select[name="jurisdiction"]').selectOption("CH");
      const jurisdictions = await page
        .locator("table[data-table] tbody tr:visible")
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.jurisdiction));
      expect(new Set(jurisdictions)).toEqual(new Set(["CH"]));
    });

    it("counts services, not rows, on a category page where services sit in two groups", async () => {
      const page = await open("/category/databases");
      await page.locator("[data-table-tools]").waitFor();
      const slugs = await page
        .locator("table[data-table] tbody tr")
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.slug!));
      const distinct = new Set(slugs).size;
      expect(distinct).toBeLessThan(slugs.length);
      expect(await page.locator("[data-table-count]").innerText()).toBe(`${distinct} services.`);
      expect(await page.locator("main p.muted").first().innerText()).toContain(`${distinct} services`);
    });

    it("stays a complete table without JavaScript, with contents links", async () => {
      const page = await open("/aws", { javaScriptEnabled: false });
      expect(await page.locator("[data-table-tools]").isVisible()).toBe(false);
      expect(await page.locator("table[data-table] tbody tr:visible").count()).toBeGreaterThan(100);
      await page.locator("nav.contents a", { hasText: "Databases" }).click();
      expect(page.url()).toMatch(/#category-databases$/);
    });
  });

  describe("on a phone (390 px)", () => {
    it("keeps a service table's key columns in view, and each lifecycle date whole", async () => {
      for (const path of ["/", "/aws", "/category/storage", "/aws/s3", "/lifecycle/"]) {
        const page = await open(path, { size: WIDTHS[1] });
        await page.waitForLoadState("networkidle");
        const tables = await page.locator("table[data-table]").evaluateAll((all) =>
          all.map((table) => {
            const wrap = table.closest(".table-wrap")!;
            const heads = [...table.querySelectorAll("thead th")].filter((th) => th.getClientRects().length > 0);
            return {
              scrolls: wrap.scrollWidth > wrap.clientWidth,
              heads: heads.map((th) => th.textContent!.trim()),
              right: Math.max(...heads.map((th) => th.getBoundingClientRect().right)),
            };
          }),
        );
        if (path !== "/lifecycle/") expect(tables.length, path).toBeGreaterThan(0);
        for (const table of tables) {
          expect(table.scrolls, `${path}: a table scrolls sideways (${table.heads.join(", ")})`).toBe(false);
          expect(table.right, path).toBeLessThanOrEqual(390);
          expect(table.heads, path).toEqual(expect.arrayContaining(["Service", "Lifecycle"]));
          expect(table.heads, path).not.toContain("Free tier");
        }
        const dates = await page.locator(".badge-date").evaluateAll((all) =>
          all.map((date) => ({
            lines: date.getClientRects().length,
            right: date.closest(".badge")!.getBoundingClientRect().right,
            text: date.textContent,
          })),
        );
        if (path === "/" || path === "/lifecycle/") expect(dates.length, path).toBeGreaterThan(3);
        for (const date of dates) {
          expect(date.lines, `${path}: ${date.text} broken across lines`).toBe(1);
          expect(date.right, `${path}: ${date.text} out of view`).toBeLessThanOrEqual(390);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      }
    });

    it("keeps the matrix's kinds and the comparison's attribute names in view while their columns scroll", async () => {
      for (const [path, rowHead] of [
        ["/equivalents/", "table[data-matrix] tbody tr:not([hidden]) th"],
        [
          "/compare/aws-s3,azure-blob-storage,gcp-cloud-storage",
          '[data-compare-result][data-source="api"] tbody th[scope="row"]',
        ],
      ] as const) {
        const page = await open(path, { size: WIDTHS[1] });
        const head = page.locator(rowHead).first();
        await head.waitFor();
        // Scrolled to the far end, the row heads stay at the scrolling box's left edge.
        const { scrolls, offset } = await head.evaluate((el) => {
          const wrap = el.closest(".table-wrap")!;
          const scrolls = wrap.scrollWidth > wrap.clientWidth;
          wrap.scrollLeft = wrap.scrollWidth;
          return { scrolls, offset: el.getBoundingClientRect().left - wrap.getBoundingClientRect().left };
        });
        expect(scrolls, path).toBe(true);
        expect(Math.abs(offset), path).toBeLessThan(2);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      }
    });
  });

  describe("the list builder", () => {
    for (const size of WIDTHS)
      it(
        `makes the four downloads in the browser with no API call, explained beside each (${size.name})`,
        { timeout: 60_000 },
        async () => {
          const page = await open("/list/", {
            size,
            init: () =>
              localStorage.setItem("csc-approved-list", JSON.stringify(["aws-s3", "aws-lambda", "gcp-cloud-storage"])),
          });
          const apiCalls: string[] = [];
          page.on("request", (request) => {
            if (new URL(request.url()).pathname.startsWith("/v1/"))
              apiCalls.push(`${request.method()} ${request.url()}`);
          });
          // Selected items by name, provider and lifecycle.
          await page
            .locator("[data-picker-selected] li", { hasText: "Amazon Simple Storage Service · AWS · active" })
            .waitFor();
          const scpSection = page.locator('[data-download="scp"]');
          await scpSection.locator("summary", { hasText: "Essentials kept usable" }).waitFor();
          expect(await page.locator('[data-download="azure"] [data-explain]').innerText()).toMatch(/Nothing to allow/);
          expect(await page.locator('[data-download="azure"] button').isDisabled()).toBe(true);
          const scp = JSON.parse(await download(page, () => scpSection.locator("button").click())) as {
            Statement: { NotAction: string[] }[];
          };
          expect(scp.Statement[0]!.NotAction).toEqual(expect.arrayContaining(["s3:*", "lambda:*", "iam:*", "sts:*"]));
          const gcp = await download(page, () => page.locator('[data-download="gcp"] button').click());
          expect(gcp).toContain("storage.googleapis.com");
          const markdown = await download(page, () => page.locator('[data-download="markdown"] button').click());
          // The same document as the API's.
          const api = await fetch(`${stack.apiUrl}/v1/export/markdown`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ approvedServiceIds: ["aws-s3", "aws-lambda", "gcp-cloud-storage"] }),
          });
          expect(markdown).toBe(await api.text());
          // Many downloads, still no request: the strict bucket is for Save only.
          // (Clicks only: Chrome throttles a page's automatic downloads, which is not what is tested here.)
          for (let i = 0; i < 12; i++)
            await page
              .locator("[data-download] button:enabled")
              .nth(i % 3)
              .click();
          expect(await page.locator("[data-list-status]").innerText()).toMatch(/^Downloaded /);
          expect(apiCalls).toEqual([]);
          await page.screenshot({ path: `${ARTIFACTS}/list-${size.name}.png`, fullPage: true });
          await expectClean(page, size, `/list/ ${size.name}`);
        },
      );

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

    it("follows a service added in another tab, so the next edit keeps it", async () => {
      const page = await open("/list/", {
        init: () => {
          if (!sessionStorage.getItem("seeded")) {
            localStorage.setItem("csc-approved-list", JSON.stringify(["aws-s3"]));
            sessionStorage.setItem("seeded", "1");
          }
        },
      });
      await page.locator("[data-picker-selected] li").first().waitFor();
      const other = await page.context().newPage();
      await other.goto(`${stack.textUrl}/aws/lambda`);
      await other.locator("[data-add-to-list]").click();
      await page.waitForFunction(() => document.querySelectorAll("[data-picker-selected] li").length === 2);
      // Removing one here keeps the other tab's addition, and focus stays in the list.
      await page.locator("[data-picker-selected] button").first().click();
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("csc-approved-list")!))).toEqual(["aws-lambda"]);
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toMatch(
        /^Remove AWS Lambda/,
      );
    });

    it("asks to merge or replace when copying a saved list into a non-empty list", async () => {
      const page = await open("/lists/axe-list", {
        init: () => {
          if (location.pathname.startsWith("/lists/"))
            localStorage.setItem("csc-approved-list", JSON.stringify(["aws-lambda"]));
        },
      });
      await page.locator("[data-load-start]").click();
      const question = page.locator("[data-load-text]");
      await question.waitFor();
      expect(await question.innerText()).toMatch(/already has 1 service/);
      expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-load-text"))).toBe(true);
      expect(await axe(page)).toEqual([]);
      await page.locator('[data-load-mode="merge"]').click();
      await page.waitForURL(/\/list\/$/);
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("csc-approved-list")!))).toEqual([
        "aws-lambda",
        "aws-s3",
        "azure-blob-storage",
      ]);
    });

    it("validates the custom address with a pattern Chrome accepts", async () => {
      const page = await open("/list/");
      const slug = page.locator("#list-slug");
      await slug.fill("Not A Slug");
      expect(await slug.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
      await slug.fill("-bad");
      expect(await slug.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
      await slug.fill("team-approved-2026");
      expect(await slug.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true);
      expect(page.errors).toEqual([]);
    });
  });

  describe("lifecycle", () => {
    /** The cards the filters leave, in page order, as the CSV's columns. */
    const shownCards = (page: Page) =>
      page.locator("li.card[data-slug]:not([hidden])").evaluateAll((cards) =>
        cards.map((card) => {
          const data = (card as HTMLElement).dataset;
          return [data.slug, card.querySelector("h3")!.textContent!.trim(), data.providerName, data.status];
        }),
      );

    for (const size of WIDTHS)
      it(`filters and sorts the lifecycle cards, keeps both in the URL and downloads what is shown (${size.name})`, async () => {
        const page = await open("/lifecycle/", { size });
        const tools = page.locator("[data-lifecycle-tools]");
        await tools.waitFor();
        const total = await page.locator("li.card[data-slug]").count();
        // By default: the date groups, every card.
        expect(await page.locator("[data-lifecycle-count]").innerText()).toBe(`${total} entries.`);
        expect(await page.locator(".lifecycle-group:visible").count()).toBeGreaterThan(2);
        expect(await page.locator("[data-lifecycle-sorted]").isVisible()).toBe(false);

        await tools.locator('select[name="status"]').selectOption("deprecated");
        await tools.locator('select[name="sort"]').selectOption("provider");
        await page.waitForFunction(() => location.search.includes("sort=provider"));
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
          status: "deprecated",
          sort: "provider",
        });
        const shown = await shownCards(page);
        expect(shown.length).toBeGreaterThan(3);
        expect(shown.length).toBeLessThan(total);
        expect(new Set(shown.map((card) => card[3]))).toEqual(new Set(["deprecated"]));
        const providers = shown.map((card) => card[2]!);
        expect(providers).toEqual(ordered(providers, (p) => p));
        expect(new Set(providers).size).toBeGreaterThan(2);
        // One sorted list, every card of it on screen; the date groups step aside.
        expect(await page.locator(".lifecycle-group:visible").count()).toBe(0);
        expect(await page.locator("[data-lifecycle-sorted] h2").innerText()).toBe(`By provider (${shown.length})`);
        expect(await page.locator("li.card:visible").count()).toBe(shown.length);
        expect(await page.locator("[data-lifecycle-count]").innerText()).toBe(
          `Showing ${shown.length} of ${total} entries.`,
        );

        const csv = parseCsv(await download(page, () => tools.locator("[data-lifecycle-csv]").click()));
        expect(csv[0]).toEqual([
          "Id",
          "Service",
          "Provider",
          "Status",
          "Date",
          "GA target",
          "Successor",
          "Successor id",
          "Announcement",
        ]);
        expect(csv.slice(1).map((row) => row.slice(0, 4))).toEqual(shown);
        // The other columns are the API's facts for each entry.
        const api = (await (await fetch(`${stack.apiUrl}/v1/lifecycle?status=deprecated`)).json()) as {
          data: { slug: string; sunsetDate?: string; successorSlug?: string; announcementUrl?: string }[];
        };
        const bySlug = new Map(api.data.map((entry) => [entry.slug, entry]));
        for (const row of csv.slice(1)) {
          const entry = bySlug.get(row[0]!)!;
          expect([row[4], row[7], row[8]], row[0]).toEqual([
            entry.sunsetDate ?? "",
            entry.successorSlug ?? "",
            entry.announcementUrl ?? "",
          ]);
        }
        expect(csv.some((row) => row[8]!.startsWith("https://"))).toBe(true);

        // The URL brings the same view back.
        const url = new URL(page.url());
        const again = await open(url.pathname + url.search, { size });
        await again.locator("[data-lifecycle-tools]").waitFor();
        expect(await again.locator('select[name="status"]').inputValue()).toBe("deprecated");
        expect(await again.locator('select[name="sort"]').inputValue()).toBe("provider");
        expect(await shownCards(again)).toEqual(shown);
        await again.screenshot({ path: `${ARTIFACTS}/lifecycle-sorted-${size.name}.png` });
        await expectClean(again, size, `/lifecycle/ sorted ${size.name}`);

        // Back to next date: the groups again, in date order, and the URL forgets the sort.
        await tools.locator('select[name="sort"]').selectOption("");
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ status: "deprecated" });
        expect(await page.locator("[data-lifecycle-sorted]").isVisible()).toBe(false);
        expect(await page.locator(".lifecycle-group:visible").count()).toBeGreaterThan(0);
        const byDate = await shownCards(page);
        expect(new Set(byDate.map((card) => card[0]))).toEqual(new Set(shown.map((card) => card[0])));
        expect(byDate.map((card) => card[0])).toEqual(
          api.data.map((entry) => entry.slug).filter((slug) => byDate.some((card) => card[0] === slug)),
        );
        const csvByDate = parseCsv(await download(page, () => tools.locator("[data-lifecycle-csv]").click()));
        expect(csvByDate.slice(1).map((row) => row.slice(0, 4))).toEqual(byDate);
        await page.screenshot({ path: `${ARTIFACTS}/lifecycle-${size.name}.png` });
        await expectClean(page, size, `/lifecycle/ ${size.name}`);
      });

    for (const size of WIDTHS)
      it(`combines a date window with the sort, the URL, the JSON link and the CSV (${size.name})`, async () => {
        const page = await open("/lifecycle/", { size });
        const tools = page.locator("[data-lifecycle-tools]");
        await tools.waitFor();
        await tools.locator('select[name="within"]').selectOption("180d");
        await tools.locator('select[name="sort"]').selectOption("provider");
        await page.waitForFunction(() => location.search.includes("sort=provider"));
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ within: "180d", sort: "provider" });
        // The window is the API's: the same entries as GET /v1/lifecycle?within=180d.
        const api = (await (await fetch(`${stack.apiUrl}/v1/lifecycle?within=180d`)).json()) as {
          data: { slug: string; sunsetDate?: string }[];
        };
        expect(api.data.length).toBeGreaterThan(2);
        const shown = await shownCards(page);
        expect(new Set(shown.map((card) => card[0]))).toEqual(new Set(api.data.map((entry) => entry.slug)));
        const providers = shown.map((card) => card[2]!);
        expect(providers).toEqual(ordered(providers, (p) => p));
        expect(await page.locator("[data-lifecycle-count]").innerText()).toMatch(
          new RegExp(`^Showing ${shown.length} of \\d+ entries\\.$`),
        );
        expect(new URL((await page.locator("[data-lifecycle-json]").getAttribute("href")) ?? "").search).toBe(
          "?within=180d",
        );
        const csv = parseCsv(await download(page, () => tools.locator("[data-lifecycle-csv]").click()));
        expect(csv.slice(1).map((row) => row.slice(0, 4))).toEqual(shown);
        // A window the select does not offer, from a shared link, is kept and offered.
        const linked = await open("/lifecycle/?within=45", { size });
        await linked.locator("[data-lifecycle-tools]").waitFor();
        expect(await linked.locator('select[name="within"]').inputValue()).toBe("45d");
        expect(await linked.locator('select[name="within"] option:checked').innerText()).toBe("Within 45 days");
        expect(new URL(linked.url()).searchParams.get("within")).toBe("45d");
        const within45 = (await (await fetch(`${stack.apiUrl}/v1/lifecycle?within=45d`)).json()) as {
          data: { slug: string }[];
        };
        expect((await shownCards(linked)).map((card) => card[0]).sort()).toEqual(
          within45.data.map((entry) => entry.slug).sort(),
        );
        await expectClean(page, size, `/lifecycle/ within ${size.name}`);
      });

    it("keeps the cards, by date and readable at 390 px, without JavaScript (a sort in the URL is left for the script)", async () => {
      const page = await open("/lifecycle/?sort=provider&status=preview", {
        javaScriptEnabled: false,
        size: WIDTHS[1],
      });
      expect(await page.locator("[data-lifecycle-tools]").isVisible()).toBe(false);
      expect(await page.locator("[data-lifecycle-sorted]").isVisible()).toBe(false);
      expect(await page.locator(".lifecycle-group:visible").count()).toBeGreaterThan(2);
      const statuses = await page
        .locator("li.card:visible")
        .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.status));
      expect(new Set(statuses).size).toBeGreaterThan(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });

  describe("compare without JavaScript", () => {
    it("submits the ids form and shows the comparison rendered by the text host", async () => {
      const page = await open("/compare/", { javaScriptEnabled: false, size: WIDTHS[1] });
      await page.locator("#compare-ids").fill("aws-s3, gcp-cloud-storage");
      await page.locator('form[aria-label="Compare services by id"] button[type="submit"]').click({ timeout: 5000 });
      await page.waitForURL(/ids=/, { timeout: 5000 });
      const heads = await page.locator("[data-compare-result] thead th").allInnerTexts();
      expect(heads.join(" ")).toContain("Amazon Simple Storage Service");
      expect(heads.join(" ")).toContain("Cloud Storage");
      expect(await page.locator("[data-compare-result] tbody tr").count()).toBeGreaterThan(5);
      expect(await page.locator("#compare-ids").inputValue()).toBe("aws-s3,gcp-cloud-storage");
    });
  });

  describe("compare without JavaScript, from a shared link", () => {
    it("fills /compare/a,b in, with compliance programmes by name and both services in view at 390 px", async () => {
      const page = await open("/compare/aws-s3,azure-blob-storage", { javaScriptEnabled: false, size: WIDTHS[1] });
      const heads = await page.locator("[data-compare-result] thead th").allInnerTexts();
      expect(heads.join(" ")).toContain("Amazon Simple Storage Service");
      expect(heads.join(" ")).toContain("Azure Blob Storage");
      const compliance = page.locator("[data-compare-result] tbody tr", {
        has: page.locator('th[scope="row"]', { hasText: /^Compliance/ }),
      });
      // Named as the service pages name them, not by the API's ids.
      expect(await compliance.innerText()).toContain("FedRAMP High");
      expect(await page.locator("[data-compare-result]").innerText()).not.toMatch(/fedramp-high|iso-27001/);
      const right = await page
        .locator("[data-compare-result] thead th")
        .evaluateAll((cells) => Math.max(...cells.map((cell) => cell.getBoundingClientRect().right)));
      expect(right).toBeLessThanOrEqual(390);
      // Unknown ids are named, the rest compared.
      const unknown = await open("/compare/aws-s3,no-such-service,gcp-cloud-storage", { javaScriptEnabled: false });
      expect(await unknown.locator("[data-compare-note]").innerText()).toContain("no-such-service");
      expect(await unknown.locator("[data-compare-result] thead th").count()).toBe(3);
    });

    for (const size of WIDTHS)
      it(`has no serious or critical accessibility violations as served without JavaScript (${size.name})`, async () => {
        const page = await open("/", { bypassCSP: true, size });
        // The page as a browser without JavaScript gets it: the module scripts never run (axe itself does).
        await page.route("**/_astro/*.js", (route) => route.abort());
        await page.goto(`${stack.textUrl}/compare/aws-s3,azure-blob-storage,gcp-cloud-storage`);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("[data-compare-result] tbody tr").count()).toBeGreaterThan(5);
        expect(await axe(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      });
  });

  describe("compare and errors", () => {
    for (const size of WIDTHS)
      it(`names each column's provider, keeps the first column in view and names unknown ids (${size.name})`, async () => {
        const page = await open("/compare/aws-s3,azure-blob-storage,no-such-service,gcp-cloud-storage", { size });
        await page.locator('[data-compare-result][data-source="api"] table').waitFor();
        expect(await page.locator("[data-compare-note]").innerText()).toMatch(/Not in the catalogue: no-such-service/);
        const headers = await page.locator("[data-compare-result] thead th").allInnerTexts();
        expect(headers).toHaveLength(4);
        expect(headers.slice(1).map((h) => h.split("\n").pop())).toEqual(["AWS", "Azure", "Google Cloud"]);
        expect(page.url()).toMatch(/\/compare\/aws-s3,azure-blob-storage,gcp-cloud-storage$/);
        expect(
          await page
            .locator('[data-compare-result] th[scope="row"]')
            .first()
            .evaluate((th) => getComputedStyle(th).position),
        ).toBe("sticky");
        // Compliance programmes by name, as the service pages show them, not the API's ids.
        const providerWide = page.locator("[data-compare-result] tbody tr", {
          has: page.locator('th[scope="row"]', { hasText: "Provider holds" }),
        });
        const programmes = (await providerWide.locator("td").allInnerTexts()).join(" | ");
        expect(programmes).toContain("ISO/IEC 27001");
        expect(programmes).not.toMatch(/\biso-27001\b/);
        await page.locator("[data-compare-differences]").check();
        expect(page.url()).toMatch(/differences=1/);
        expect(await page.locator("[data-compare-result] tbody th", { hasText: "(same)" }).count()).toBe(0);
        const csv = await download(page, () => page.locator("[data-compare-csv]").click());
        expect(csv.split("\r\n")[0]).toContain('"Amazon Simple Storage Service (AWS)"');
        await page.screenshot({ path: `${ARTIFACTS}/compare-${size.name}.png`, fullPage: true });
        // A bare 404 no more, and the picker shows names.
        expect(await page.locator("[data-picker-selected] li").first().innerText()).toMatch(
          /Amazon Simple Storage Service · AWS/,
        );
        await expectClean(page, size, `compare ${size.name}`);
      });

    for (const size of WIDTHS)
      it(`filters the rows, orders the services, keeps both in the URL beside the ids and downloads what is shown (${size.name})`, async () => {
        const ids = [
          "gcp-cloud-storage",
          "scaleway-object-storage",
          "aws-s3",
          "azure-blob-storage",
          "hetzner-object-storage",
        ];
        const c = loadCatalogue();
        const service = (slug: string) => c.bySlug.get(slug)!.service;
        const provider = (slug: string) => c.providerById.get(service(slug).providerId)!;
        // The service page's form (?ids=a&ids=b), a comma list and an unknown id, with a sort.
        const page = await open(
          `/compare/?ids=${ids.slice(0, 2).join(",")},no-such-service&ids=${ids.slice(2).join(",")}&sort=name`,
          { size },
        );
        const table = page.locator('[data-compare-result][data-source="api"] table');
        await table.waitFor();
        const columns = () =>
          page
            .locator("[data-compare-result] thead th[data-slug]")
            .evaluateAll((ths) => ths.map((th) => th.dataset.slug));
        const rowLabels = () => page.locator('[data-compare-result] th[scope="row"]').allInnerTexts();
        expect(await page.locator("[data-compare-note]").innerText()).toMatch(/Not in the catalogue: no-such-service/);
        // The ids go to the path in the order given, the unknown one dropped; the sort stays in the query.
        expect(new URL(page.url()).pathname).toBe(`/compare/${ids.join(",")}`);
        expect(new URL(page.url()).search).toBe("?sort=name");
        expect(await page.locator('select[name="sort"]').inputValue()).toBe("name");
        expect(await columns()).toEqual(ordered(ids, (slug) => service(slug).name));
        expect(await page.locator('[data-compare-result] th[scope="rowgroup"]').allInnerTexts()).toEqual([
          "Service",
          "Provider and jurisdiction",
        ]);
        const all = (await rowLabels()).length;

        const tools = page.locator("[data-compare-tools]");
        await tools.locator('select[name="group"]').selectOption("provider");
        await tools.locator("[data-compare-differences]").check();
        await tools.locator('select[name="sort"]').selectOption("jurisdiction");
        const url = new URL(page.url());
        expect(url.pathname).toBe(`/compare/${ids.join(",")}`);
        expect(Object.fromEntries(url.searchParams)).toEqual({
          group: "provider",
          differences: "1",
          sort: "jurisdiction",
        });
        const expected = ordered(ids, (slug) => provider(slug).file.jurisdiction);
        expect(expected).not.toEqual(ids);
        expect(await columns()).toEqual(expected);
        const labels = await rowLabels();
        expect(labels.length).toBeGreaterThan(2);
        expect(labels.length).toBeLessThan(all);
        expect(labels).toContain("Jurisdiction");
        expect(labels).not.toContain("Category (same)");
        expect(labels.filter((label) => label.endsWith("(same)"))).toEqual([]);
        expect(await page.locator("[data-compare-count]").innerText()).toBe(
          `Showing ${labels.length} of ${all} attributes.`,
        );
        // The jurisdiction row reads in the order of the columns.
        const jurisdictions = await page
          .locator('[data-compare-result] tr:has(th:text-is("Jurisdiction")) td')
          .allInnerTexts();
        expect(jurisdictions).toEqual(expected.map((slug) => provider(slug).file.jurisdiction));

        // The CSV is the table as shown: the header with each column's provider, then group, attribute, values.
        const shown = await table.evaluate((t: HTMLTableElement) => {
          const head = [...t.tHead!.rows[0]!.cells]
            .slice(1)
            .map((th) => `${th.querySelector("a")!.textContent} (${th.querySelector(".provider")!.textContent})`);
          const body = [...t.tBodies].flatMap((tbody) => {
            const group = tbody.querySelector('th[scope="rowgroup"]')!.textContent!.trim();
            return [...tbody.rows]
              .filter((row) => row.querySelector('th[scope="row"]'))
              .map((row) => [group, ...[...row.cells].map((cell) => cell.textContent!.trim())]);
          });
          return [["Group", "Attribute", ...head], ...body];
        });
        const csv = parseCsv(await download(page, () => tools.locator("[data-compare-csv]").click()));
        expect(csv).toEqual(shown);
        expect(csv[0]![2]).toBe(`${service(expected[0]!).name} (${provider(expected[0]!).provider.shortName})`);
        expect(csv.length).toBe(labels.length + 1);

        // The URL brings the same view back.
        const again = await open(url.pathname + url.search, { size });
        await again.locator('[data-compare-result][data-source="api"] table').waitFor();
        expect(await again.locator('select[name="group"]').inputValue()).toBe("provider");
        expect(await again.locator('select[name="sort"]').inputValue()).toBe("jurisdiction");
        expect(await again.locator("[data-compare-differences]").isChecked()).toBe(true);
        expect(
          await again
            .locator("[data-compare-result] thead th[data-slug]")
            .evaluateAll((ths) => ths.map((th) => th.dataset.slug)),
        ).toEqual(expected);
        expect(await again.locator('[data-compare-result] th[scope="row"]').allInnerTexts()).toEqual(labels);
        await again.screenshot({ path: `${ARTIFACTS}/compare-options-${size.name}.png`, fullPage: true });
        await expectClean(again, size, `compare options ${size.name}`);
        await expectClean(page, size, `compare options, changed in place, ${size.name}`);
      });

    it("compares a service with the AWS, Azure and Google equivalents by default, chosen on its page", async () => {
      const page = await open("/azure/blob-storage");
      const href = (await page.locator('main a[href^="/compare/"]').first().getAttribute("href"))!;
      const ids = href.replace("/compare/", "").split(",");
      expect(ids[0]).toBe("azure-blob-storage");
      expect(ids.slice(1).sort()).toEqual(["aws-s3", "gcp-cloud-storage"]);
      // The choice: untick one, compare the rest.
      await page.locator('.compare-choice input[value="aws-s3"]').uncheck();
      await page.locator(".compare-choice button").click();
      await page.locator('[data-compare-result][data-source="api"] table').waitFor();
      expect(await page.locator("[data-compare-result] thead th").count()).toBe(3);
      // A retired service with no equivalents is never compared with itself.
      const lonely = loadCatalogue().services.find(
        (s) => s.lifecycle?.status === "retired" && loadCatalogue().bySlug.get(s.slug)!.equivalentSlugs.length === 0,
      )!;
      await page.goto(`${stack.textUrl}/${lonely.providerId}/${lonely.slug.slice(lonely.providerId.length + 1)}`);
      expect(await page.locator('main a[href^="/compare/"]').count()).toBe(0);
    });

    it("names unknown ids on an exposure link and scores the rest", async () => {
      const page = await open("/exposure/?ids=aws-s3,gone-service,gcp-cloud-storage");
      await page.locator("[data-exposure-result]:not([hidden])").waitFor();
      expect(await page.locator("[data-exposure-note]").innerText()).toMatch(/Not in the catalogue: gone-service/);
      expect(await page.locator('[data-figure="services"]').innerText()).toBe("2");
      expect(await page.locator("[data-disclaimer]").innerText()).toMatch(/not legal advice/);
    });

    for (const size of WIDTHS)
      it(`answers unknown pages with the site's styled 404 (${size.name})`, async () => {
        const page = await open("/no/such/page", { size });
        expect(await page.locator("h1").innerText()).toBe("Not found");
        expect(await page.locator("header.site nav").count()).toBe(1);
        page.errors = page.errors.filter((error) => !/404/.test(error));
        await expectClean(page, size, `404 ${size.name}`);
      });

    it("answers a browser over the text host's limit with the site's styled 429, saying what and when", async () => {
      const store = await tempStore();
      const port = await freePort();
      const limited: FastifyInstance = await buildTextApp({
        config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
        catalogue: loadCatalogue(),
        store,
        files: await BuiltFiles.open(stack.distDir),
        perMinute: 2,
        // The 429 page is rendered on demand, with what was limited and when to retry.
        siteHandler: (await loadSiteHandler(stack.distDir))!,
      });
      await limited.listen({ port, host: "127.0.0.1" });
      try {
        const base = `http://127.0.0.1:${port}`;
        await fetch(`${base}/`, { headers: { accept: "text/html" } });
        await fetch(`${base}/`, { headers: { accept: "text/html" } });
        const page = await open("/aws", { base, size: WIDTHS[1] });
        expect(await page.locator("h1").innerText()).toBe("Too many requests");
        expect(await page.locator("[data-limit-detail]").innerText()).toMatch(
          /limited to 2 requests per minute per IP\. Try again in \d+ seconds\./,
        );
        page.errors = page.errors.filter((error) => !/429/.test(error));
        await expectClean(page, WIDTHS[1], "429");
      } finally {
        await limited.close();
        await store.close();
      }
    });
  });

  describe("plan an exit, then the policies of the new list", () => {
    // A mixed stack: S3, RDS and BigQuery map to sovereign providers; GuardDuty, Logic Apps and
    // Dialogflow have no equivalent there (gaps), and the team keeps them for now.
    const STACK = [
      "aws-s3",
      "aws-rds-postgresql",
      "aws-guardduty",
      "azure-functions",
      "azure-logic-apps",
      "gcp-bigquery",
      "gcp-dialogflow",
    ];
    // The plan of STACK at 390 px, a card per service with three alternatives in view: 5,698 px,
    // measured 2026-11-26 (three squeezed columns, every alternative shown: 7,738 px).
    const PHONE_EXIT_PLAN_MAX_PX = 6000;
    // The API's generators (POST /v1/policies/*), run here: the strict bucket allows 10 a minute.
    const POLICIES = [
      { section: "scp", make: (ids: readonly string[]) => scpPolicy(realCatalogue(), ids).policy },
      { section: "azure", make: (ids: readonly string[]) => azurePolicySet(realCatalogue(), ids).policy },
      { section: "gcp", make: (ids: readonly string[]) => gcpOrgPolicy(realCatalogue(), ids).policy },
    ] as const;

    for (const size of WIDTHS)
      it(
        `plans to sovereign providers, picks an alternative, keeps the gaps, adopts and downloads the SCP, initiative and org policy (${size.name})`,
        { timeout: 60_000 },
        async () => {
          const plan = exitPlan(realCatalogue(), STACK, { sovereignOption: true });
          const s3 = plan.services.find((entry) => entry.slug === "aws-s3")!;
          expect(s3.candidates.length).toBeGreaterThan(1);
          const alternative = s3.candidates[1]!.slug;
          const gaps = plan.gaps.map((gap) => gap.slug);
          expect(gaps).toEqual(["aws-guardduty", "azure-logic-apps", "gcp-dialogflow"]);
          // The list the choices make, in list order: the alternative, the other rank-1s, the kept gaps.
          const adopted = plan.services.map((entry) =>
            entry.slug === "aws-s3" ? alternative : entry.outcome === "mapped" ? entry.candidates[0]!.slug : entry.slug,
          );

          const page = await open("/", { size });
          await page.evaluate((ids) => localStorage.setItem("csc-approved-list", JSON.stringify(ids)), STACK);
          await page.goto(`${stack.textUrl}/list/exit/`);
          await page.locator("[data-exit-result]:not([hidden])").waitFor();
          expect(await page.locator("[data-exit-summary]").innerText()).toContain(
            "7 services: 0 stay, 4 mapped, 3 gaps.",
          );
          await page.locator(`input[name="pick-aws-s3"][value="${alternative}"]`).check();
          for (const gap of gaps) await page.locator(`input[name="keep-${gap}"]`).check();
          expect(await page.locator("[data-exit-summary]").innerText()).toContain("3 gaps kept where they are.");
          // The handover document says which gaps stay where they are.
          const markdown = await download(page, () => page.locator('[data-exit-download="md"]').click());
          expect(markdown).toContain("Kept on Amazon Web Services in the proposed list, by choice");
          await page.screenshot({ path: `${ARTIFACTS}/exit-plan-${size.name}.png`, fullPage: true });
          await expectClean(page, size, `/list/exit/ ${size.name}`);
          // On a phone each service is a card, its cells one under another, not three slivers of
          // columns; nothing scrolls sideways.
          const layout = await page.evaluate(() => ({
            height: document.documentElement.scrollHeight,
            rows: [...document.querySelectorAll("[data-exit-gaps] tbody tr, [data-exit-mapping] tbody tr")].map(
              (row) => getComputedStyle(row).display,
            ),
            overflowing: [...document.querySelectorAll<HTMLElement>("[data-exit-result] .table-wrap")]
              .filter((wrap) => wrap.scrollWidth > wrap.clientWidth)
              .map((wrap) => Object.keys(wrap.dataset).join()),
          }));
          console.log(
            `site: /list/exit/ with a plan of ${STACK.length} services is ${layout.height} px tall (${size.name})`,
          );
          expect(layout.rows).toHaveLength(STACK.length);
          expect(new Set(layout.rows)).toEqual(new Set([size.name === "phone" ? "block" : "table-row"]));
          expect(layout.overflowing).toEqual([]);
          if (size.name === "phone") expect(layout.height).toBeLessThan(PHONE_EXIT_PLAN_MAX_PX);

          await page.locator("[data-exit-adopt]").click();
          // STACK is in the list: replacing it is asked first.
          await page.locator("[data-exit-replace]").click();
          await page.waitForURL(/\/list\/$/);
          expect(JSON.parse((await page.evaluate(() => localStorage.getItem("csc-approved-list")))!)).toEqual(adopted);
          for (const { section, make } of POLICIES) {
            const button = page.locator(`[data-download="${section}"] [data-download-button]`);
            await expect.poll(() => button.isEnabled()).toBe(true);
            const file = JSON.parse(await download(page, () => button.click())) as unknown;
            // The generator's document over the adopted list, and not the original list's.
            expect(file, section).toEqual(make(adopted));
            expect(file, section).not.toEqual(make(STACK));
          }
          await expectClean(page, size, `/list/ after adopting ${size.name}`);
        },
      );
  });

  describe("without JavaScript, and accessibility details", () => {
    it("browses with JavaScript off", async () => {
      const page = await open("/gcp/cloud-storage", { javaScriptEnabled: false });
      expect(await page.locator("h1").innerText()).toContain("Cloud Storage");
      expect(await page.locator("h2", { hasText: "Equivalents" }).count()).toBe(1);
      await page.locator("a", { hasText: "Google Cloud" }).first().click();
      expect(await page.locator("h1").innerText()).toBe("Google Cloud");
    });

    for (const size of WIDTHS)
      it(`posts feedback as a form without JavaScript: blank refused with the form, then a thank-you page (${size.name})`, async () => {
        const page = await open("/feedback/", { javaScriptEnabled: false, size });
        expect(
          await page.locator("#fb-message").evaluate((t) => t.getBoundingClientRect().right <= window.innerWidth),
        ).toBe(true);
        await page.locator("#fb-message").fill("       ");
        await Promise.all([
          page.waitForResponse((response) => response.request().method() === "POST"),
          page.locator("[data-feedback] button").click(),
        ]);
        await page.waitForLoadState();
        expect(await page.locator("[data-feedback-status]").innerText()).toMatch(/Not sent.*empty or only spaces/);
        expect(await page.locator("#fb-message").count()).toBe(1);
        expect(page.url()).not.toContain("message=");
        await page.locator("#fb-message").fill("The S3 pricing link is outdated.");
        await page.locator("#fb-email").fill("someone@example.com");
        await page.locator("[data-feedback] button").click();
        await page.waitForURL(/\/feedback\/thanks\/$/);
        expect(await page.locator("h1").innerText()).toBe("Thank you");
        expect(page.url()).not.toContain("someone");
      });

    it("sends feedback with JavaScript and refuses a blank message in place", async () => {
      const page = await open("/feedback/");
      await page.locator("#fb-message").fill("     ");
      await page.locator("[data-feedback] button").click();
      await page.waitForFunction(() =>
        /only spaces/.test(document.querySelector("[data-feedback-status]")!.textContent!),
      );
      await page.locator("#fb-message").fill("A missing service: Example DB.");
      await page.locator("[data-feedback] button").click();
      await page.waitForFunction(() =>
        /Thank you/.test(document.querySelector("[data-feedback-status]")!.textContent!),
      );
      expect(page.errors).toEqual([]);
    });

    it("applies a saved dark theme before any module script runs, under the real CSP, and announces the toggle", async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addInitScript(() => localStorage.setItem("csc-theme", "dark"));
      // Block the site's scripts: only the inline <head> script can apply the theme.
      await context.route(/\/_astro\/.*\.js$/, (route) => route.abort());
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/.test(message.text())) errors.push(message.text());
      });
      await page.goto(`${stack.textUrl}/aws/s3`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 22, 27)");
      expect(errors).toEqual([]);
      await context.close();
      const withScripts = await open("/aws/s3", { init: () => localStorage.setItem("csc-theme", "dark") });
      const toggle = withScripts.locator("[data-theme-toggle]");
      expect(await toggle.getAttribute("aria-pressed")).toBe("true");
      await toggle.click();
      expect(await toggle.getAttribute("aria-pressed")).toBe("false");
      expect(withScripts.errors).toEqual([]);
    });

    it("names every search landmark and keeps heading levels in order", async () => {
      for (const path of [
        "/",
        "/search/",
        "/compare/",
        "/exposure/",
        "/list/",
        "/aws",
        "/category/storage",
        "/aws/s3",
      ]) {
        const page = await open(path);
        const unnamed = await page.evaluate(
          () =>
            [...document.querySelectorAll('[role="search"], search')].filter(
              (element) => !element.getAttribute("aria-label") && !element.getAttribute("aria-labelledby"),
            ).length,
        );
        expect(unnamed, path).toBe(0);
        const skips = await page.evaluate(() => {
          const levels = [...document.querySelectorAll("main h1, main h2, main h3, main h4")].map((h) =>
            Number(h.tagName[1]),
          );
          return levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1).length;
        });
        expect(skips, path).toBe(0);
        await page.context().close();
      }
    });

    it("has no serious or critical accessibility violations in the dark theme", async () => {
      for (const path of ["/", "/gcp/cloud-storage", "/lifecycle/"]) {
        const page = await open(path, { bypassCSP: true, colorScheme: "dark" });
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(20, 22, 27)");
        expect(await axe(page), path).toEqual([]);
        await page.screenshot({ path: `${ARTIFACTS}/dark${path.replaceAll("/", "_")}.png` });
      }
    });

    for (const size of WIDTHS)
      for (const path of [
        "/",
        "/aws",
        "/category/storage",
        "/gcp/cloud-storage",
        "/search/?q=s3",
        "/compare/aws-s3,gcp-cloud-storage",
        "/exposure/?ids=aws-s3,gcp-cloud-storage",
        "/list/",
        "/lists/axe-list",
        "/feedback/",
        "/lifecycle/",
        "/lifecycle/?within=180d&sort=provider",
        "/equivalents/",
        "/equivalents/?providers=aws,ovhcloud,scaleway&category=storage",
      ])
        it(`has no serious or critical accessibility violations on ${path} (${size.name})`, async () => {
          const page = await open(path, { bypassCSP: true, size });
          await page.waitForLoadState("networkidle");
          expect(await axe(page)).toEqual([]);
          expect(page.errors).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        });
  });

  // Every page type the site and the text host serve a browser, the on-demand ones with their query.
  // decisions.md#faces: the toggle, the filters, a service's "add to my list", the picker's chips and count,
  // the exposure disclaimer and the compare options used to appear or grow after first paint (up to
  // 0.377); they now take their place from it (data-js-only, rendered server-side), and the footer
  // starts below the fold, so nothing a script adds moves what is in view.
  const PAGE_TYPES = [
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
    "/lists/axe-list",
    "/lists/axe-list/exit-plan",
    "/feedback/",
    "/feedback/thanks/",
    "/no-such-page",
  ];
  describe("layout shift", () => {
    for (const size of WIDTHS)
      it(`does not shift any page type: CLS under 0.05 (${size.name})`, { timeout: 240_000 }, async () => {
        const shifts: string[] = [];
        for (const path of PAGE_TYPES) {
          const page = await open(path, {
            size,
            // Observe from the first paint on, before any script of the page runs; name what moved.
            init: () => {
              const w = window as unknown as { cls: number; moved: string[] };
              w.cls = 0;
              w.moved = [];
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries() as unknown as {
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
            },
          });
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(300);
          const { cls, moved } = await page.evaluate(() => {
            const w = window as unknown as { cls: number; moved: string[] };
            return { cls: w.cls, moved: w.moved };
          });
          if (!(cls < 0.05)) shifts.push(`${path}: ${cls.toFixed(3)} (${moved.join(" | ")})`);
          await page.context().close();
        }
        expect(shifts).toEqual([]);
      });
  });

  // Last: it spends the strict bucket of this IP for a minute.
  it("says what was limited and when to retry when Save meets the strict bucket's limit", async () => {
    for (let i = 0; i < 12; i++)
      await fetch(`${stack.apiUrl}/v1/lists`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      });
    const page = await open("/list/", {
      init: () => localStorage.setItem("csc-approved-list", JSON.stringify(["aws-s3"])),
    });
    await page.locator("[data-picker-selected] li").first().waitFor();
    await page.locator("[data-save] button").click();
    await page.waitForFunction(() => /retry in/i.test(document.querySelector("[data-list-status]")!.textContent!));
    expect(await page.locator("[data-list-status]").innerText()).toMatch(
      /POST \/v1\/lists is limited to 10 requests per minute per IP \(the strict bucket.*\); retry in \d+ seconds?\./,
    );
  });
});
