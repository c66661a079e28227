import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:fast` (VITEST_FAST=1) leaves out the suites that start a browser or nginx, generate
 * load, or kill and restart processes: the edit loop's run. `npm test` runs everything.
 */
const SLOW_SUITES = [
  "tests/site/**",
  "tests/deploy/**",
  "tests/reliability/load.test.ts",
  // Memory under load: each holds a server at its peak, then waits a minute for it to give back.
  "tests/reliability/many-clients-memory.test.ts",
  "tests/reliability/pipelining-memory.test.ts",
  "tests/reliability/heavy-reads.test.ts",
  "tests/reliability/text-host-memory.test.ts",
  "tests/reliability/text-host-heavy-pages.test.ts",
  "tests/reliability/fuzz.test.ts",
  "tests/reliability/redis-faults.test.ts",
  "tests/reliability/redis-hang.test.ts",
  "tests/sidecar/store-lock.test.ts",
  "tests/reliability/sentinel*.test.ts",
  "tests/sidecar/durability.test.ts",
  "tests/build/reproducible.test.ts",
  "tests/build/new-port.test.ts",
  "tests/contract/prism.test.ts",
  "tests/contract/openapi-properties.test.ts",
  // npm start, two mirrors of the whole build and every page compared between two hosts.
  "tests/mirror/any-port.test.ts",
  // A browser, and the conformance suite's twelve client runs.
  "tests/mcp/browser.test.ts",
  "tests/mcp/conformance.test.ts",
];

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env.VITEST_FAST ? SLOW_SUITES : [])],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Suites start real servers (redis-server, nginx, chromium) on free ports. Vitest's default is
    // one file at a time on a 2-core machine (a worker per core, less one); the fast suites run two
    // at a time (99 s → 66–82 s here). The full run keeps one: beside the browser suite, the fuzz
    // suite's first saved-list pages, which wait for the site renderer's first load (1.5–1.9 s
    // alone, site-page.ts), went over its 5-second bound.
    pool: "forks",
    maxWorkers: process.env.VITEST_FAST ? 2 : 1,
    reporters: ["default"],
  },
});
