/**
 * decisions.md#reproducible-builds: builds are reproducible. Every date a build writes comes from the data (the newest
 * lastVerified or release day), never from file modification times or the clock, so two builds of
 * the same data are byte-identical, and a fresh clone (new mtimes) builds what the last one did;
 * also when one compressed every file fresh and the other took them from the compression cache.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dataDate, loadCatalogue } from "../../catalogue/load/load.ts";
import { build, listFiles } from "../../scripts/build.ts";
import { FIXTURE_DIR, URLS } from "../helpers/app.ts";

/**
 * Every built file's sha256, but the site's server bundle (site/server/): the server's own code,
 * never published (the mirror withholds it; the manifest does not list it), which carries what is
 * inherently per build: the absolute path of the folder it was built into and the random key Astro
 * generates for each build to encrypt server-island props. Everything a client can fetch is compared.
 */
const hashes = async (dir: string) =>
  Object.fromEntries(
    (await listFiles(dir))
      .filter((file) => !file.startsWith("site/server/"))
      .map((file) => [
        file,
        createHash("sha256")
          .update(readFileSync(join(dir, file)))
          .digest("hex"),
      ]),
  );

/** Each provider file's review day, read straight from the YAML. */
const providerDays = (dir: string): string[] =>
  readdirSync(join(dir, "providers")).map((file) =>
    String((parse(readFileSync(join(dir, "providers", file), "utf8")) as { lastVerified: unknown }).lastVerified),
  );

let root: string;
let data: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "csc-reproducible-"));
  data = join(root, "data");
  cpSync(FIXTURE_DIR, data, { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a build", () => {
  it("takes the newest of the providers', services' and release snapshots' days", () => {
    const providers = [{ lastVerified: "2026-10-01" }, { lastVerified: "2026-11-02" }];
    expect(dataDate(providers, [{}, { lastVerified: "2026-11-05" }], [])).toBe("2026-11-05T00:00:00.000Z");
    expect(dataDate(providers, [], [{ release: "2026-11-01" }, { release: "2026-11-23" }])).toBe(
      "2026-11-23T00:00:00.000Z",
    );
  });

  it("dates the catalogue by its data: the newest lastVerified day, whatever the files' mtimes", () => {
    const catalogue = loadCatalogue(data);
    // The newest source a service cites, or a provider file's review day (no release snapshots here).
    const newest = [...catalogue.services.map((service) => service.lastVerified), ...providerDays(data)]
      .filter((day) => day !== undefined)
      .sort()
      .at(-1);
    expect(catalogue.lastUpdated).toBe(`${newest}T00:00:00.000Z`);
    for (const file of ["categories.yaml", "equivalents.yaml"]) utimesSync(join(data, file), new Date(), new Date());
    expect(loadCatalogue(data).lastUpdated).toBe(catalogue.lastUpdated);
  });

  it("writes the same bytes twice from the same data, even after every data file is touched", async () => {
    const first = join(root, "first");
    const second = join(root, "second");
    // Old mtimes for the first build, new ones (as a fresh clone has) for the second.
    const touch = async (when: Date) => {
      for (const file of await listFiles(data)) utimesSync(join(data, file), when, when);
    };
    // The first build compresses every file fresh into an empty cache, the second takes every
    // compressed file from that cache (decisions.md#serving-performance): the bytes must not tell them apart.
    const cacheDir = join(root, "compressed");
    const logs: string[][] = [[], []];
    await touch(new Date("2001-02-03T04:05:06Z"));
    await build({ dataDir: data, outDir: first, cacheDir, urls: URLS, log: (line) => logs[0]!.push(line) });
    await touch(new Date());
    await build({ dataDir: data, outDir: second, cacheDir, urls: URLS, log: (line) => logs[1]!.push(line) });
    const compressLine = (lines: string[]) => lines.find((line) => line.startsWith("build: compress")) ?? "";
    expect(compressLine(logs[0]!)).toMatch(/\(0 from the cache, [1-9]\d* compressed\)/);
    expect(compressLine(logs[1]!)).toMatch(/\([1-9]\d* from the cache, 0 compressed\)/);

    const [a, b] = [await hashes(first), await hashes(second)];
    // Not exempt: the manifest, build-info.json (a hash of the inputs' content), the site's pages
    // (the lifecycle page is as of the data's day), the Pagefind index, the .br/.gz files.
    expect(Object.keys(a).length).toBeGreaterThan(100);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    const differing = Object.keys(a).filter((file) => a[file] !== b[file]);
    expect(differing).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(first, "api", "manifest.json"), "utf8")) as { lastUpdated: string };
    expect(manifest.lastUpdated).toBe(loadCatalogue(data).lastUpdated);
    const lifecycle = JSON.parse(readFileSync(join(first, "api", "v1", "lifecycle.json"), "utf8")) as { asOf: string };
    expect(lifecycle.asOf).toBe(manifest.lastUpdated.slice(0, 10));
  }, 600_000);
});
