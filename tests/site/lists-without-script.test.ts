/**
 * Issue 126, "lists without script": every page that takes a list is filled on the server from
 * ?list= (a saved list, read from the store) as from ?ids= — /list/?list=… showed "0 of 500
 * selected" and /list/exit/?list=… an empty ids field, though the server knows the list — and the
 * saved list's script-only controls ("Copy into my list / Merge / Replace / Cancel") are kept out
 * of w3m and lynx, which show `hidden` elements. Over HTTP, in both text browsers, and in chromium
 * at 1280 and 390 px with JavaScript off (the pages work) and on (the controls are there).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { requireComponent } from "../helpers/components.ts";
import { useFixtureSite } from "./fixture-site.ts";

const executablePath = requireComponent("chromium");
const w3m = requireComponent("w3m");
const lynx = requireComponent("lynx");
const run = promisify(execFile);

const IDS = ["aws-s3", "ovhcloud-object-storage"];
const SIZES = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
/** The saved list's own controls, which need JavaScript. */
const SCRIPT_ONLY = ["Copy into my list", "Merge", "Replace", "Cancel"];

describe.skipIf(!executablePath)("pages that take a list, filled on the server", () => {
  const site = useFixtureSite({
    executablePath: executablePath!,
    dataPrefix: "csc-lists-without-script-",
    setUpTimeout: 240_000,
    seed: (store) =>
      store.createList(
        newList({ name: "Team storage", slug: "team-storage", ids: IDS, dataGb: { "aws-s3": 5000 } }, new Date()),
      ),
  });
  const get = (path: string) => fetch(`${site.base}${path}`, { headers: { accept: "text/html" } });

  it("fills the list builder from ?list= as from ?ids=: its chips, count and every form's ids", async () => {
    for (const path of ["/list/?list=team-storage", `/list/?ids=${IDS.join(",")}`]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      const html = await answer.text();
      expect(html, path).toContain(`${IDS.length} of 500 selected.`);
      for (const id of IDS) expect(html, path).toContain(`data-slug="${id}"`);
      // The downloads, Save and the deployment check all carry the list.
      const fields = [...html.matchAll(/<input type="hidden" name="ids" value="([^"]*)"/g)].map((m) => m[1]);
      expect(fields.length, path).toBeGreaterThan(4);
      expect(new Set(fields), path).toEqual(new Set([IDS.join(",")]));
    }
    const saved = await get("/list/?list=team-storage");
    // It read the store (and renewed the list): never kept by a cache.
    expect(saved.headers.get("cache-control")).toBe("no-store");
    const page = await saved.text();
    expect(page).toContain("These services come from the saved list “Team storage”");
    // Issue 126: "by guessing it.Saving a list", a space lost between two sentences.
    expect(page).toMatch(/by guessing it\. Saving a list/);
  });

  it("fills the exit planner's plain form and the scorecard from ?list=", async () => {
    const planner = await get("/list/exit/?list=team-storage");
    expect(planner.status).toBe(200);
    const html = await planner.text();
    expect(html).toMatch(new RegExp(`id="exit-ids" name="ids"[^>]* value="${IDS.join(",")}"`));
    // The saved list's data volumes, as saved, shown and not edited.
    expect(html).toMatch(/id="exit-data-gb" name="dataGb"[^>]* value="aws-s3:5000" readonly/);
    const scorecard = await get("/exposure/?list=team-storage");
    expect(scorecard.status).toBe(200);
    expect(await scorecard.text()).toMatch(/<strong data-figure="services">2<\/strong>/);
  });

  it("says a ?list= it cannot read is not there, with a 404", async () => {
    for (const path of ["/list/?list=no-such-list", "/list/exit/?list=no-such-list", "/exposure/?list=no-such-list"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).toContain("No saved list has this address");
    }
  });

  const BROWSERS = [
    ["w3m", w3m, ["-dump", "-cols", "100"]],
    ["lynx", lynx, ["-dump", "-nolist", "-width=100"]],
  ] as const;
  it.each(BROWSERS.filter(([, binary]) => binary))(
    "%s shows the saved list's services in the builder and none of the saved list's script-only controls",
    async (_name, binary, args) => {
      const dump = async (path: string) =>
        (await run(binary!, [...args, `${site.base}${path}`], { timeout: 30_000 })).stdout.replace(/\s+/g, " ");
      const builder = await dump("/list/?list=team-storage");
      expect(builder).toContain("2 of 500 selected.");
      expect(builder).toContain("Amazon Simple Storage Service");
      const page = await dump("/lists/team-storage");
      expect(page).toContain("Team storage");
      expect(page).toContain("Open this list in the builder");
      for (const control of SCRIPT_ONLY) expect(page, `shows "${control}"`).not.toMatch(new RegExp(`\\b${control}\\b`));
    },
  );

  it.each(SIZES)(
    "at $width px without JavaScript: the builder opened from the saved list downloads its policy",
    async (size) => {
      const context = await site.browser.newContext({
        viewport: size,
        javaScriptEnabled: false,
        acceptDownloads: true,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${site.base}/lists/team-storage`);
        for (const control of SCRIPT_ONLY)
          expect(await page.getByRole("button", { name: control, exact: true }).count(), control).toBe(0);
        await page.getByRole("link", { name: "Open this list in the builder" }).click();
        await expect.poll(() => page.locator("[data-picker-selected] li[data-slug]").count()).toBe(IDS.length);
        expect(await page.getByText("2 of 500 selected.").isVisible()).toBe(true);
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download aws-scp.json" }).click(),
        ]);
        expect(download.suggestedFilename()).toBe("aws-scp.json");
        // Nothing wider than the viewport.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      } finally {
        await context.close();
      }
    },
  );

  it.each(SIZES)(
    "at $width px with JavaScript: the saved list's page offers and does 'Copy into my list'",
    async (size) => {
      const context = await site.browser.newContext({ viewport: size });
      try {
        const page = await context.newPage();
        await page.goto(`${site.base}/lists/team-storage`);
        const copy = page.getByRole("button", { name: "Copy into my list" });
        expect(await copy.isVisible()).toBe(true);
        await copy.click();
        await page.waitForURL(/\/list\/$/);
        expect(await page.evaluate(() => localStorage.getItem("csc-approved-list"))).toBe(JSON.stringify(IDS));
      } finally {
        await context.close();
      }
    },
  );
});
