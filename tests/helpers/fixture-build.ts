/**
 * The fixture catalogue (tests/fixtures/catalogue) built once per run for each set of public URLs,
 * and shared by the suites that only read it: each build is about 5 CPU-s (Astro's site build the
 * most), and up to seven suites built the same one for themselves. The first suite to ask builds
 * it into the run's folder (helpers/catalogue-setup.ts) and renames it into place, as build/dist.ts
 * publishes a build; the others, in other workers, wait for it. A suite run without the run's
 * folder (another config) builds its own, as before.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import type { PublicUrls } from "../../catalogue/base/urls.ts";
import { build } from "../../scripts/build.ts";
import { waitFor } from "./components.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder that lasts the whole run, shared by its workers (removed at the end). */
    testRunDir: string;
  }
}

const FIXTURE_DIR = new URL("../fixtures/catalogue/", import.meta.url).pathname;

/** As long as a build may take on a loaded machine (the suites' hook timeout). */
const WAIT_MS = 120_000;

const own: string[] = [];
afterAll(() => {
  for (const dir of own.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** dist/ of the fixture catalogue for these URLs, built once for the run. Read it; never write to it. */
export async function fixtureBuild(urls: PublicUrls): Promise<string> {
  const runDir = inject("testRunDir") as string | undefined;
  if (!runDir) {
    const dist = mkdtempSync(join(tmpdir(), "csc-fixture-dist-"));
    own.push(dist);
    await build({ dataDir: FIXTURE_DIR, outDir: dist, urls, log: () => undefined });
    return dist;
  }
  const dist = join(
    runDir,
    `fixture-dist-${createHash("sha256").update(JSON.stringify(urls)).digest("hex").slice(0, 16)}`,
  );
  const failed = `${dist}.failed`;
  if (!takeBuild(`${dist}.lock`)) {
    await waitFor(() => existsSync(dist) || existsSync(failed), WAIT_MS, "the run's fixture build");
    if (!existsSync(dist)) throw new Error(`the run's fixture build failed: ${readFileSync(failed, "utf8")}`);
    return dist;
  }
  const staging = `${dist}.staging`;
  try {
    await build({ dataDir: FIXTURE_DIR, outDir: staging, urls, log: () => undefined });
    renameSync(staging, dist);
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
    throw error;
  }
  return dist;
}

/** Whether this suite takes the build: creating a folder is atomic, one suite of the run succeeds. */
function takeBuild(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
