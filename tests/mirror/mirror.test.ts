/**
 * cloud-catalogue mirror and serve: a full verified copy, offline serving of reads and computed
 * endpoints, re-runs that fetch only what changed, resume after a failure, and an integrity
 * failure that leaves the previous mirror intact.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleCatalogue, loadCatalogue, type CatalogueSource } from "../../catalogue/load/load.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { currentDir, mirror } from "../../scripts/mirror.ts";
import { buildApp } from "../../sidecar/app.ts";
import { loadConfig } from "../../sidecar/config.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { startServer, type RunningServer } from "../../sidecar/server.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";
import { freePort } from "../helpers/components.ts";

const temp = (name: string) => mkdtempSync(join(tmpdir(), `csc-${name}-`));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Serves a build's files (and the sidecar routes) on a port, as a deployment would. */
async function serveDist(dist: string, dataDir: string, port: number): Promise<FastifyInstance> {
  const storeDir = temp("origin-store");
  dirs.push(storeDir);
  const url = `http://127.0.0.1:${port}`;
  const app = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: loadCatalogue(dataDir),
    store: await EmbeddedStore.open(storeDir),
    urls: { apiUrl: url, textUrl: "http://127.0.0.1:1" },
    files: await BuiltFiles.open(dist),
  });
  await app.listen({ port, host: "127.0.0.1" });
  return app;
}

/** An origin: a build of `dataDir` served on a port. */
async function origin(dataDir: string, port: number): Promise<{ url: string; dist: string; app: FastifyInstance }> {
  const url = `http://127.0.0.1:${port}`;
  const dist = temp("origin-dist");
  dirs.push(dist);
  await buildDist({
    dataDir,
    outDir: dist,
    urls: { apiUrl: url, textUrl: "http://127.0.0.1:1" },
    log: () => undefined,
  });
  return { url, dist, app: await serveDist(dist, dataDir, port) };
}

