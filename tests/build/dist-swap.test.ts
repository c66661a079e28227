import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap, serving } from "../../build/dist.ts";
import { buildInputsHash, buildIsFresh, type BuildOptions } from "../../build/inputs.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { FIXTURE_DIR, fixtureCatalogue, tempStore } from "../helpers/app.ts";

const root = mkdtempSync(join(tmpdir(), "csc-swap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const urlsOn = (port: number) => ({ apiUrl: `http://127.0.0.1:${port}`, textUrl: `http://127.0.0.1:${port + 1}` });

/** Every file of a folder with its size, modification time and bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      const { size, mtimeMs } = statSync(path);
      return [relative(dir, path), `${size} ${mtimeMs} ${readFileSync(path).toString("base64")}`];
    }),
  );
}

async function serve(distDir: string) {
  const files = await BuiltFiles.open(distDir);
  return buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: fixtureCatalogue(),
    store: await tempStore(),
    urls: urlsOn(8080),
    files,
  });
}

describe("dist/ across a change of public URLs (PUBLIC_*)", () => {
  it("builds for the new URLs into a new folder and leaves the running server's files untouched", async () => {
    const link = join(root, "dist");
    const builds: string[] = [];
    const build: typeof buildDist = (options) => (builds.push(options.urls.apiUrl), buildDist(options));
    const options = { dataDir: FIXTURE_DIR, link, log: () => undefined, build };

    await buildAndSwap({ ...options, urls: urlsOn(8080) });
    const served = serving(link);
    const before = snapshot(served);
    const running = await serve(served);
    const discovery = async (app: typeof running) =>
      (await app.inject({ url: "/", headers: { "accept-encoding": "identity" } })).body;
    expect(await discovery(running)).toContain("http://127.0.0.1:8080");

    await buildAndSwap({ ...options, urls: urlsOn(9090) });
    expect(realpathSync(link)).not.toBe(served);
    expect(snapshot(served)).toEqual(before);
    expect(await discovery(running)).toContain("http://127.0.0.1:8080");
    const restarted = await serve(realpathSync(link));
    expect(await discovery(restarted)).toContain("http://127.0.0.1:9090");

    // Back to the first URLs: that build is linked again, not rebuilt.
    await buildAndSwap({ ...options, urls: urlsOn(8080) });
    expect(realpathSync(link)).toBe(served);
    expect(builds).toEqual(["http://127.0.0.1:8080", "http://127.0.0.1:9090"]);
    await Promise.all([running.close(), restarted.close()]);
  }, 300_000);

  it("keeps the build a server already serves when a second start for the same inputs finishes after it", async () => {
    // Builds of its own: the first test's build for these inputs would be reused.
    const race = join(root, "race");
    mkdirSync(race);
    const link = join(race, "dist");
    const urls = urlsOn(8080);
    const inputs = await buildInputsHash(urls, FIXTURE_DIR);
    // Writes what buildIsFresh reads, and which start wrote the folder.
    const fakeBuild = (writer: string) => async (options: BuildOptions) => {
      const { outDir } = options;
      if (!outDir) throw new Error("buildAndSwap names the staging folder");
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, "build-info.json"), JSON.stringify({ inputs }));
      writeFileSync(join(outDir, "writer"), writer);
    };
    const options = { urls, dataDir: FIXTURE_DIR, link, log: () => undefined };
    let served = "";
    await buildAndSwap({
      ...options,
      build: async (own) => {
        // The other start finishes while this one builds, and its server starts on that folder.
        await buildAndSwap({ ...options, build: fakeBuild("first") });
        served = serving(link);
        await fakeBuild("second")(own);
      },
    });
    expect(realpathSync(link)).toBe(served);
    expect(readFileSync(join(served, "writer"), "utf8")).toBe("first");
    expect(readdirSync(join(race, ".cache", "builds")).filter((entry) => entry.includes(".staging-"))).toEqual([]);
  });

  it("serves a fast build until the best one for the same inputs is linked, and never builds fast again then", async () => {
    const dir = join(root, "fast");
    mkdirSync(dir);
    const link = join(dir, "dist");
    const urls = urlsOn(8080);
    const inputs = await buildInputsHash(urls, FIXTURE_DIR);
    const asked: string[] = [];
    const fakeBuild = async (options: BuildOptions) => {
      asked.push(options.compression ?? "best");
      mkdirSync(options.outDir!, { recursive: true });
      writeFileSync(
        join(options.outDir!, "build-info.json"),
        JSON.stringify({ inputs, compression: options.compression }),
      );
    };
    const options = { urls, dataDir: FIXTURE_DIR, link, log: () => undefined, build: fakeBuild };
    const fast = await buildAndSwap({ ...options, compression: "fast" });
    expect(fast.endsWith("-fast")).toBe(true);
    expect(await buildIsFresh(link, inputs)).toBe(true);
    expect(await buildIsFresh(link, inputs, true)).toBe(false);
    const best = await buildAndSwap(options);
    expect(realpathSync(link)).toBe(best);
    expect(await buildIsFresh(link, inputs, true)).toBe(true);
    // A later first start finds the best build: it links it, building nothing.
    expect(await buildAndSwap({ ...options, compression: "fast" })).toBe(best);
    expect(asked).toEqual(["fast", "best"]);
  });
});
