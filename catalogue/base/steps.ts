/**
 * Work written as a generator of steps (`yield` between a few milliseconds of it), which a server
 * runs in turns of its event loop (sidecar/catalogue-in-turns.ts) and everyone else at once, here.
 */
export function drained<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
