/** A build folder with the given files and the manifest scripts/build.ts would write for them. */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import type { BuildManifestT } from "../../catalogue/schema/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (paths inside dist/) and dist/api/manifest.json listing them; returns the folder. */
export function fakeBuild(files: Record<string, string | Buffer>): string {
  const dist = mkdtempSync(join(tmpdir(), "csc-dist-"));
  dirs.push(dist);
  const manifest: BuildManifestT = {
    version: 1,
    lastUpdated: new Date().toISOString(),
    files: Object.entries(files).map(([path, body]) => {
      mkdirSync(dirname(join(dist, path)), { recursive: true });
      writeFileSync(join(dist, path), body);
      return { path, sha256: createHash("sha256").update(body).digest("hex"), size: Buffer.byteLength(body) };
    }),
  };
  mkdirSync(join(dist, "api"), { recursive: true });
  writeFileSync(join(dist, "api", "manifest.json"), JSON.stringify(manifest));
  return dist;
}
