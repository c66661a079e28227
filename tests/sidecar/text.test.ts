import { describe, expect, it } from "vitest";
import { buildTextApp } from "../../sidecar/text.ts";
import { fixtureCatalogue, realCatalogue, tempStore } from "../helpers/app.ts";

describe("the text host", () => {
  it("answers the 61st request in a minute from one IP with 429, in the request's format", async () => {
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
    });
    for (let i = 0; i < 60; i++)
      expect((await text.inject({ url: "/aws", headers: { "user-agent": "curl/8" } })).statusCode).toBe(200);
    const curl = await text.inject({ url: "/aws", headers: { "user-agent": "curl/8" } });
    expect(curl.statusCode).toBe(429);
    expect(curl.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(Number(curl.headers["retry-after"])).toBeGreaterThan(0);
    expect(curl.body).toContain("429 Too many requests");
    const browser = await text.inject({ url: "/aws", headers: { accept: "text/html" } });
    expect(browser.statusCode).toBe(429);
    expect(browser.headers["content-type"]).toBe("text/html; charset=utf-8");
    const markdown = await text.inject({ url: "/aws", headers: { accept: "text/markdown" } });
    expect(markdown.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(markdown.body.startsWith("# 429 Too many requests")).toBe(true);
    // The site's assets and the list builder's data file are not counted: a limited client still gets them.
    for (const asset of ["/favicon.svg", "/list-catalogue.json", "/_astro/x.js"])
      expect((await text.inject(asset)).statusCode).not.toBe(429);
    expect((await text.inject("/list-catalogue.json.bak")).statusCode).toBe(429);
    await text.close();
  });

  it("shows at most 8 services on /compare/… and says so when given more", async () => {
    const catalogue = realCatalogue();
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store: await tempStore(),
    });
    const nine = catalogue.services.slice(0, 9).map((s) => s.slug);
    const page = (await text.inject(`/compare/${nine.join(",")}?format=md`)).body;
    expect(page).toContain("Showing the first 8 of 9 services");
    expect(page.match(/^## /gm)).toHaveLength(8);
    expect((await text.inject(`/compare/${nine.slice(0, 8).join(",")}?format=md`)).body).not.toContain(
      "Showing the first",
    );
    expect((await text.inject(`/compare/${nine[0]},nope-x?format=md`)).statusCode).toBe(404);
    await text.close();
  });

  it("answers /lifecycle?within=90 with only the dates of the next 90 days, and 400 for a bad within", async () => {
    const catalogue = realCatalogue();
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store: await tempStore(),
    });
    const today = new Date().toISOString().slice(0, 10);
    const horizon = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    const page = await text.inject("/lifecycle?within=90&format=md");
    expect(page.statusCode).toBe(200);
    const dates = [...page.body.matchAll(/\| (\d{4}-\d{2}-\d{2}) \(/g)].map((match) => match[1]!);
    expect(dates.every((date) => date >= today && date <= horizon)).toBe(true);
    expect(page.body).toContain(`with a date from ${today} to ${horizon}`);
    const bad = await text.inject("/lifecycle?within=soon&format=md");
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("within: must be a whole number of days");
    await text.close();
  });

  it("shows a service's sources and the lastVerified they give on a service page", async () => {
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
    });
    const page = await text.inject("/aws/s3?format=md");
    expect(page.body).toMatch(/Last verified.*2026-11-25/);
    expect(page.body).toContain("## Sources, checked 2026-11-25");
    expect(page.body).toContain("— backs compliance; checked 2026-11-20");
    await text.close();
  });
});
