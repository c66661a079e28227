import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Feedback } from "../../catalogue/ports.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { limitPage, matrixPage } from "../../sidecar/text/site.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";

async function textApp() {
  const store = await tempStore();
  const recorded: Feedback[] = [];
  const recordFeedback = store.recordFeedback.bind(store);
  store.recordFeedback = async (feedback) => {
    recorded.push(feedback);
    return recordFeedback(feedback);
  };
  const app = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store,
    perMinute: 10_000,
  });
  return { app, recorded };
}

const form = (fields: Record<string, string>, accept = "*/*") => ({
  method: "POST" as const,
  url: "/feedback/",
  headers: { "content-type": "application/x-www-form-urlencoded", accept },
  payload: new URLSearchParams(fields).toString(),
});

describe("the text host's /search", () => {
  it("answers curl with the API's ranking as text: the flagship first", async () => {
    const { app } = await textApp();
    const response = await app.inject({ url: "/search?q=s3", headers: { "user-agent": "curl/8", accept: "*/*" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = response.body.split("\n").filter((line) => /Amazon|S3/.test(line));
    expect(lines[0]).toContain("Amazon Simple Storage Service");
    await app.close();
  });

  it("answers Markdown with links to the service pages, and filters by provider", async () => {
    const { app } = await textApp();
    const response = await app.inject({
      url: "/search?q=kubernetes&provider=gcp",
      headers: { accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith("# Search: kubernetes")).toBe(true);
    expect(response.body).toContain("[Google Kubernetes Engine](/gcp/gke)");
    expect(response.body).not.toContain("/aws/");
    expect((await app.inject("/search/?format=md")).body).toContain("?q=");
    await app.close();
  });
});

describe("the text host's /search, what it understood", () => {
  it("says closest matches and did-you-mean in text, and fills the site page's hint line in HTML", async () => {
    const { app } = await textApp();
    const text = await app.inject({ url: "/search?q=postgress", headers: { accept: "text/markdown" } });
    expect(text.body).toContain("Did you mean “postgresql”?");
    const closest = await app.inject({
      url: "/search?q=kubernetes%20xyzzyqwerty",
      headers: { accept: "text/markdown" },
    });
    expect(closest.body).toContain("No service matches every word; these are the closest.");
    expect(closest.body).toContain("[Amazon Elastic Kubernetes Service](/aws/eks)");
    await app.close();

    const dist = mkdtempSync(join(tmpdir(), "csc-search-page-"));
    mkdirSync(join(dist, "site", "client", "search"), { recursive: true });
    writeFileSync(
      join(dist, "site", "client", "search", "index.html"),
      '<main><input id="search-q" name="q"><h2 tabindex="-1" data-search-status>Results</h2><p data-search-hint hidden></p><ol class="results" data-search-results></ol></main>',
    );
    const files = new BuiltFiles(dist, new Map([["site/client/search/index.html", "0".repeat(64)]]));
    const withPage = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store: await tempStore(),
      perMinute: 10_000,
      files,
    });
    const html = await withPage.inject({ url: "/search?q=postgress", headers: { accept: "text/html" } });
    expect(html.body).toContain("<p data-search-hint>Did you mean “postgresql”?</p>");
    const plain = await withPage.inject({ url: "/search?q=s3", headers: { accept: "text/html" } });
    expect(plain.body).toContain("<p data-search-hint hidden></p>");
    await withPage.close();
  });
});

describe("the text host's /equivalents", () => {
  it("renders the matrix: rows of kinds, the three largest providers as columns by default", async () => {
    const { app } = await textApp();
    const response = await app.inject({ url: "/equivalents", headers: { accept: "text/markdown" } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("# Equivalent services");
    expect(response.body).toMatch(/\| Kind \| AWS \| Azure \| Google Cloud \|/);
    expect(response.body).toMatch(/\[Object storage\]\(\/equivalents\/object-storage\) \| Amazon S3 \|/);
    await app.close();
  });

  it("takes columns and a category from the URL, names unknown providers, and renders one kind", async () => {
    const { app } = await textApp();
    const chosen = await app.inject({
      url: "/equivalents?providers=ovhcloud,nope&category=storage",
      headers: { accept: "text/markdown" },
    });
    expect(chosen.body).toMatch(/\| Kind \| OVHcloud \|\n/);
    expect(chosen.body).toContain("Unknown provider ids left out: nope.");
    expect(chosen.body).toContain("[Object storage](/equivalents/object-storage)");
    expect(chosen.body).not.toContain("Managed Kubernetes](/equivalents/");
    const one = await app.inject({ url: "/equivalents/object-storage", headers: { accept: "text/markdown" } });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain("## Amazon Web Services");
    expect(one.body).toContain("[Amazon Simple Storage Service](/aws/s3)");
    const missing = await app.inject({ url: "/equivalents/no-such-kind", headers: { accept: "text/plain" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain("No kind of service");
    await app.close();
  });
});

describe("the matrix page submitted without JavaScript", () => {
  it("shows and ticks the chosen providers' columns, hides the rest and the rows outside the category", () => {
    const page = [
      '<input type="checkbox" name="providers" value="aws" checked><input type="checkbox" name="providers" value="ovhcloud">',
      '<select name="category"><option value="">All</option><option value="storage">Storage</option></select>',
      '<th data-provider="aws">AWS</th><th data-provider="ovhcloud" hidden>OVHcloud</th>',
      '<tr data-category="storage" data-group="object-storage"><td data-provider="aws">S3</td><td data-provider="ovhcloud" hidden="">OS</td></tr>',
      '<tr data-category="containers" data-group="managed-kubernetes"><td data-provider="aws">EKS</td></tr>',
    ].join("");
    expect(matrixPage(page, ["ovhcloud"], "storage")).toBe(
      [
        '<input type="checkbox" name="providers" value="aws"><input type="checkbox" name="providers" value="ovhcloud" checked>',
        '<select name="category"><option value="">All</option><option value="storage" selected>Storage</option></select>',
        '<th data-provider="aws" hidden>AWS</th><th data-provider="ovhcloud">OVHcloud</th>',
        '<tr data-category="storage" data-group="object-storage"><td data-provider="aws" hidden>S3</td><td data-provider="ovhcloud">OS</td></tr>',
        '<tr data-category="containers" data-group="managed-kubernetes" hidden><td data-provider="aws" hidden>EKS</td></tr>',
      ].join(""),
    );
  });
});

describe("the compare form without JavaScript", () => {
  it("fills the site's compare page with the comparison, names unknown ids, and answers text too", async () => {
    const dist = mkdtempSync(join(tmpdir(), "csc-compare-page-"));
    mkdirSync(join(dist, "site", "client", "compare"), { recursive: true });
    writeFileSync(
      join(dist, "site", "client", "compare", "index.html"),
      '<main><noscript><form><input id="compare-ids" name="ids" type="text"></form></noscript><p class="notice info" role="status" data-compare-note hidden></p><div class="table-wrap compare" data-compare-result aria-live="polite"></div></main>',
    );
    const files = new BuiltFiles(dist, new Map([["site/client/compare/index.html", "0".repeat(64)]]));
    const app = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store: await tempStore(),
      perMinute: 10_000,
      files,
    });
    const html = await app.inject({
      url: "/compare/?ids=aws-s3,gcp-cloud-storage&ids=nope-x",
      headers: { accept: "text/html" },
    });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<input id="compare-ids" value="aws-s3,gcp-cloud-storage,nope-x"');
    expect(html.body).toContain(
      '<p class="notice info" role="status" data-compare-note>Not in the catalogue: nope-x. Comparing the rest.</p>',
    );
    expect(html.body).toMatch(
      /data-compare-result[^>]*><table>.*<a href="\/aws\/s3">Amazon Simple Storage Service<\/a>/,
    );
    expect(html.body).toContain('<th scope="row">Provider</th><td>Amazon Web Services</td><td>Google Cloud</td>');
    // A shared /compare/a,b link reads the same without JavaScript; compliance by the programmes' names.
    const shared = await app.inject({
      url: "/compare/azure-blob-storage,nope-x,aws-s3",
      headers: { accept: "text/html" },
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toContain('<input id="compare-ids" value="azure-blob-storage,nope-x,aws-s3"');
    expect(shared.body).toContain("data-compare-note>Not in the catalogue: nope-x. Comparing the rest.</p>");
    expect(shared.body).toContain('<th scope="row">Compliance</th><td>FedRAMP High</td><td>—</td></tr>');
    expect(shared.body).not.toMatch(/<td>[^<]*\b(fedramp-high|iso-27001)\b/);
    const escaped = await app.inject({ url: "/compare/?ids=%3Cscript%3E", headers: { accept: "text/html" } });
    expect(escaped.body).not.toContain("<script>");
    const text = await app.inject({
      url: "/compare?ids=aws-s3,gcp-cloud-storage",
      headers: { accept: "text/markdown" },
    });
    expect(text.body).toContain("## Amazon Simple Storage Service");
    const empty = await app.inject({ url: "/compare/", headers: { accept: "text/markdown" } });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain("/compare/aws-s3,gcp-cloud-storage");
    await app.close();
  });
});

describe("the feedback form without JavaScript", () => {
  it("records a form-encoded message with the same operation as POST /v1/feedback", async () => {
    const { app, recorded } = await textApp();
    const response = await app.inject(form({ type: "bug", message: "  The S3 page is wrong.  ", email: "" }));
    expect(response.statusCode).toBe(201);
    expect(response.body).toContain("Thank you");
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ type: "bug", message: "The S3 page is wrong." });
    await app.close();
  });

  it("refuses a whitespace-only or too short message and records nothing", async () => {
    const { app, recorded } = await textApp();
    const blank = await app.inject(form({ type: "general", message: "      " }));
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain("empty or only spaces");
    const short = await app.inject(form({ type: "general", message: "hi" }));
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/must be 5 to 5000 characters/);
    const email = await app.inject(form({ message: "A fine message", email: "not-an-address" }));
    expect(email.statusCode).toBe(400);
    expect(recorded).toHaveLength(0);
    await app.close();
  });
});

describe("the site's 429 page", () => {
  it("says what was limited and when to retry, escaped, in the site's own page", async () => {
    const dist = mkdtempSync(join(tmpdir(), "csc-limit-page-"));
    mkdirSync(join(dist, "site", "client", "429"), { recursive: true });
    writeFileSync(
      join(dist, "site", "client", "429", "index.html"),
      "<main><h1>Too many requests</h1><p data-limit-detail>\n  Try again in a minute.\n</p></main>",
    );
    const files = new BuiltFiles(dist, new Map([["site/client/429/index.html", "0".repeat(64)]]));
    expect(await limitPage(files, "Pages <b>are</b> limited to 60 requests per minute per IP.", 42)).toBe(
      "<main><h1>Too many requests</h1><p data-limit-detail>Pages &#60;b&#62;are&#60;/b&#62; limited to 60 requests per minute per IP. Try again in 42 seconds.</p></main>",
    );
    expect(await limitPage(undefined, "x", 1)).toBeUndefined();
  });
});

describe("the text host's feedback form and the limits", () => {
  it("counts the form in the feedback (relaxed) bucket it shares with POST /v1/feedback, not in the page limit", async () => {
    const store = await tempStore();
    const catalogue = realCatalogue();
    const config = { LOG_LEVEL: "silent", TRUST_PROXY: undefined } as const;
    const api = await buildApp({ config, catalogue, store, urls: URLS });
    // The text host's own limit: 60 pages a minute.
    const app = await buildTextApp({ config, catalogue, store, api });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await app.inject(form({ type: "bug", message: `Message number ${i}` }))).statusCode);
    expect(statuses).toEqual([...Array<number>(30).fill(201), 429]);
    const limited = await app.inject(form({ type: "bug", message: "One more message" }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.body).toContain("relaxed bucket");
    // The same bucket as the API's operation, whichever host it comes through.
    const viaApi = await app.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json" },
      payload: { type: "bug", message: "Through the API path" },
    });
    expect(viaApi.statusCode).toBe(429);
    // 32 form posts spent none of the 60 pages.
    for (let i = 0; i < 60; i++) expect((await app.inject({ url: "/aws?format=md" })).statusCode).toBe(200);
    await app.close();
    await api.close();
  });
});
