import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, realCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { rawRequest, socketExchange, type RawAnswer } from "../helpers/raw-http.ts";
import { buildText } from "../helpers/text-app.ts";

describe("the text host", () => {
  it("answers the 61st request in a minute from one IP with 429, in the request's format", async () => {
    const text = await buildText({
      catalogue: fixtureCatalogue(),
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
  });

  it("shows at most 8 services on /compare/… and says so when given more", async () => {
    const catalogue = realCatalogue();
    const text = await buildText({
      catalogue,
    });
    const nine = catalogue.services.slice(0, 9).map((s) => s.slug);
    const page = (await text.inject(`/compare/${nine.join(",")}?format=md`)).body;
    expect(page).toContain("Showing the first 8 of 9 services");
    expect(page.match(/^## /gm)).toHaveLength(8);
    expect((await text.inject(`/compare/${nine.slice(0, 8).join(",")}?format=md`)).body).not.toContain(
      "Showing the first",
    );
    expect((await text.inject(`/compare/${nine[0]},nope-x?format=md`)).statusCode).toBe(404);
  });

  it("wraps ANSI and plain text to ?width= or a COLUMNS header, and answers 400 for a bad width", async () => {
    const text = await buildText({
      perMinute: 10_000,
    });
    // A URL or link target alone on its line is never split, so it may be longer than the width.
    const longest = (body: string) =>
      Math.max(
        ...body
          .split("\n")
          // eslint-disable-next-line no-control-regex -- the colour codes take no column
          .map((line) => line.replace(/\u001b\[\d+m/g, ""))
          .filter((line) => !/^(<[^\s<>]+>|\S+:\/\/\S+)$/.test(line))
          .map((line) => [...line].length),
      );
    const get = (url: string, headers: Record<string, string> = {}) =>
      text.inject({ url, headers: { "user-agent": "curl/8", ...headers } });
    // The AWS page's region table and Lambda's paragraphs are wider than 80 columns when allowed.
    for (const path of ["/aws", "/aws/lambda", "/compare/aws-s3,gcp-cloud-storage", "/search?q=storage"]) {
      const join = path.includes("?") ? "&" : "?";
      expect(longest((await get(path)).body), path).toBeLessThanOrEqual(80);
      const wide = await get(`${path}${join}width=160`);
      expect(wide.statusCode, path).toBe(200);
      expect(longest(wide.body), path).toBeGreaterThan(80);
      expect(longest(wide.body), path).toBeLessThanOrEqual(160);
      const narrow = await get(`${path}${join}width=40&color=never`);
      expect(longest(narrow.body), path).toBeLessThanOrEqual(40);
      expect(longest((await get(path, { columns: "120" })).body), path).toBeGreaterThan(80);
      expect(longest((await get(path, { columns: "120" })).body), path).toBeLessThanOrEqual(120);
    }
    // ?width= wins over COLUMNS; a terminal narrower or wider than the range gets its nearest end.
    expect(longest((await get("/aws?width=60", { columns: "150" })).body)).toBeLessThanOrEqual(60);
    expect(longest((await get("/aws", { columns: "20" })).body)).toBeLessThanOrEqual(40);
    expect(longest((await get("/aws", { columns: "999" })).body)).toBeLessThanOrEqual(200);
    // Markdown has no width.
    expect((await get("/aws/lambda?format=md&width=40")).body).toBe((await get("/aws/lambda?format=md")).body);
    for (const bad of ["39", "201", "abc", "80.5", "", "-80", "80&width=90"]) {
      const answer = await get(`/aws/lambda?width=${bad}`);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.headers["content-type"], bad).toBe("text/plain; charset=utf-8");
      expect(answer.body, bad).toContain("400 Bad request");
      expect(answer.body, bad).toContain("width must be given once, as a whole number of columns from 40 to 200.");
      const markdown = await get(`/nope?width=${bad}`, { accept: "text/markdown" });
      expect(markdown.statusCode, bad).toBe(400);
      expect(markdown.body.startsWith("# 400 Bad request"), bad).toBe(true);
    }
    const columns = await get("/aws", { columns: "wide" });
    expect(columns.statusCode).toBe(400);
    expect(columns.body).toContain("The COLUMNS header must be one whole number of columns");
    expect((await get("/search?q=s3&width=0")).statusCode).toBe(400);
  });

  it("answers /lifecycle?within=90 with only the dates of the next 90 days, and 400 for a bad within", async () => {
    const catalogue = realCatalogue();
    const text = await buildText({
      catalogue,
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
  });

  it("answers /lifecycle?kind=version with version end dates, and shows a service's versions table", async () => {
    const text = await buildText();
    const page = await text.inject("/lifecycle?kind=version&provider=azure&format=md");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("kind version");
    expect(page.body).toContain("Azure Cache for Redis Tier Enterprise Flash: Retirement");
    expect((await text.inject("/lifecycle?kind=tier&format=md")).statusCode).toBe(400);
    const service = await text.inject("/aws/eks?format=md");
    expect(service.statusCode).toBe(200);
    expect(service.body).toContain("## Versions and tiers");
    // Markdown escapes a cell's leading "1." (it would read as a list item): \1.34.
    expect(service.body).toMatch(
      /\| \\?1\.34 \| 2025-10-06 \| 2026-12-02 \| 2027-12-02 \| (supported|paid extended support|ended) \|/,
    );
    // What extended support means and costs, from the vendor's page (issue 113).
    expect(service.body).toContain("Extended support (from End of standard support): ");
    expect(service.body).toContain("an additional cost per cluster hour");
    await text.close();
  });

  it("heads /lifecycle?within=30&kind=version with its window, its feed links asking the same (issue 113)", async () => {
    const text = await buildText({ catalogue: realCatalogue() });
    onTestFinished(() => text.close());
    const page = await text.inject("/lifecycle?within=30&kind=version&provider=aws,azure&format=md");
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/^## Next 30 days \(\d+\)$/m);
    expect(page.body).not.toContain("Next 90 days");
    expect(page.body).toContain("provider aws or azure, kind version");
    for (const feed of ["/v1/lifecycle.atom", "/v1/lifecycle.ics", "/v1/lifecycle"])
      expect(page.body).toContain(`(${feed}?provider=aws%2Cazure&within=30d&kind=version)`);
    const lists = await text.inject("/lifecycle?status=deprecated,preview&format=md");
    expect(lists.statusCode).toBe(200);
    expect(lists.body).toContain("status deprecated or preview");
  });

  it("shows a service's sources and what each kind of fact was verified by on a service page", async () => {
    const text = await buildText({
      catalogue: fixtureCatalogue(),
    });
    const page = await text.inject("/aws/s3?format=md");
    expect(page.body).toContain("- **Verified:** identity 2026-11-25; description 2026-11-25; compliance 2026-11-20");
    expect(page.body).toContain("## Sources\n");
    expect(page.body).toContain("— backs compliance; retrieved 2026-11-20");
  });
});

describe("the text host's protocol", () => {
  async function hosts() {
    const store = await tempStore();
    const catalogue = fixtureCatalogue();
    const config = { LOG_LEVEL: "silent", TRUST_PROXY: undefined } as const;
    const api = await buildApp({ config, catalogue, store, urls: URLS });
    onTestFinished(() => api.close());
    const text = await buildTextApp({ config, catalogue, store, api, perMinute: 10_000 });
    onTestFinished(() => text.close());
    return { api, text };
  }

  it("answers /v1/* requests refused before routing in the API's Error shape", async () => {
    const { text } = await hosts();
    await text.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(text.server.address() as AddressInfo).port}`;
    const shaped = (answer: RawAnswer | "hang", status: number) => {
      expect(answer).not.toBe("hang");
      const { headers, body } = answer as RawAnswer;
      expect(headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(JSON.parse(body)).toMatchObject({ status, error: expect.any(String) });
    };
    // Refused by node's parser: headers over 16 KiB; conflicting framing.
    shaped(await rawRequest(base, { path: "/v1/services", headers: { "x-big": "a".repeat(20_000) } }), 431);
    const framing = await socketExchange(
      base,
      "GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
      3000,
    );
    expect(framing.answer).toMatch(/^HTTP\/1\.1 400 [^\r]*\r\nContent-Type: application\/json/);
    // Refused by Fastify before the API sees it: a body over the limit, with the API's own title.
    const large = await rawRequest(base, {
      method: "POST",
      path: "/v1/feedback",
      headers: { "content-type": "application/json" },
      body: "x".repeat(70_000),
    });
    shaped(large, 413);
    expect(JSON.parse((large as RawAnswer).body)).toMatchObject({ error: "Payload too large" });
    shaped(await rawRequest(base, { path: "/v1/%zz" }), 400);
    // A page of the text host keeps its plain-text errors.
    const page = await rawRequest(base, { path: "/aws", headers: { "x-big": "a".repeat(20_000) } });
    expect((page as RawAnswer).headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("answers a wrong method on a known page with 405 and Allow, in the request's rendering", async () => {
    const { text } = await hosts();
    for (const [method, url] of [
      ["POST", "/aws"],
      ["DELETE", "/aws/s3"],
      ["PUT", "/search"],
      ["PATCH", "/compare/aws-s3,stackit-object-storage"],
      ["DELETE", "/lists/some-list"],
      ["POST", "/lifecycle"],
      ["POST", "/"],
    ] as const) {
      const answer = await text.inject({ method, url, headers: { "user-agent": "curl/8" } });
      expect(answer.statusCode, `${method} ${url}`).toBe(405);
      expect(answer.headers.allow, `${method} ${url}`).toBe("GET, HEAD");
      expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(answer.body).toContain("405 Method not allowed");
    }
    const feedback = await text.inject({ method: "PUT", url: "/feedback", headers: { accept: "text/markdown" } });
    expect(feedback.statusCode).toBe(405);
    expect(feedback.headers.allow).toBe("POST");
    expect(feedback.body).toMatch(/^# 405 Method not allowed/);
    // Nothing at the path: still 404; the API's paths answer as the API does.
    expect((await text.inject({ method: "POST", url: "/no-such-provider" })).statusCode).toBe(404);
    const apiPath = await text.inject({ method: "DELETE", url: "/v1/providers" });
    expect(apiPath.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("weighs Accept q-values: a type at q=0 is never sent, the higher q wins", async () => {
    const { text } = await hosts();
    const typeOf = async (accept: string) =>
      (await text.inject({ url: "/aws", headers: { accept } })).headers["content-type"];
    expect(await typeOf("text/markdown;q=0, text/plain")).toBe("text/plain; charset=utf-8");
    expect(await typeOf("text/markdown;q=0")).toBe("text/plain; charset=utf-8");
    expect(await typeOf("text/html;q=0, */*")).toBe("text/plain; charset=utf-8");
    expect(await typeOf("text/html;q=0.5, text/markdown")).toBe("text/markdown; charset=utf-8");
    expect(await typeOf("text/markdown;q=0.4, text/html;q=0.9")).toBe("text/html; charset=utf-8");
    expect(await typeOf("text/plain, text/markdown;q=0.5")).toBe("text/plain; charset=utf-8");
    expect(await typeOf("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(
      "text/html; charset=utf-8",
    );
    expect(await typeOf("*/*")).toBe("text/plain; charset=utf-8");
    expect(await typeOf("text/markdown, text/html")).toBe("text/markdown; charset=utf-8");
  });

  it("sends Vary: Accept, Accept-Encoding, COLUMNS on /search (not User-Agent, which splits caches per browser)", async () => {
    const { text } = await hosts();
    const search = await text.inject({ url: "/search?q=s3", headers: { "user-agent": "curl/8" } });
    expect(search.statusCode).toBe(200);
    expect(search.headers.vary).toBe("Accept, Accept-Encoding, COLUMNS");
    // Compressed, Accept-Encoding is named once (issue 116: the compression plugin added it again).
    const compressed = await text.inject({
      url: "/search?q=object+storage",
      headers: { accept: "text/html", "accept-encoding": "br, gzip" },
    });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers.vary).toBe("Accept, Accept-Encoding, COLUMNS");
  });
});
