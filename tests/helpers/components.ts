/**
 * Real components for tests: a suite whose component is missing locally skips loudly, and under
 * CI=true fails (the developers' guide: "Real components, really started"). Starting them is
 * scripts/components.ts, which the benches use too.
 */
import { findBinary } from "../../scripts/components.ts";

export { cleanup, findBinary, freePort, startRedis, waitFor, type RedisServer } from "../../scripts/components.ts";

/** The binary, or undefined after a loud warning; throws under CI=true. */
export function requireComponent(name: string, candidates?: string[]): string | undefined {
  const binary = findBinary(name, candidates);
  if (binary) return binary;
  const message = `${name} is not installed: its suite is SKIPPED (apt-get install ${name === "redis-server" ? "redis-server" : name})`;
  if (process.env.CI === "true") throw new Error(`${message} — CI must run it`);
  console.warn(`\n*** ${message} ***\n`);
  return undefined;
}
