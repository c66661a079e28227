import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:fast` (VITEST_FAST=1) leaves out the suites that start a browser or nginx, generate
 * load, or kill and restart processes: the edit loop's run. `npm test` runs everything.
 */
const SLOW_SUITES = [
  "tests/site/**",
  "tests/deploy/**",
  "tests/reliability/load.test.ts",
  "tests/reliability/fuzz.test.ts",
  "tests/reliability/redis-faults.test.ts",
  "tests/reliability/redis-hang.test.ts",
  "tests/sidecar/store-lock.test.ts",
  "tests/reliability/sentinel*.test.ts",
  "tests/sidecar/durability.test.ts",
];

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env.VITEST_FAST ? SLOW_SUITES : [])],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Suites start real servers (redis-server, nginx, chromium) on free ports; files run in parallel on both cores.
    pool: "forks",
    reporters: ["default"],
  },
});