describe("cloud-catalogue mirror", () => {
  let data: string;
  let mirrorDir: string;
  let port: number;
  let first: Awaited<ReturnType<typeof mirror>>;
  let totalFiles: number;
  beforeAll(async () => {
    data = temp("data");
    dirs.push(data);
    cpSync(FIXTURE_DIR, data, { recursive: true });
    mirrorDir = temp("mirror");
    dirs.push(mirrorDir);
    port = await freePort();
    const server = await origin(data, port);
    first = await mirror(server.url, mirrorDir, () => undefined);
    totalFiles = (JSON.parse(readFileSync(join(server.dist, "api", "manifest.json"), "utf8")) as { files: unknown[] })
      .files.length;
    await server.app.close();
  }, 120_000);

  it("copies every file of the manifest, verified", () => {
    expect(first.fetched).toBe(totalFiles);
    expect(existsSync(join(currentDir(mirrorDir), "api", "v1", "services", "aws-s3.json"))).toBe(true);
    expect(existsSync(join(currentDir(mirrorDir), "site", "client", "aws", "s3", "index.html"))).toBe(true);
    // The site's server bundles (with the build machine's paths) are not published.
    expect(existsSync(join(currentDir(mirrorDir), "site", "server"))).toBe(false);
  });

  it("serves the mirror with the origin gone: reads, text host, site, compare, exposure and an SCP", async () => {
    const [apiPort, textPort] = [await freePort(), await freePort()];
    const distDir = join(mirrorDir, readlinkSync(currentDir(mirrorDir)));
    const source = JSON.parse(readFileSync(join(distDir, "api", "catalogue-source.json"), "utf8")) as CatalogueSource;
    const server: RunningServer = await startServer(
      loadConfig({
        PORT: String(apiPort),
        TEXT_PORT: String(textPort),
        DATA_DIR: join(mirrorDir, "data"),
        LOG_LEVEL: "silent",
      }),
      {
        distDir,
        catalogue: assembleCatalogue(source),
      },
    );
    try {
      const api = `http://127.0.0.1:${apiPort}`;
      const text = `http://127.0.0.1:${textPort}`;
      expect((await fetch(`${api}/v1/providers`)).status).toBe(200);
      expect(
        ((await (await fetch(`${api}/v1/services`)).json()) as { pagination: { total: number } }).pagination.total,
      ).toBe(7);
      expect(
        ((await (await fetch(`${api}/v1/services/aws-s3`)).json()) as { equivalents: unknown[] }).equivalents,
      ).toHaveLength(2);
      expect((await fetch(`${api}/v1/services?q=object`)).status).toBe(200);
      expect((await fetch(`${api}/v1/compare?ids=aws-s3,stackit-object-storage`)).status).toBe(200);
      expect((await fetch(`${api}/v1/exposure?ids=aws-s3,stackit-object-storage`)).status).toBe(200);
      const scp = await fetch(`${api}/v1/policies/alpha-scp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      });
      expect(scp.status).toBe(200);
      expect(await (await fetch(`${text}/aws/s3`, { headers: { accept: "text/markdown" } })).text()).toMatch(
        /^# Amazon Simple Storage Service/,
      );
      const page = await (await fetch(`${text}/aws/s3`, { headers: { accept: "text/html" } })).text();
      expect(page).toMatch(/<h1>(<span[^>]*>)?Amazon Simple Storage Service/);
      // Pages the origin renders for a query: on the mirror (no site renderer) the built page for
      // the tools whose script reads ?ids=, and HTML with links (not a bare <pre>) for the rest.
      for (const path of [
        "/exposure/?ids=aws-s3,stackit-object-storage",
        "/list/?ids=aws-s3",
        "/exposure?ids=aws-s3",
      ]) {
        const answer = await fetch(`${text}${path}`, { headers: { accept: "text/html" } });
        expect(answer.status, path).toBe(200);
        expect(await answer.text(), path).toMatch(/<script/);
      }
      for (const [path, href] of [
        ["/search?q=object", 'href="/aws/s3'],
        ["/compare/?ids=aws-s3,stackit-object-storage", 'href="/aws/s3'],
        ["/equivalents/?providers=aws,stackit", 'href="/'],
      ] as const) {
        const body = await (await fetch(`${text}${path}`, { headers: { accept: "text/html" } })).text();
        expect(body, path).toContain(href);
        expect(body, path).not.toContain("<pre>");
      }
      // The mirror's own URLs, not the origin's (dead offline), in discovery, OpenAPI and pages.
      const discovery = (await (await fetch(`${api}/`)).json()) as { documentation: Record<string, string> };
      expect(discovery.documentation).toMatchObject({ openapi: `${api}/openapi.json`, textHost: text });
      const openapi = (await (
        await fetch(`${api}/openapi.json`, { headers: { "accept-encoding": "br, gzip" } })
      ).json()) as {
        servers: { url: string }[];
      };
      expect(openapi.servers[0]!.url).toBe(api);
      expect(page).toContain(`href="${api}/openapi.json"`);
      expect(page).not.toContain(`127.0.0.1:${port}`);
      // Feeds too: their links point at the mirror, their ids and UIDs stay the origin's.
      for (const [file, idPattern] of [
        ["v1/lifecycle.atom", /<id>([^<]*)<\/id>/g],
        ["v1/changes.atom", /<id>([^<]*)<\/id>/g],
        ["v1/lifecycle.ics", /^UID:(.*)$/gm],
      ] as const) {
        // The origin's API and text host (http://127.0.0.1:1), each followed by a path or a quote.
        const originUrl = new RegExp(`http://127\\.0\\.0\\.1:(${port}|1)(?![0-9])`);
        const original = readFileSync(join(distDir, "api", file), "utf8");
        expect(original.replace(/\r\n /g, ""), file).toMatch(originUrl);
        const served = await (await fetch(`${api}/${file}`)).text();
        expect(served.replace(/\r\n /g, ""), file).not.toMatch(originUrl);
        expect(served.replace(/\r\n /g, ""), file).toContain(`${file.startsWith("v1/changes") ? api : text}/`);
        const ids = (text: string) => [...text.replace(/\r\n /g, "").matchAll(idPattern)].map((match) => match[1]);
        expect(ids(served).length, file).toBeGreaterThan(0);
        expect(ids(served), file).toEqual(ids(original));
      }
      const calendar = await (await fetch(`${api}/v1/lifecycle.ics`)).text();
      for (const line of calendar.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      // decisions.md#faces: no answer of the mirror, built or filled per request, in any rendering, names the origin.
      const originUrl = new RegExp(`(https?://)?127\\.0\\.0\\.1:(${port}|1)(?![0-9])`);
      const pointingHome: string[] = [];
      const textPaths = [
        "/",
        "/aws",
        "/aws/s3",
        "/lifecycle",
        "/equivalents",
        "/equivalents/?providers=aws,stackit",
        "/compare/aws-s3,stackit-object-storage",
        "/compare/?ids=aws-s3,stackit-object-storage",
        "/search?q=object",
        "/search/?q=object",
        "/feedback/",
        "/no-such-page",
      ];
      const accepts = ["text/html", "text/markdown", "*/*"];
      for (const path of textPaths)
        for (const accept of accepts) {
          const answer = await fetch(`${text}${path}`, { headers: { accept } });
          const where = `${path} (${accept}) ${answer.status}`;
          if (originUrl.test(await answer.text())) pointingHome.push(`${where}: body`);
          for (const [name, value] of answer.headers) if (originUrl.test(value)) pointingHome.push(`${where}: ${name}`);
        }
      for (const path of ["/", "/openapi.json", "/v1/services?q=object", "/v1/services/aws-s3", "/v1/changelog"]) {
        const answer = await fetch(`${api}${path}`);
        if (originUrl.test(await answer.text())) pointingHome.push(`API ${path}: body`);
      }
      expect(pointingHome).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("re-fetches only what changed, resumes after a failure, and keeps the old mirror on an integrity error", async () => {
    const before = readlinkSync(currentDir(mirrorDir));
    // Change one service: its detail, the listing page, the text and site pages for it change.
    const path = join(data, "services", "stackit", "object-storage.yaml");
    writeFileSync(
      path,
      readFileSync(path, "utf8")
        .replace("Object storage in German data centres.", "Object storage in German data centres, S3-compatible.")
        .replace("name: STACKIT Object Storage\n", "name: STACKIT Object Storage (S3)\n"),
    );
    const server = await origin(data, port);
    try {
      const manifest = JSON.parse(readFileSync(join(server.dist, "api", "manifest.json"), "utf8")) as {
        files: { path: string; sha256: string }[];
      };
      const old = JSON.parse(readFileSync(join(currentDir(mirrorDir), "api", "manifest.json"), "utf8")) as {
        files: { path: string; sha256: string }[];
      };
      const oldHashes = new Map(old.files.map((file) => [file.path, file.sha256]));
      const changed = manifest.files.filter((file) => oldHashes.get(file.path) !== file.sha256);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThan(manifest.files.length / 2);

      // Serve one changed file corrupted (its manifest entry unchanged): the run fails, the previous mirror survives.
      await server.app.close();
      const victim = "api/v1/services/stackit-object-storage.json";
      const good = readFileSync(join(server.dist, victim));
      writeFileSync(join(server.dist, victim), Buffer.concat([good, Buffer.from(" ")]));
      const corrupted = await serveDist(server.dist, data, port);
      await expect(mirror(server.url, mirrorDir, () => undefined)).rejects.toThrow(
        /integrity check failed for api\/v1\/services\/stackit-object-storage\.json/,
      );
      await corrupted.close();
      expect(readlinkSync(currentDir(mirrorDir))).toBe(before);
      expect(JSON.parse(readFileSync(join(currentDir(mirrorDir), victim), "utf8")).description).toBe(
        "Object storage in German data centres.",
      );

      // Repaired: the re-run resumes from the files already fetched and verified.
      writeFileSync(join(server.dist, victim), good);
      const repaired = await serveDist(server.dist, data, port);
      const resumed = await mirror(server.url, mirrorDir, () => undefined);
      await repaired.close();
      expect(resumed.fetched).toBeGreaterThanOrEqual(1);
      expect(resumed.fetched).toBeLessThanOrEqual(changed.length);
      expect(resumed.fetched + resumed.reused).toBe(manifest.files.length);
      // The run reports what the pulled catalogue changed.
      expect(resumed.changes).toEqual([
        "renamed stackit-object-storage: STACKIT Object Storage → STACKIT Object Storage (S3)",
      ]);
      expect(readlinkSync(currentDir(mirrorDir))).not.toBe(before);
      expect(JSON.parse(readFileSync(join(currentDir(mirrorDir), victim), "utf8")).description).toContain(
        "S3-compatible",
      );
    } finally {
      await server.app.close().catch(() => undefined);
    }
  }, 120_000);

  it("exits non-zero with a clear message when the origin cannot be reached", () => {
    const result = spawnSync(
      process.execPath,
      [join(import.meta.dirname, "../../scripts/cli.ts"), "mirror", "http://127.0.0.1:9", join(mirrorDir, "elsewhere")],
      { encoding: "utf8" },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/cloud-catalogue: cannot reach http:\/\/127\.0\.0\.1:9\/manifest\.json/);
  });
});
