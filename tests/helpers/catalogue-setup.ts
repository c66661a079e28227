/**
 * Global setup (vitest.config.ts): reads and validates catalogue/data once for the run and leaves
 * the validated source in a file for realCatalogue() (helpers/catalogue.ts), and as a build leaves
 * it (api/catalogue-source.json) for the heavy computations' threads the suites start
 * (workerCatalogueSource()). Invalid data leaves nothing provided, so each suite loads the data
 * itself and fails with the loader's own problems. Its folder lasts the run: the suites share
 * the fixture's builds there too.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serialize } from "node:v8";
import type { TestProject } from "vitest/node";
import { readCatalogueSource } from "../../catalogue/load/load.ts";

/** The run's copy, read once however many projects run this setup (they share this process). */
const RUN_COPY = Symbol.for("csc.realCatalogueSource");
type RunCopy = { path: string | undefined; built: string | undefined; users: number; dir: string };
const scope = globalThis as { [RUN_COPY]?: RunCopy };

function runCopy(): RunCopy {
  const existing = scope[RUN_COPY];
  if (existing) return existing;
  const dir = mkdtempSync(join(tmpdir(), "csc-catalogue-source-"));
  let path: string | undefined = join(dir, "source.bin");
  let built: string | undefined = join(dir, "built");
  try {
    const source = readCatalogueSource();
    // v8's serializer keeps what JSON would drop (undefined fields, Maps): the copy equals the read.
    writeFileSync(path, serialize(source));
    // A thread loading the data folder reads and validates it again (2.7 CPU-s); from a build's
    // JSON, as the sidecar's threads load it, it assembles it (0.75 CPU-s).
    mkdirSync(join(built, "api"), { recursive: true });
    writeFileSync(join(built, "api", "catalogue-source.json"), JSON.stringify(source));
  } catch {
    path = built = undefined;
  }
  return (scope[RUN_COPY] = { path, built, users: 0, dir });
}

export default function setup(project: TestProject): () => void {
  const copy = runCopy();
  copy.users += 1;
  if (copy.path) project.provide("realCatalogueSource", copy.path);
  if (copy.built) project.provide("builtCatalogueDir", copy.built);
  // The run's own folder, for what its suites share (helpers/fixture-build.ts).
  project.provide("testRunDir", copy.dir);
  return () => {
    copy.users -= 1;
    if (copy.users > 0) return;
    rmSync(copy.dir, { recursive: true, force: true });
    delete scope[RUN_COPY];
  };
}
