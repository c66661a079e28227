/**
 * The site in Debian's chromium through playwright-core, as a first-time user uses it, at desktop
 * and phone (390 px) widths: the equivalence matrix (columns, category, URL state, CSV, without
 * JavaScript), the tables and the lifecycle cards (filter, sort, URL state, CSV equal to what is
 * shown), a phone's 390 px and the list builder (downloads made in the browser, save, 429 wording,
 * cross-tab sync, merge or replace). Axe-core at 0 serious/critical and no console errors on every
 * journey; the set-up is shared (browser-harness.ts).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  executablePath,
  useSiteBrowser,
  ARTIFACTS,
  WIDTHS,
  stack,
  open,
  axe,
  expectClean,
  download,
  parseCsv,
  ordered,
} from "./browser-harness.ts";

describe.skipIf(!executablePath)("the site in a browser", () => {
  useSiteBrowser();

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
            .evaluateAll((cells) => cells.map((c) => c.textContent.trim()));
        expect(await heads()).toEqual(["Kind", "AWS", "Azure", "Google Cloud"]);
        // The providers are a collapsed list; a column chosen is fetched with the text host's page.
        await page.locator(".matrix-choice summary").click();
        await page.locator('input[name="providers"][value="ovhcloud"]').check();
        await page.locator('table[data-matrix] th[data-provider="ovhcloud"]').waitFor();
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
            .evaluateAll((cells) => cells.map((c) => c.textContent.trim())),
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
          .evaluateAll((cells) => cells.map((c) => c.textContent.trim())),
      ).toEqual(["Kind", "AWS", "Azure", "Google Cloud"]);
      await page.locator(".matrix-choice summary").click();
      await page.locator('input[name="providers"][value="azure"]').uncheck();
      await page.locator('input[name="providers"][value="ovhcloud"]').check();
      await page.locator("select[data-matrix-category]").selectOption("storage");
      await page.locator('[data-matrix-form] button[type="submit"]').click();
      await page.waitForURL(/category=storage/);
      expect(
        await page
          .locator("table[data-matrix] thead th:not([hidden])")
          .evaluateAll((cells) => cells.map((c) => c.textContent.trim())),
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
        const names = await visible.evaluateAll((rows) => rows.map((r) => r.querySelector("td")!.textContent.trim()));
        expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, "en", { numeric: true })));
        const csv = await download(page, () => tools.locator("[data-table-csv]").click());
        const lines = csv.trim().split("\r\n");
        expect(lines[0]).toBe("Service,Id,Provider,Category,Jurisdiction,Lifecycle,Free tier");
        expect(lines).toHaveLength(shown + 1);
        expect(parseCsv(`${lines[1]}\r\n`)[0]![0]).toBe(names[0]);
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
              heads: heads.map((th) => th.textContent.trim()),
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
          // Each policy card has its JSON button first, then its .tf one.
          expect(await page.locator('[data-download="azure"] button').first().isDisabled()).toBe(true);
          const scp = JSON.parse(await download(page, () => scpSection.locator("button").first().click())) as {
            Statement: { NotAction: string[] }[];
          };
          expect(scp.Statement[0]!.NotAction).toEqual(expect.arrayContaining(["s3:*", "lambda:*", "iam:*", "sts:*"]));
          const gcp = await download(page, () => page.locator('[data-download="gcp"] button').first().click());
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
      // Unlisted by default: a readable address is asked for by unticking it.
      expect(await page.locator("[data-unlisted]").isChecked()).toBe(true);
      await page.locator("[data-unlisted]").uncheck();
      await page.locator("[data-save] button").click();
      const link = page.locator("[data-list-status] a");
      await link.waitFor();
      const href = await link.getAttribute("href");
      // The absolute address, to share as it is.
      expect(href).toBe(`${stack.textUrl}/lists/browser-test-list`);
      await page.goto(href!);
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
          return [data.slug, card.querySelector("h3")!.textContent.trim(), data.providerName, data.status];
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
});
