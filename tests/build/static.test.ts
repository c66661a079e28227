import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { categoryTables } from "../../catalogue/render/pages.ts";
import { apiFiles, mirrored, textFiles } from "../../catalogue/outputs/static.ts";
import { MIRROR_DEPTH } from "../../catalogue/contract/openapi.ts";
import { listFiles } from "../../scripts/build.ts";
import { buildInputsHash, buildIsFresh } from "../../build/inputs.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { StoreUnavailableError } from "../../sidecar/store/store.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { build, FIXTURE_DIR, fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

let dist: string;
beforeAll(async () => {
  // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
  dist = await fixtureBuild(URLS);
});

/** The request that a dist/api file answers. */
function apiUrlOf(file: string): string {
  if (file === "index.json") return "/";
  if (file === "openapi.json") return "/openapi.json";
  const page = /^v1\/services\/pages\/(\d+)\.json$/.exec(file);
  if (page) return `/v1/services?page=${page[1]}`;
  return `/${file.replace(/\.json$/, "")}`;
}

describe("the static build", () => {
  it("writes every kind of file byte-identical to what the servers compute on the fly", async () => {
    const catalogue = fixtureCatalogue();
    const api = await build({ catalogue });
    for (const { file, body } of apiFiles(catalogue, URLS)) {
      if (file === "catalogue.json" || file === "catalogue-source.json") continue; // no dynamic route; checked below
      const response = await api.inject({ url: apiUrlOf(file), headers: { "accept-encoding": "identity" } });
      expect(response.statusCode, file).toBe(200);
      expect(response.body, file).toBe(body);
      expect(readFileSync(join(dist, "api", file), "utf8"), file).toBe(body);
    }
    // The build's URLs, which its pages name (a calendar's address: catalogue/render/calendar.ts).
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store: await tempStore(),
      perMinute: 10_000,
      urls: URLS,
    });
    for (const { file, body } of textFiles(catalogue, URLS)) {
      const [page, format] = [file.slice(0, file.lastIndexOf(".")), file.slice(file.lastIndexOf(".") + 1)];
      const url = `/${page.replace(/(^|\/)index$/, "")}?format=${format}`;
      const response = await text.inject({ url, headers: { "accept-encoding": "identity" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(body);
      expect(readFileSync(join(dist, "text", file), "utf8"), file).toBe(body);
    }
    await text.close();
    const dump = JSON.parse(readFileSync(join(dist, "api", "catalogue.json"), "utf8"));
    expect(dump.services).toHaveLength(catalogue.services.length);
    expect(dump.services[0]).toEqual(JSON.parse((await api.inject(`/v1/services/${dump.services[0].slug}`)).body));
  });

  it("lists every file under dist/ but the server bundles in the manifest with sha256 and size", async () => {
    const manifest = JSON.parse(readFileSync(join(dist, "api", "manifest.json"), "utf8")) as {
      files: { path: string; sha256: string; size: number }[];
    };
    // The site's server bundles stay out: mirrors do not get them (the mirror row withholds them).
    const onDisk = (await listFiles(dist)).filter(
      (path) => path !== "api/manifest.json" && path !== "build-info.json" && mirrored(path),
    );
    expect(manifest.files.map((file) => file.path)).toEqual(onDisk);
    const { createHash } = await import("node:crypto");
    for (const file of manifest.files.slice(0, 50)) {
      const body = readFileSync(join(dist, file.path));
      expect(file.size).toBe(body.length);
      expect(file.sha256).toBe(createHash("sha256").update(body).digest("hex"));
    }
    // OpenAPI describes /mirror/ one template per depth, up to the deepest a build writes.
    expect(manifest.files.filter((file) => file.path.split("/").length > MIRROR_DEPTH)).toEqual([]);
    expect(onDisk.some((path) => path.endsWith(".br"))).toBe(true);
    expect(onDisk.some((path) => path.endsWith(".gz"))).toBe(true);
  });

  it("shows a service's sources and its compliance apart from what its provider holds on the site's service page", () => {
    const html = readFileSync(join(dist, "site", "client", "aws", "s3", "index.html"), "utf8");
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("https://docs.aws.amazon.com/s3/ — backs identity, description; retrieved 2026-11-25");
    expect(text).toContain(
      "https://aws.amazon.com/compliance/services-in-scope/PCI/ — backs compliance; retrieved 2026-11-20",
    );
    expect(text).toMatch(/Verified identity 2026-11-25 ; description 2026-11-25 ; compliance 2026-11-20/);
    expect(html).toMatch(/<dd[^>]*data-compliance="service"[^>]*>PCI DSS<\/dd>/);
    expect(text).toContain(
      "Provider (AWS) AWS holds SOC 2; which services are in scope: https://aws.amazon.com/compliance/services-in-scope/",
    );
    expect(text).toContain(
      "AWS holds ISO/IEC 27001 provider-wide; the catalogue cites no list of the services in scope",
    );
    const lambda = readFileSync(join(dist, "site", "client", "aws", "lambda", "index.html"), "utf8");
    expect(lambda).toMatch(
      /<dd[^>]*data-compliance="service"[^>]*>Not known: no scope list the catalogue holds names this service<\/dd>/,
    );
    expect(lambda).toContain("No vendor page is recorded for this service yet");
    expect(lambda).not.toContain("Verified");
  });

  it("shows what a service needs to be usable, with why and the source, on the site's service page", () => {
    const html = readFileSync(join(dist, "site", "client", "aws", "lambda", "index.html"), "utf8");
    const text = html
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ");
    expect(html).toMatch(/<h2[^>]*id="dependencies"[^>]*>Needs to be usable<\/h2>/);
    expect(text).toContain(
      "logs:CreateLogGroup, logs:CreateLogStream, logs:PutLogEvents — a Lambda function's execution role writes its logs",
    );
    expect(text).toContain(
      "Source: https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html (checked 2026-11-26 )",
    );
    expect(html.indexOf('id="dependencies"')).toBeLessThan(html.indexOf('id="sources"'));
    const s3 = readFileSync(join(dist, "site", "client", "aws", "s3", "index.html"), "utf8");
    expect(s3).not.toContain('id="dependencies"');
  });

  it("counts a category's services as the shared categoryTables does, with as many rows as it says", () => {
    const catalogue = fixtureCatalogue();
    for (const category of catalogue.categories) {
      const { rows, summary } = categoryTables(catalogue, category.id);
      if (rows === 0) continue;
      const html = readFileSync(join(dist, "site", "client", "category", category.id, "index.html"), "utf8");
      const shown = /<p[^>]*data-category-summary[^>]*>([^<]*)<\/p>/.exec(html)?.[1]?.trim();
      expect(shown, category.id).toBe(summary);
      expect(html.match(/<tr[^>]* data-slug=/g)?.length ?? 0, category.id).toBe(rows);
    }
  });

  it("gives the site's compare page the compliance programmes' names to show in place of the API's ids", () => {
    const html = readFileSync(join(dist, "site", "client", "compare", "index.html"), "utf8");
    const attribute = /data-compliance-names="([^"]*)"/.exec(html)?.[1];
    expect(attribute).toBeDefined();
    const names = JSON.parse(
      attribute!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&"),
    );
    expect(names).toEqual(Object.fromEntries(fixtureCatalogue().compliance));
    expect(names["pci-dss"]).toBe("PCI DSS");
  });

  it("keeps a space between code and the words around it on every built page", async () => {
    // "the API's<code>POST</code>" reads as one word: Astro drops a line break before an element.
    const glued = /[\p{L}\p{N},;:.!?]<code[\s>]|<\/code>[\p{L}\p{N}(]/gu;
    const pages = (await listFiles(join(dist, "site", "client"))).filter((path) => path.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(20);
    const found = pages.flatMap((path) => {
      const html = readFileSync(join(dist, "site", "client", path), "utf8");
      return [...html.matchAll(glued)].map((m) => `${path}: …${html.slice(Math.max(0, m.index - 30), m.index + 30)}…`);
    });
    expect(found).toEqual([]);
  });

  it("detects a stale build when data changes", async () => {
    const copy = mkdtempSync(join(tmpdir(), "csc-data-"));
    cpSync(FIXTURE_DIR, copy, { recursive: true });
    const before = await buildInputsHash(URLS, copy);
    expect(await buildIsFresh(dist, await buildInputsHash(URLS, FIXTURE_DIR))).toBe(true);
    writeFileSync(
      join(copy, "services", "stackit", "object-storage.yaml"),
      readFileSync(join(copy, "services", "stackit", "object-storage.yaml"), "utf8").replace("German", "German-run"),
    );
    expect(await buildInputsHash(URLS, copy)).not.toBe(before);
    expect(await buildInputsHash({ ...URLS, apiUrl: "https://elsewhere" }, FIXTURE_DIR)).not.toBe(
      await buildInputsHash(URLS, FIXTURE_DIR),
    );
    expect(await buildIsFresh(join(copy, "nowhere"), before)).toBe(false);
    rmSync(copy, { recursive: true, force: true });
  });
});

describe("serving the build", () => {
  let api: FastifyInstance;
  let text: FastifyInstance;
  let store: EmbeddedStore;
  const storeDir = mkdtempSync(join(tmpdir(), "csc-store-"));
  beforeAll(async () => {
    const files = await BuiltFiles.open(dist);
    const catalogue = loadCatalogue(FIXTURE_DIR);
    store = await EmbeddedStore.open(storeDir);
    api = await buildApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store,
      urls: URLS,
      files,
    });
    text = await buildTextApp({ config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined }, catalogue, store, files });
  });
  afterAll(async () => {
    await Promise.all([api?.close(), text?.close()]);
    await store?.close();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it("serves JSON with a strong ETag, cache header and CORS, and 304 on If-None-Match", async () => {
    const response = await api.inject({ url: "/v1/providers", headers: { "accept-encoding": "identity" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await api.inject({
      url: "/v1/providers",
      headers: { "accept-encoding": "identity", "if-none-match": response.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("answers a Range with 206, and an unsatisfiable one with 416 in the Error shape, not kept", async () => {
    const part = await api.inject({
      url: "/v1/providers",
      headers: { range: "bytes=0-9", "accept-encoding": "identity" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.body).toHaveLength(10);
    const size = readFileSync(join(dist, "api", "v1", "providers.json")).length;
    for (const range of ["bytes=5-1", "bytes=999999999-"]) {
      const refused = await api.inject({ url: "/v1/providers", headers: { range } });
      expect(refused.statusCode, range).toBe(416);
      expect(refused.json()).toMatchObject({ error: "Range not satisfiable", status: 416 });
      expect(refused.headers["cache-control"]).toBe("no-store");
      // RFC 9110 §15.5.17: the 416 says the representation's length (issue 126: it did not).
      expect(refused.headers["content-range"], range).toBe(`bytes */${size}`);
    }
    expect(part.headers["content-range"]).toBe(`bytes 0-9/${size}`);
  });

  it("resumes a download whose If-Range is the current ETag, and sends the whole file for any other", async () => {
    // Issue 126: If-Range with the current ETag answered 200 with the whole file, so a resumed download started over.
    const headers = { "accept-encoding": "identity" };
    const whole = await api.inject({ url: "/v1/providers", headers });
    const etag = whole.headers.etag as string;
    const resumed = await api.inject({
      url: "/v1/providers",
      headers: { ...headers, range: "bytes=10-", "if-range": etag },
    });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.body).toBe(whole.body.slice(10));
    expect(resumed.headers.etag).toBe(etag);
    for (const ifRange of ['"another-version"', `W/${etag}`, "Sat, 01 Jan 2000 00:00:00 GMT"]) {
      const changed = await api.inject({
        url: "/v1/providers",
        headers: { ...headers, range: "bytes=10-", "if-range": ifRange },
      });
      expect(changed.statusCode, ifRange).toBe(200);
      expect(changed.body, ifRange).toBe(whole.body);
      expect(changed.headers["content-range"], ifRange).toBeUndefined();
    }
  });

  it("chooses brotli or gzip from Accept-Encoding using the precompressed files", async () => {
    const plain = (await api.inject({ url: "/openapi.json", headers: { "accept-encoding": "identity" } })).body;
    const br = await api.inject({ url: "/openapi.json", headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await api.inject({ url: "/openapi.json", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    expect(br.headers.vary).toContain("Accept-Encoding");
  });

  /** An app answering every path with api/v1/providers.json of a copy of dist/api/, changed first by `prepare`. */
  async function serveProvidersFrom(prepare: (apiDir: string) => void = () => undefined) {
    const copy = mkdtempSync(join(tmpdir(), "csc-dist-"));
    cpSync(join(dist, "api"), join(copy, "api"), { recursive: true });
    prepare(join(copy, "api"));
    const files = await BuiltFiles.open(copy);
    const app = Fastify();
    await files.register(app);
    app.get("/*", async (request, reply) => {
      if (!(await files.send(request, reply, "api/v1/providers.json"))) await reply.code(404).send();
      return reply;
    });
    return { copy, app };
  }

  it("answers a compressed request from the compressed file alone, its ETag the plain file's with the encoding", async () => {
    // Without the plain file, only a read of it could fail the compressed answer.
    const { copy, app } = await serveProvidersFrom((apiDir) => rmSync(join(apiDir, "v1", "providers.json")));
    const br = await app.inject({ url: "/", headers: { "accept-encoding": "br" } });
    const plain = await api.inject({ url: "/v1/providers", headers: { "accept-encoding": "identity" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);
    expect((await app.inject({ url: "/", headers: { "accept-encoding": "identity" } })).statusCode).toBe(404);
    await app.close();
    rmSync(copy, { recursive: true, force: true });
  });

  it("answers a small file from memory once read, and streams a Range request from disk", async () => {
    const { copy, app } = await serveProvidersFrom();
    const first = await Promise.all(
      ["br", "gzip", "identity"].map((encoding) => app.inject({ url: "/", headers: { "accept-encoding": encoding } })),
    );
    // Gone from disk: only memory can answer now.
    rmSync(join(copy, "api", "v1"), { recursive: true });
    for (const [index, encoding] of ["br", "gzip", "identity"].entries()) {
      const again = await app.inject({ url: "/", headers: { "accept-encoding": encoding } });
      expect(again.statusCode, encoding).toBe(200);
      expect(again.rawPayload.equals(first[index]!.rawPayload), encoding).toBe(true);
      for (const header of ["etag", "content-type", "content-length", "content-encoding", "vary", "cache-control"])
        expect(again.headers[header], `${encoding} ${header}`).toBe(first[index]!.headers[header]);
      const head = await app.inject({ method: "HEAD", url: "/", headers: { "accept-encoding": encoding } });
      expect(head.body).toBe("");
      expect(head.headers["content-length"]).toBe(again.headers["content-length"]);
      const etag = String(again.headers.etag);
      const notModified = await app.inject({
        url: "/",
        headers: { "accept-encoding": encoding, "if-none-match": etag },
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe("");
    }
    expect(first[0]!.headers["content-encoding"]).toBe("br");
    expect(first[1]!.headers["content-encoding"]).toBe("gzip");
    expect(first[2]!.headers["content-length"]).toBe(String(first[2]!.rawPayload.length));
    // A Range request is @fastify/static's, read from disk: the file is gone there.
    const range = await app.inject({ url: "/", headers: { "accept-encoding": "identity", range: "bytes=0-9" } });
    expect(range.statusCode).toBe(404);
    await app.close();
    rmSync(copy, { recursive: true, force: true });
  });

  it("counts the text host's built pages against the client's limit, with the limiter's headers", async () => {
    const limited = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: loadCatalogue(FIXTURE_DIR),
      store,
      files: await BuiltFiles.open(dist),
      perMinute: 3,
    });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await limited.inject({ url: "/aws", headers: { accept: "*/*" } }));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.slice(0, 3).map((answer) => answer.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"]);
    // A built page: the build's strong ETag, not a computed one.
    expect(answers[0]!.headers.etag).toMatch(/^"[0-9a-f]{32}(-br|-gz)?"$/);
    expect(answers[3]!.headers["retry-after"]).toBeDefined();
    await limited.close();
  });

  it("rewrites the build's URLs when served at others, reading a file once for concurrent requests", async () => {
    const moved = "http://moved.example:9000";
    const files = await BuiltFiles.open(dist, { rewrite: [[URLS.apiUrl, moved]] });
    const app = await buildApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: loadCatalogue(FIXTURE_DIR),
      store,
      urls: { ...URLS, apiUrl: moved },
      files,
    });
    const answers = await Promise.all(
      ["identity", "br", "identity"].map((encoding) =>
        app.inject({ url: "/", headers: { "accept-encoding": encoding } }),
      ),
    );
    const [plain, br] = answers;
    expect(plain!.statusCode).toBe(200);
    expect(plain!.body).toContain(moved);
    expect(plain!.body).not.toContain(URLS.apiUrl);
    // The build's compressed siblings hold the old URLs: the rewritten text is compressed on the fly.
    expect(br!.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br!.rawPayload).toString()).toBe(plain!.body);
    expect(answers[2]!.body).toBe(plain!.body);
    const again = await app.inject({ url: "/", headers: { "if-none-match": String(plain!.headers.etag) } });
    expect(again.statusCode).toBe(304);
    await app.close();
  });

  it("rewrites a calendar's webcal:// address with its https one when served at another address", async () => {
    // Issue 126: the pages offer each calendar as webcal://<the API's host>/…, which names the host too.
    const moved = "https://api.moved.example";
    const files = await BuiltFiles.open(dist, { rewrite: [[URLS.apiUrl, moved]] });
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      files,
      urls: { ...URLS, apiUrl: moved },
    });
    for (const url of ["/lifecycle/", "/lifecycle?format=md", "/aws?format=md"]) {
      const answer = await text.inject({ url, headers: { accept: "text/html", "accept-encoding": "identity" } });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, url).toContain("webcal://api.moved.example/v1/lifecycle.ics");
      expect(answer.body, url).not.toContain(URLS.apiUrl.replace(/^https?:/, "webcal:"));
    }
    await text.close();
  });

  it("answers HEAD with headers and no body", async () => {
    const head = await api.inject({
      method: "HEAD",
      url: "/v1/services/aws-s3",
      headers: { "accept-encoding": "identity" },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.body).toBe("");
  });

  it("renders a saved list on demand, and answers 503 on the list page when storage is down", async () => {
    const siteHandler = (await loadSiteHandler(dist))!;
    const catalogue = fixtureCatalogue();
    const store = await tempStore();
    const list = await store.createList({
      id: "abcdefghijklmnopqrstu",
      name: "Team <b>",
      approvedServiceIds: ["aws-s3", "aws-old-thing"],
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
      slug: "team",
    });
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
    const healthy = await buildTextApp({ config, catalogue, store, siteHandler });
    const page = await healthy.inject({ url: `/lists/${list.slug}`, headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Team &lt;b&gt;");
    expect(page.body).toContain("Lifecycle warnings");
    expect(page.body).toContain("/v1/lists/team/lifecycle.ics");
    const plain = await healthy.inject({ url: `/lists/${list.slug}?format=md` });
    expect(plain.body).toContain("Lifecycle warnings (deprecated, retired or sunset within 180 days): ");
    expect(plain.body).toContain("/v1/lists/team/lifecycle.ics");
    expect((await healthy.inject({ url: "/lists/nothing-here", headers: { accept: "text/html" } })).statusCode).toBe(
      404,
    );
    await healthy.close();
    const broken = Object.create(store, {
      getList: { value: () => Promise.reject(new StoreUnavailableError("down")) },
    }) as typeof store;
    const down = await buildTextApp({ config, catalogue, store: broken, siteHandler });
    const unavailable = await down.inject({ url: "/lists/team", headers: { accept: "text/html" } });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.body).toContain("cannot be read right now");
    expect((await down.inject({ url: "/lists/team", headers: { "user-agent": "curl/8" } })).statusCode).toBe(503);
    await down.close();
  });

  it("answers malformed paths on both hosts with a 4xx in the host's format, never a 5xx", async () => {
    for (const url of [
      "//",
      "///etc/passwd",
      "/mirror/%ZZ",
      "/mirror/%E0%A4%A",
      "/%",
      "/_astro/%2e%2e/x",
      "/aws//s3",
      "/?format[]=x",
    ]) {
      const fromApi = await api.inject(url);
      expect(fromApi.statusCode, `api ${url}`).toBeLessThan(500);
      if (fromApi.statusCode >= 400) expect(fromApi.json(), `api ${url}`).toMatchObject({ status: fromApi.statusCode });
      for (const accept of ["*/*", "text/html"]) {
        const fromText = await text.inject({ url, headers: { accept } });
        expect(fromText.statusCode, `text ${url} ${accept}`).toBeLessThan(500);
        expect(fromText.headers["content-type"], `text ${url} ${accept}`).toBe(
          accept === "text/html" ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
        );
      }
    }
  });

  it("answers unknown paths and traversal attempts with 404 in the Error shape", async () => {
    for (const url of [
      "/v1/nothing",
      "/v1/services/..%2f..%2fpackage.json",
      "/mirror/../package.json",
      "/mirror/%2e%2e/package.json",
      "/v1/services/%2e%2e",
    ]) {
      const response = await api.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ status: 404, error: expect.any(String) });
    }
  });

  it("negotiates the text host: ANSI for curl, Markdown on Accept, format and color overrides", async () => {
    const curl = await text.inject({ url: "/aws", headers: { "user-agent": "curl/8.5.0", accept: "*/*" } });
    expect(curl.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(curl.body).toContain("\u001b[");
    expect(curl.headers.vary).toContain("Accept");
    const md = await text.inject({ url: "/aws", headers: { accept: "text/markdown" } });
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.body.startsWith("# Amazon Web Services")).toBe(true);
    const plain = await text.inject({ url: "/aws/s3?color=never" });
    expect(plain.body).not.toContain("\u001b[");
    expect((await text.inject({ url: "/aws/aws-s3?format=md", headers: { accept: "text/html" } })).body).toBe(
      (await text.inject("/aws/s3?format=md")).body,
    );
    const missing = await text.inject({ url: "/aws/nothing", headers: { "user-agent": "curl/8" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(missing.body).not.toContain("<");
  });

  it("shows at most 8 services on the text host's compare page and says so", async () => {
    const catalogue = fixtureCatalogue();
    const ids = catalogue.services.map((s) => s.slug).join(",");
    const response = await text.inject(`/compare/${ids}?format=md`);
    expect(response.statusCode).toBe(200);
    expect(catalogue.services.length).toBeLessThanOrEqual(8);
    expect(response.body.match(/^## /gm)).toHaveLength(catalogue.services.length);
  });
});
