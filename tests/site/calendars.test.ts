/**
 * Issue 126, "calendars people subscribe to": each feed — the whole lifecycle calendar, a provider's
 * and a saved list's — is offered as a webcal:// link and as the address to add by URL, with the
 * steps of Google Calendar, Outlook, Apple Calendar and Thunderbird, on the site (chromium at 1280
 * and 390 px, and w3m) and the text host (Markdown); each address answers the calendar it names
 * ("Subscribe" only downloaded lifecycle.ics once).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { CALENDAR_APPS, calendarBlocks, webcalUrl } from "../../catalogue/render/calendar.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";
import { requireComponent } from "../helpers/components.ts";
import { useFixtureSite } from "./fixture-site.ts";

const executablePath = requireComponent("chromium");
const w3m = requireComponent("w3m");
const run = promisify(execFile);
/** The API URL the run's fixture build is made for (fixture-site.ts). */
const BUILT_API = "http://127.0.0.1:1";
/** Each page with a calendar and its feed's path (the saved list's page names the API its server runs with). */
const FEEDS = [
  { page: "/lifecycle/", path: "/v1/lifecycle.ics" },
  { page: "/aws/", path: "/v1/lifecycle.ics?provider=aws" },
  { page: "/lists/team-calendar", path: "/v1/lists/team-calendar/lifecycle.ics" },
] as const;
/** The feed a page offers, read from its section. */
const feedOf = (html: string) => /data-calendar-feed="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? "";
const SIZES = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

describe("a calendar feed offered for subscription", () => {
  it("is its webcal:// address and its https address to add by URL, with the four apps' steps", () => {
    expect(webcalUrl("https://api.example.org/v1/lifecycle.ics?provider=aws")).toBe(
      "webcal://api.example.org/v1/lifecycle.ics?provider=aws",
    );
    const text = renderMarkdown({
      title: "t",
      blocks: calendarBlocks({ url: "https://api.example.org/v1/lifecycle.ics", what: "these dates" }),
    });
    expect(text).toContain("webcal://api.example.org/v1/lifecycle.ics");
    expect(text).toContain("add it by URL: [https://api.example.org/v1/lifecycle.ics]");
    for (const app of ["Google Calendar", "Outlook", "Apple Calendar", "Thunderbird"]) expect(text).toContain(app);
    expect(CALENDAR_APPS).toHaveLength(4);
  });

  it("answers a calendar at each address the pages offer", async () => {
    const store = await tempStore();
    await store.createList(newList({ name: "Team calendar", slug: "team-calendar", ids: ["aws-s3"] }, new Date()));
    const app = await build({ catalogue: fixtureCatalogue(), store });
    for (const { path } of FEEDS) {
      const answer = await app.inject(path);
      expect(answer.statusCode, path).toBe(200);
      expect(answer.headers["content-type"], path).toMatch(/^text\/calendar/);
      expect(answer.body, path).toMatch(/^BEGIN:VCALENDAR/);
    }
  });

  it("answers the provider's calendar at the address a provider page offers: that provider's dates only", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const answer = await app.inject("/v1/lifecycle.ics?provider=aws");
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/calendar/);
    const events = new ICAL.Component(ICAL.parse(answer.body)).getAllSubcomponents("vevent");
    expect(events.length).toBeGreaterThan(0);
    const slugs = events.map((event) => String(event.getFirstPropertyValue("uid")));
    expect(
      slugs.every((uid) => uid.includes("aws-")),
      slugs.join(", "),
    ).toBe(true);
  });
});

