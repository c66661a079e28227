/**
 * The site's request-dependent pages, rendered by Astro on demand (site/src/pages/on-demand/) for
 * the text host: the compare form and a shared /compare/a,b, /search?q=, the matrix's chosen
 * columns and category, the feedback form refused, and the 429 page. Rendered from the data, not
 * patched into built HTML, so the markup is whatever the .astro files say.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { buildTextApp, loadSiteHandler, siteEntry } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

const HTML = { accept: "text/html" };
/** The markup between two tags, white space between tags dropped (Astro may keep some). */
const squeeze = (html: string) => html.replace(/>\s+</g, "><");

describe("the site's pages rendered on demand by the text host", () => {
  let dist: string;
  let data: string;
  let store: EmbeddedStore;
  let text: FastifyInstance;
  let limited: FastifyInstance;
  let inWorker: FastifyInstance;
  let worker: HeavyWorker;
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), "csc-on-demand-data-"));
    // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
    dist = await fixtureBuild({ apiUrl: "http://127.0.0.1:1", textUrl: "http://127.0.0.1:2" });
    store = await EmbeddedStore.open(data);
    const siteHandler = await loadSiteHandler(dist);
    if (!siteHandler) throw new Error("the build has no on-demand handler");
    const files = await BuiltFiles.open(dist);
    const options = {
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      files,
      siteHandler,
    } as const;
    text = await buildTextApp({ ...options, perMinute: 10_000 });
    // A store of its own: the other app\'s requests count in the same bucket of the same client.
    limited = await buildTextApp({ ...options, store: await tempStore(), perMinute: 1 });
    // As the server runs them: in the heavy computations' thread, which loads the build's catalogue.
    worker = new HeavyWorker({ distDir: dist }, URLS, store, siteEntry(dist));
    inWorker = await buildTextApp({ ...options, perMinute: 10_000, pageWorker: worker });
  }, 240_000);
  afterAll(async () => {
    await text?.close();
    await limited?.close();
    await inWorker?.close();
    await worker?.close();
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("renders the compare form's ?ids= and a shared /compare/a,b with the comparison, unknown ids named", async () => {
    const form = await text.inject({ url: "/compare/?ids=aws-s3,ovhcloud-object-storage&ids=nope-x", headers: HTML });
    expect(form.statusCode).toBe(200);
    const body = squeeze(form.body);
    expect(body).toMatch(/<input[^>]*id="compare-ids"[^>]*value="aws-s3,ovhcloud-object-storage,nope-x"/);
    expect(body).toMatch(/data-compare-note[^>]*>Not in the catalogue: nope-x\. Comparing the rest\.<\/p>/);
    expect(body).not.toMatch(/data-compare-note[^>]*hidden/);
    expect(body).toMatch(
      /data-compare-result[^>]*><table[^>]*>.*<a href="\/aws\/s3">Amazon Simple Storage Service<\/a>/,
    );
    expect(body).toMatch(/<th scope="row">Provider[^<]*<\/th><td>Amazon Web Services<\/td><td>OVHcloud<\/td>/);
    const shared = squeeze(
      (await text.inject({ url: "/compare/ovhcloud-object-storage,nope-x,aws-s3", headers: HTML })).body,
    );
    expect(shared).toMatch(/value="ovhcloud-object-storage,nope-x,aws-s3"/);
    expect(shared).toContain("Not in the catalogue: nope-x. Comparing the rest.");
    // Each service's own programmes (the fixture's S3: PCI DSS), then, apart, what each provider holds.
    expect(shared).toContain('<th scope="row">Compliance (this service)</th><td>—</td><td>PCI DSS</td>');
    expect(shared).toMatch(
      /<th scope="row">Provider holds<\/th><td>ISO\/IEC 27001[^<]*<\/td><td>SOC 2, ISO\/IEC 27001<\/td>/,
    );
    expect(shared).not.toMatch(/<td>[^<]*\b(fedramp-high|iso-27001)\b/);
    const escaped = await text.inject({ url: "/compare/?ids=%3Cscript%3E", headers: HTML });
    expect(escaped.body).toContain("Not in the catalogue: &lt;script&gt;.");
    // In a quoted attribute, where it is text.
    expect(escaped.body).toMatch(/<input[^>]*id="compare-ids"[^>]*value="<script>"/);
    // The plain page is the built one; its note stays hidden.
    const plain = await text.inject({ url: "/compare/", headers: HTML });
    expect(plain.statusCode).toBe(200);
    expect(squeeze(plain.body)).toMatch(/data-compare-note[^>]*hidden/);
  });

  it("renders the same pages in the heavy computations' thread as on the event loop, HTML and text", async () => {
    for (const url of [
      "/compare/?ids=aws-s3,ovhcloud-object-storage&ids=nope-x",
      "/compare/ovhcloud-object-storage,aws-s3",
      "/search?q=storage",
      "/equivalents/?providers=aws,ovhcloud",
      "/equivalents/?providers=aws,ovhcloud&format=md",
      "/equivalents/object-storage?format=md",
      "/compare/aws-s3,nope-x?format=md",
      "/lifecycle?within=365&format=md",
      "/search?q=storage&format=txt",
    ]) {
      const ask = (app: FastifyInstance) => app.inject({ url, headers: url.includes("format=") ? {} : HTML });
      const [here, there] = [await ask(text), await ask(inWorker)];
      expect(there.statusCode, url).toBe(here.statusCode);
      expect(there.headers["content-type"], url).toBe(here.headers["content-type"]);
      expect(there.headers["cache-control"], url).toBe(here.headers["cache-control"]);
      expect(there.body, url).toBe(here.body);
    }
  });

  it("renders /search?q= with the results, the count and what the search understood", async () => {
    const found = squeeze((await text.inject({ url: "/search?q=lambda", headers: HTML })).body);
    expect(found).toMatch(/<input[^>]*id="search-q"[^>]*value="lambda"/);
    expect(found).toMatch(/data-search-status[^>]*>1 result<\/h2>/);
    // A table row: the pick box, then the service's link (issue 126: the search page is a table).
    expect(found).toMatch(
      /<tr data-slug="aws-lambda"><td class="pick"><input[^>]*value="aws-lambda"[^>]*><\/td><td><a href="\/aws\/lambda">AWS Lambda<\/a>/,
    );
    const none = squeeze((await text.inject({ url: "/search?q=xyzzyqwerty", headers: HTML })).body);
    expect(none).toMatch(/data-search-status[^>]*>No results<\/h2>/);
    expect(none).toMatch(
      /data-search-hint[^>]*>Nothing in the catalogue matches; try another name or fewer words\.<\/p>/,
    );
    // A respelt word is a link to its own search, a whole word.
    const respelt = squeeze((await text.inject({ url: "/search?q=kubernets", headers: HTML })).body);
    expect(respelt).toMatch(
      /data-search-respelt[^>]*>\s?Did you mean <a href="\/search\/\?q=kubernetes">kubernetes<\/a>\?/,
    );
    const filtered = squeeze((await text.inject({ url: "/search?q=storage&provider=ovhcloud", headers: HTML })).body);
    expect(filtered).toMatch(/<option value="ovhcloud" selected[^>]*>/);
    expect(filtered).not.toContain('href="/aws/s3"');
  });

  it("renders /search as a table people work in: filters of the filter table, sortable columns, picks (issue 126)", async () => {
    const page = squeeze((await text.inject({ url: "/search?q=storage&sort=service&dir=desc", headers: HTML })).body);
    // The form: every control of the filter table's site rows, sending the API's parameters.
    for (const name of ["provider", "category", "lifecycle", "compliance", "complianceScope", "jurisdiction"])
      expect(page, name).toMatch(new RegExp(`<select name="${name}" data-search-filter="${name}"`));
    expect(page).toMatch(/<input[^>]*name="region"[^>]*list="search-region-places"/);
    expect(page).toMatch(/<input type="checkbox" name="freeTier" value="true"/);
    expect(page).toMatch(/<input type="hidden" name="via" value="form">/);
    // A name given is the id the form shows.
    const named = squeeze((await text.inject({ url: "/search?q=storage&provider=OVH", headers: HTML })).body);
    expect(named).toMatch(/<option value="ovhcloud" selected[^>]*>/);
    // Columns sorted by the URL, each header a link to its sort.
    expect(page).toMatch(
      /<th scope="col" aria-sort="descending" data-sort="service"><a href="\/search\/\?q=storage&amp;sort=service&amp;dir=asc">Service<\/a>/,
    );
    const names = [...page.matchAll(/<td class="pick">.*?<\/td><td><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, "en", { numeric: true })));
    // Picks go to a comparison, or to the list builder, without JavaScript.
    expect(page).toMatch(/<form action="\/compare\/" method="get" class="search-picks"/);
    expect(page).toMatch(/<button type="submit" class="secondary" formaction="\/list\/"/);
    // The form's untouched fields are not filters; a URL's empty one is the API's 400, said on the page.
    const fromForm = await text.inject({
      url: "/search?via=form&q=storage&provider=&region=&lifecycle=",
      headers: HTML,
    });
    expect(fromForm.statusCode).toBe(200);
    const empty = await text.inject({ url: "/search?q=storage&region=", headers: HTML });
    expect(empty.statusCode).toBe(400);
    expect(squeeze(empty.body)).toMatch(/data-search-status[^>]*>400 Invalid query<\/h2>/);
    const unknown = await text.inject({ url: "/search?q=storage&provider=nope", headers: HTML });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("Unknown provider");
  });

  it("renders the matrix with the chosen columns ticked and alone in the page, other categories hidden", async () => {
    const chosen = squeeze((await text.inject({ url: "/equivalents/?providers=ovhcloud", headers: HTML })).body);
    expect(chosen).toMatch(/<input[^>]*value="ovhcloud"[^>]*checked/);
    expect(chosen).not.toMatch(/<input[^>]*value="aws"[^>]*checked/);
    expect(chosen).not.toMatch(/data-provider="aws"/);
    expect(chosen).toMatch(/<th scope="col" data-provider="ovhcloud"(?! hidden)[^>]*>/);
    expect(chosen).toMatch(/<tr data-category="storage" data-group="object-storage"(?! hidden)[^>]*>/);
    const other = squeeze((await text.inject({ url: "/equivalents/?category=containers", headers: HTML })).body);
    expect(other).toMatch(/<tr data-category="storage" data-group="object-storage" hidden[ >]/);
  });

  it("shows the feedback form again, refused, with the reason and what was written", async () => {
    const refused = await text.inject({
      method: "POST",
      url: "/feedback/",
      headers: { "content-type": "application/x-www-form-urlencoded", ...HTML },
      payload: new URLSearchParams({ type: "bug", message: "<b>", email: "x@example.com" }).toString(),
    });
    expect(refused.statusCode).toBe(400);
    const body = squeeze(refused.body);
    expect(body).toMatch(/data-feedback-status[^>]*><strong>Not sent\.<\/strong> Message [^<]*5 to 5000 characters/);
    expect(body).toMatch(/<textarea[^>]*id="fb-message"[^>]*>&lt;b&gt;<\/textarea>/);
    expect(body).toMatch(/<input[^>]*id="fb-email"[^>]*value="x@example.com"/);
  });

  it("answers a browser over the limit with the site's 429 page, saying when to retry", async () => {
    expect((await limited.inject({ url: "/aws", headers: HTML })).statusCode).toBe(200);
    const over = await limited.inject({ url: "/aws", headers: HTML });
    expect(over.statusCode).toBe(429);
    expect(over.headers["content-type"]).toMatch(/^text\/html/);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(squeeze(over.body)).toMatch(
      /<h1>Too many requests<\/h1><p data-limit-detail>This host(?:'|&#39;)s pages \(HTML, Markdown and text\) are limited to 1 requests per minute per IP\. Try again in \d+ seconds\.<\/p>/,
    );
  });

  it("names the configured text URL in every page, never the request's Host, and refuses a malformed Host", async () => {
    const urls = { apiUrl: "https://api.catalogue.example", textUrl: "https://catalogue.example" };
    const siteHandler = await loadSiteHandler(dist);
    const files = await BuiltFiles.open(dist);
    const options = {
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      files,
      siteHandler,
      urls,
    } as const;
    const configured = await buildTextApp({ ...options, store, perMinute: 10_000 });
    const tight = await buildTextApp({ ...options, store: await tempStore(), perMinute: 1 });
    try {
      const pages = [
        "/compare/?ids=aws-s3,ovhcloud-object-storage",
        "/compare/aws-s3,ovhcloud-object-storage",
        "/equivalents/?providers=aws,ovhcloud",
        "/search?q=storage",
      ];
      for (const url of pages) {
        const page = await configured.inject({ url, headers: { ...HTML, host: "evil.example" } });
        expect(page.statusCode, url).toBe(200);
        expect(page.body, url).toContain("curl https://catalogue.example/aws");
        expect(page.body, url).not.toContain("evil.example");
        // Not Host-dependent: kept by shared caches as the row says, without Vary: Host.
        expect(String(page.headers.vary ?? ""), url).not.toMatch(/host/i);
      }
      await tight.inject({ url: "/aws", headers: HTML });
      const over = await tight.inject({ url: "/aws", headers: { ...HTML, host: "evil.example" } });
      expect(over.statusCode).toBe(429);
      expect(over.body).toContain("curl https://catalogue.example/aws");
      expect(over.body).not.toContain("evil.example");
      // A Host the page's URL could not be built from: 400 in HTML, never Astro's 500 or a 404.
      for (const host of ["user@evil.example", "a b", "[::1"])
        for (const url of pages) {
          const refused = await configured.inject({ url, headers: { ...HTML, host } });
          expect(refused.statusCode, `${host} ${url}`).toBe(400);
          expect(refused.headers["content-type"]).toMatch(/^text\/html/);
        }
    } finally {
      await configured.close();
      await tight.close();
    }
  });
});
