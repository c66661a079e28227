/**
 * A catalogue loaded while the process goes on answering: `npm start`'s hosts over the sources, a
 * mirror's next copy (scripts/serve-mirror.ts) and the build that replaces the sources
 * (scripts/start.ts). Loading in one go held the event loop for 0.3 s of one idle core per copy,
 * 3.4–4.2 s on a loaded machine (issue 126: no answer meanwhile, kept-alive connections' timers
 * then ran before their requests were read), and 37 s from the sources, the port not yet open.
 * Here the work runs in steps of a few milliseconds with the loop turning between them, and the
 * data folder's YAML is read and validated in a thread of its own. The memory guard forces no
 * collection meanwhile (memory-guard.ts allocating).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { assembleSteps, type Catalogue, type CatalogueSource } from "../catalogue/load/assemble.ts";
import { DEFAULT_DATA_DIR } from "../catalogue/load/load.ts";
import { serviceSearchSteps } from "../catalogue/search/search.ts";
import { allocating } from "./memory-guard.ts";

/** How long one step of work runs before the event loop turns (answers, timers, new connections). */
export const TURN_MS = 10;

/** One turn of the event loop: what is waiting (sockets, timers) runs, then this resolves. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `steps` to its end, letting the event loop turn once each TURN_MS of work. */
export async function inTurns<T>(steps: Generator<void, T, void>): Promise<T> {
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started < TURN_MS) continue;
    await nextTurn();
    started = performance.now();
  }
}

/** The catalogue of a source, its search built too (what the hosts build first), in turns. */
async function assembled(source: CatalogueSource): Promise<Catalogue> {
  await nextTurn();
  const catalogue = await inTurns(assembleSteps(source));
  // The hosts build the search first (sidecar/app.ts): built here, in turns too.
  await inTurns(serviceSearchSteps(catalogue));
  await nextTurn();
  return catalogue;
}

/** loadBuiltCatalogue (catalogue/load/load.ts) in turns: the build's catalogue-source.json. */
export function loadBuiltCatalogueInTurns(distDir: string): Promise<Catalogue> {
  return allocating(async () => {
    const text = await readFile(join(distDir, "api", "catalogue-source.json"), "utf8");
    await nextTurn();
    return assembled(JSON.parse(text) as CatalogueSource);
  });
}

/**
 * loadCatalogue (catalogue/load/load.ts) with the data folder read and validated in a thread of
 * its own (2.7 CPU-s): its YAML garbage goes with the thread, and this loop answers meanwhile.
 * Rejects with the loader's own list of problems when the data is invalid.
 */
export async function loadCatalogueInTurns(dataDir: string = DEFAULT_DATA_DIR): Promise<Catalogue> {
  const text = await new Promise<string>((resolve, reject) => {
    const worker = new Worker(new URL("./catalogue-source-thread.ts", import.meta.url), { workerData: { dataDir } });
    let settled = false;
    worker.once("message", (message: { source?: string; error?: string }) => {
      settled = true;
      if (message.source !== undefined) resolve(message.source);
      else reject(new Error(message.error ?? "the catalogue could not be read"));
    });
    worker.once("error", (error: Error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the thread reading ${dataDir} stopped (exit code ${code})`));
    });
  });
  await nextTurn();
  return allocating(() => assembled(JSON.parse(text) as CatalogueSource));
}