describe.skipIf(!executablePath)("calendars on the site and the text host", () => {
  const site = useFixtureSite({
    executablePath: executablePath!,
    dataPrefix: "csc-calendars-",
    setUpTimeout: 240_000,
    seed: (store) =>
      store.createList({
        ...newList({ name: "Team calendar", slug: "team-calendar", ids: ["aws-old-thing", "aws-s3"] }, new Date()),
      }),
  });

  it.each(FEEDS)("$page offers its calendar as webcal and by URL, in HTML", async ({ page, path }) => {
    const html = await (await fetch(`${site.base}${page}`, { headers: { accept: "text/html" } })).text();
    const feed = feedOf(html);
    expect(feed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(feed.endsWith(path), feed).toBe(true);
    expect(html).toContain(`href="${webcalUrl(feed).replace(/&/g, "&amp;")}"`);
    expect(html).toMatch(
      new RegExp(
        `<code[^>]*data-calendar-url[^>]*>${feed.replace(/[.?&]/g, (c) => (c === "&" ? "&amp;" : `\\${c}`))}</code>`,
      ),
    );

    for (const app of CALENDAR_APPS) expect(html).toContain(`<strong>${app.app}</strong>`);
  });

  it.each([
    ["/lifecycle?format=md", `${BUILT_API}/v1/lifecycle.ics`],
    ["/aws?format=md", `${BUILT_API}/v1/lifecycle.ics?provider=aws`],
  ])("%s offers the calendar as webcal and by URL in Markdown", async (path, feed) => {
    const text = await (await fetch(`${site.base}${path}`)).text();
    expect(text).toContain(`[${webcalUrl(feed)}](${webcalUrl(feed)})`);
    expect(text).toContain(`add it by URL: [${feed}](${feed})`);
    expect(text).toContain("**Thunderbird**");
  });

  it.skipIf(!w3m)("w3m reads the address to add and the steps, on each page with a calendar", async () => {
    for (const { page, path } of FEEDS) {
      const { stdout } = await run(w3m!, ["-dump", "-cols", "200", `${site.base}${page}`], { timeout: 30_000 });
      const text = stdout.replace(/\s+/g, " ");
      expect(text, page).toContain("Or add it by URL");
      expect(text, page).toMatch(new RegExp(`http://127\\.0\\.0\\.1:\\d+${path.replace(/[.?]/g, "\\$&")}`));
      expect(text, page).toContain("Subscribe (webcal)");
      // Script-only: the copy button stays out of a text browser.
      expect(text, page).not.toContain("Copy address");
    }
  });

  it.each(SIZES)(
    "at $width px: the webcal link, the address and the steps are there, none wider than the page",
    async (size) => {
      const context = await site.browser.newContext({ viewport: size });
      try {
        const page = await context.newPage();
        for (const { page: path } of FEEDS) {
          await page.goto(`${site.base}${path}`);
          const section = page.locator("[data-calendar-feed]");
          await section.scrollIntoViewIfNeeded();
          const feed = (await section.getAttribute("data-calendar-feed"))!;
          expect(await section.getByRole("link", { name: "Subscribe (webcal)" }).getAttribute("href"), path).toBe(
            webcalUrl(feed),
          );
          expect(await section.locator("[data-calendar-url]").textContent(), path).toBe(feed);
          await section.getByText("How to add it in Google Calendar").click();
          expect(await section.getByText("Subscribe from web").isVisible(), path).toBe(true);
          const wider = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(wider, path).toBeLessThanOrEqual(size.width);
        }
      } finally {
        await context.close();
      }
    },
  );

  it("the lifecycle page's calendar follows its filters", async () => {
    const context = await site.browser.newContext({ viewport: SIZES[0] });
    try {
      const page = await context.newPage();
      await page.goto(`${site.base}/lifecycle/`);
      await page.locator("[data-lifecycle-tools] select[name=provider]").selectOption("aws");
      const field = page.locator("[data-calendar-url]");
      await expect.poll(() => field.textContent()).toBe(`${BUILT_API}/v1/lifecycle.ics?provider=aws`);
      expect(
        await page
          .locator("[data-calendar-feed]")
          .getByRole("link", { name: "Subscribe (webcal)" })
          .getAttribute("href"),
      ).toBe(`webcal://127.0.0.1:1/v1/lifecycle.ics?provider=aws`);
    } finally {
      await context.close();
    }
  });
});
