import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap, serving } from "../../scripts/dist.ts";
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
});
