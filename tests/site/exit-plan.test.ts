/**
 * "Plan an exit" in Debian's chromium through playwright-core, on a build of the fixture catalogue
 * served by the text host (with the API same-origin): plan the list to sovereign providers, pick an
 * alternative, see the exposure follow, adopt it, and find the builder's list and downloads follow;
 * at 1200 and 390 px, axe clean. And without JavaScript: a saved list's plan through the server.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Download, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { requireComponent } from "../helpers/components.ts";
import { useFixtureSite } from "./fixture-site.ts";

const executablePath = requireComponent("chromium");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const LIST_KEY = "csc-approved-list";

describe.skipIf(!executablePath)("Plan an exit, in a browser", () => {
  const site = useFixtureSite({
    executablePath: executablePath!,
    dataPrefix: "csc-exit-data-",
    setUpTimeout: 240_000,
    seed: (store) =>
      store.createList({
        id: "exit-list-id",
        slug: "exit-list",
        name: "Exit list",
        approvedServiceIds: ["aws-s3"],
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      }),
  });

  async function seriousViolations(page: Page) {
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> };
      };
      return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
    });
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  }

  for (const width of [1200, 390])
    it(`plans to sovereign providers, picks an alternative and adopts it (${width} px)`, async () => {
      const context = await site.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
      await context.addInitScript(
        ([key]) => {
          if (!localStorage.getItem(key!)) localStorage.setItem(key!, JSON.stringify(["aws-s3", "aws-lambda"]));
        },
        [LIST_KEY],
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
      await page.goto(`${site.base}/list/exit/`);
      await page.waitForSelector("[data-exit-result]:not([hidden])");
      // Sovereign option is the default target: S3 maps to OVHcloud first, Lambda is a gap.
      expect(await page.textContent("[data-exit-summary]")).toContain("2 services: 0 stay, 1 mapped, 1 gap.");
      expect(await page.textContent("[data-exit-gaps]")).toContain("AWS Lambda");
      const radios = page.locator('input[type="radio"][name="pick-aws-s3"]');
      expect(await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
        "ovhcloud-object-storage",
        "stackit-object-storage",
      ]);
      expect(await radios.first().isChecked()).toBe(true);
      // The Markdown is the API's document: absolute links, and the documentation link (decisions.md#faces).
      const [plan] = (await Promise.all([page.waitForEvent("download"), page.click('[data-exit-download="md"]')])) as [
        Download,
        void,
      ];
      const md = readFileSync(await plan.path(), "utf8");
      expect(md).toContain(`](${site.base}/aws/s3)`);
      expect(md).toContain("[documentation](https://help.ovhcloud.com/csm/en-public-cloud-storage-s3)");
      await page.check('input[value="stackit-object-storage"]');
      expect(await page.textContent("[data-exit-summary]")).toContain("(stackit)");
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      const [file] = (await Promise.all([page.waitForEvent("download"), page.click('[data-exit-download="csv"]')])) as [
        Download,
        void,
      ];
      const csv = readFileSync(await file.path(), "utf8");
      expect(csv).toContain("aws-s3,Amazon Simple Storage Service,aws,mapped,equivalent,2,stackit-object-storage");

      await page.click("[data-exit-adopt]");
      // The list being replaced has services: the page asks first.
      expect(await page.textContent("[data-exit-confirm-text]")).toBe(
        "Your list has 2 services. Replace it with the proposed 1 service?",
      );
      await page.click("[data-exit-replace]");
      await page.waitForURL(`${site.base}/list/`);
      expect(await page.evaluate((key) => localStorage.getItem(key), LIST_KEY)).toBe('["stackit-object-storage"]');
      // The builder follows the adopted list: its Markdown export lists the new service.
      await page.waitForFunction(
        () => !document.querySelector<HTMLButtonElement>('[data-download="markdown"] button')?.disabled,
      );
      const [markdown] = (await Promise.all([
        page.waitForEvent("download"),
        page.click('[data-download="markdown"] button'),
      ])) as [Download, void];
      expect(readFileSync(await markdown.path(), "utf8")).toContain("stackit-object-storage");
      // Nothing left on AWS: no SCP to download, and the builder says why rather than asking for AWS services.
      expect(await page.isDisabled('[data-download="scp"] [data-download-button]')).toBe(true);
      expect(await page.textContent('[data-download="scp"] [data-explain]')).toContain(
        "a list without AWS services needs none",
      );
      expect(errors).toEqual([]);
      await context.close();
    });

  it("names an empty list and a missing target", async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.base}/list/exit/`);
    await page.waitForFunction(() => document.querySelector("[data-exit-status]")?.textContent);
    expect(await page.textContent("[data-exit-status]")).toContain("Your list is empty");
    await page.evaluate((key) => localStorage.setItem(key, '["aws-s3"]'), LIST_KEY);
    await page.uncheck('input[name="sovereignOption"]');
    await page.click('[data-exit-form] button[type="submit"]');
    await expect.poll(() => page.textContent("[data-exit-status]")).toContain("No target");
    expect(await page.isHidden("[data-exit-result]")).toBe(true);
    await context.close();
  });

  it("plans a saved list named in the address, from its page, leaving my list alone", async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.base}/lists/exit-list`);
    await page.click('a[href="/list/exit/?list=exit-list"]');
    await page.waitForSelector("[data-exit-result]:not([hidden])");
    expect(await page.textContent("[data-exit-status]")).toBe("Planned 1 service of the saved list “Exit list”.");
    expect(await page.evaluate((key) => localStorage.getItem(key), LIST_KEY)).toBeNull();
    await page.goto(`${site.base}/list/exit/?list=no-such-list`);
    await expect.poll(() => page.textContent("[data-exit-status]")).toContain("List not found");
    await context.close();
  });

  it("serves a saved list's plan without JavaScript, linked from the list's page", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}/lists/exit-list`);
    await page.click('a[href="/lists/exit-list/exit-plan"]');
    expect(await page.textContent("h1")).toBe("Exit plan: Exit list → sovereign option");
    expect(await page.textContent("main")).toContain("Object Storage (OVHcloud)");
    expect(await seriousViolationsNoJs(page)).toEqual([]);
    await context.close();
  });

  /** Axe needs script: run it in a scripted page over the same HTML. */
  async function seriousViolationsNoJs(page: Page) {
    const html = await page.content();
    const context = await site.browser.newContext();
    const scripted = await context.newPage();
    await scripted.setContent(html);
    const violations = await seriousViolations(scripted);
    await context.close();
    return violations;
  }
});
