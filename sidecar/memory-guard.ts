/**
 * A soft bound on the process's memory (decisions.md#bounded-memory). Under a burst, V8 lets its
 * heap grow to about twice what is live before it collects, and the Buffers of answers already
 * sent are freed only by that collection; on a loaded machine the collection comes later still.
 * 200 readers pipelining new /v1/ queries and the dump took `npm start` from 164 MB to 227–309 MB
 * over five CI runs, against the 300 MB then asked (400 MB since: RELIABILITY.md). Above SOFT_LIMIT_MB, once the
 * JavaScript heap and the Buffers have grown by GROWTH_MB since the last collection, the process
 * collects at once: a full collection (50–200 ms), only while memory is high and growing, never
 * while idle.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Above this resident size a collection may be asked for; well under the 400 MB asked under load. */
export const SOFT_LIMIT_MB = 200;
/** Growth of the heap and Buffers since the last collection that makes another worth its cost. */
export const GROWTH_MB = 24;
/** How often the resident size is read. */
export const CHECK_EVERY_MS = 100;

const MB = 1024 * 1024;

/** V8's full collection, without --expose-gc on the command line (node's documented v8 flag API). */
export const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/** What collection can give back: the JavaScript heap in use and the memory of Buffers. */
function held(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Work under way that allocates on purpose (allocating), and whether one ended since the last check. */
let allocatingNow = 0;
let allocationEnded = false;

/**
 * Runs `work`, which allocates on purpose — the catalogue and hosts of a mirror's next copy, or of
 * `npm start`'s build (sidecar/catalogue-in-turns.ts, scripts/serve-retire.ts) — without the guard
 * forcing collections meanwhile: each was a full collection of a heap holding two catalogues, held
 * the event loop for as long (issue 126: 3.4–4.2 s without answers at each mirror update on a
 * loaded machine), and collected nothing the work would not allocate again. Once it ends, what it
 * holds is the new baseline; V8 collects the replaced catalogue as it does any garbage.
 */
export async function allocating<T>(work: () => Promise<T>): Promise<T> {
  allocatingNow++;
  try {
    return await work();
  } finally {
    allocatingNow--;
    allocationEnded = true;
  }
}

/** Starts the checks (unref'd: they keep no process alive); returns the function that stops them. */
export function guardMemory({
  limitMb = SOFT_LIMIT_MB,
  growthMb = GROWTH_MB,
  collect = collectGarbage,
} = {}): () => void {
  let heldAfterCollect = 0;
  const timer = setInterval(() => {
    if (allocatingNow > 0) return;
    if (allocationEnded) {
      allocationEnded = false;
      heldAfterCollect = held();
      return;
    }
    if (process.memoryUsage.rss() < limitMb * MB || held() - heldAfterCollect < growthMb * MB) return;
    collect();
    heldAfterCollect = held();
  }, CHECK_EVERY_MS).unref();
  return () => clearInterval(timer);
}
