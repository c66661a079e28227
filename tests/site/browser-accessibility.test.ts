/**
 * The site in Debian's chromium through playwright-core: what works without JavaScript,
 * accessibility details (axe-core at 0 serious/critical, landmarks, focus, the dark theme) and layout
 * shift on every page type, at desktop and phone (390 px) widths; the set-up is shared
 * (browser-harness.ts).
 */
import { describe, expect, it } from "vitest";
import { executablePath, useSiteBrowser, ARTIFACTS, WIDTHS, stack, browser, open, axe } from "./browser-harness.ts";
import { inLanes, LAYOUT_SHIFT_LANES, layoutShiftOf, observeLayoutShifts, pageTypes } from "./layout-shift.ts";

describe.skipIf(!executablePath)("the site in a browser", () => {
  useSiteBrowser();

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
        /only spaces/.test(document.querySelector("[data-feedback-status]")!.textContent),
      );
      await page.locator("#fb-message").fill("A missing service: Example DB.");
      await page.locator("[data-feedback] button").click();
      await page.waitForFunction(() => /Thank you/.test(document.querySelector("[data-feedback-status]")!.textContent));
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

  // Every page type (layout-shift.ts), with the saved list useSiteBrowser() makes.
  // decisions.md#faces: the toggle, the filters, a service's "add to my list", the picker's chips and count,
  // the exposure disclaimer and the compare options used to appear or grow after first paint (up to
  // 0.377); they now take their place from it (data-js-only, rendered server-side), and the footer
  // starts below the fold, so nothing a script adds moves what is in view.
  describe("layout shift", () => {
    for (const size of WIDTHS)
      // 480 s: twice what a width's check may take here (about 4 minutes at worst), so it holds on a
      // machine half as fast (issue 116).
      it(`does not shift any page type: CLS under 0.05 (${size.name})`, { timeout: 480_000 }, async () => {
        const shifts: string[] = [];
        await inLanes(pageTypes("axe-list"), LAYOUT_SHIFT_LANES, async (path) => {
          const page = await open(path, {
            size,
            // As on a slow phone: a page is painted in parts while it arrives and its scripts run late
            // (the matrix's cells moved so on a loaded CI machine and never on an idle one).
            throttle: { cpu: 6, bytesPerSecond: 100_000 },
            // Observe from the first paint on, before any script of the page runs; name what moved.
            init: observeLayoutShifts,
          });
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(300);
          const { cls, moved } = await layoutShiftOf(page);
          if (!(cls < 0.05)) shifts.push(`${path}: ${cls.toFixed(3)} (${moved.join(" | ")})`);
          await page.context().close();
        });
        expect(shifts.sort()).toEqual([]);
      });
  });
});
