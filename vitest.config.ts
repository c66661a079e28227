import { readdirSync, readFileSync } from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import { LongestProjectsFirst } from "./tests/helpers/sequencer.ts";

/**
 * Suites that measure the server (RSS peaks, p99 latencies, deadlines of a few seconds): they run
 * one at a time after the rest, on a machine nothing else in the suite is loading. All are slow.
 */
const MEASURING_SUITES = [
  "tests/reliability/load.test.ts",
  // Memory under load: each holds a server at its peak, then waits for it to give memory back.
  "tests/reliability/many-clients-memory.test.ts",
  "tests/reliability/pipelining-memory.test.ts",
  "tests/reliability/heavy-reads.test.ts",
  "tests/reliability/text-host-memory.test.ts",
  "tests/reliability/text-host-heavy-pages.test.ts",
  // Costly templates beside other heavy requests, then 8 × 4 MiB checks of each kind: RSS peaks.
  "tests/reliability/template-isolation.test.ts",
  // Issue 120's hostile templates on every face of npm start and through nginx: answers, exits, RSS.
  "tests/reliability/hostile-templates.test.ts",
  "tests/reliability/mcp-memory.test.ts",
  "tests/reliability/redis-faults.test.ts",
  "tests/reliability/redis-hang.test.ts",
  "tests/reliability/sentinel*.test.ts",
];

/**
 * `npm run test:fast` (VITEST_FAST=1) leaves out the suites that start a browser or nginx, generate
 * load, or kill and restart processes: the edit loop's run. `npm test` runs everything.
 */
const SLOW_SUITES = [
  ...MEASURING_SUITES,
  // 20,000 generated requests, 36–56 s of one core. It measures nothing (no 5xx, no request
  // unanswered for 5 s), so it runs beside the others.
  "tests/reliability/fuzz.test.ts",
  "tests/site/**",
  "tests/deploy/**",
  "tests/sidecar/store-lock.test.ts",
  // Slow clients on raw sockets: a stalled body's 408, pipelines held at their bound.
  "tests/sidecar/protocol.test.ts",
  // Slow uploaders holding their slots; reader processes ended past their budgets (a runaway regex).
  "tests/sidecar/upload-gate.test.ts",
  "tests/sidecar/template-reader.test.ts",
  "tests/sidecar/durability.test.ts",
  // npm start's server killed -9 and started again by its supervisor, twice.
  "tests/reliability/restart.test.ts",
  "tests/build/reproducible.test.ts",
  "tests/build/new-port.test.ts",
  // Two builds swapped under a running server, and npm run dev with Astro's dev server.
  "tests/build/dist-swap.test.ts",
  "tests/build/dev-mode.test.ts",
  "tests/contract/prism.test.ts",
  // Property runs of every policy through the vendors' simulators: half a minute of the edit loop.
  "tests/catalogue/policies-usable.test.ts",
  "tests/contract/openapi-properties.test.ts",
  // npm start, two mirrors of the whole build and every page compared between two hosts.
  "tests/mirror/any-port.test.ts",
  // Two builds, 26 mirror runs of the CLI (24 killed at random) under a running serve.
  "tests/mirror/update.test.ts",
  // serve over copies of the whole build, switched twice under kept-alive clients (about a minute).
  "tests/mirror/keep-alive.test.ts",
  // A browser, and the conformance suite's twelve client runs.
  "tests/mcp/browser.test.ts",
  "tests/mcp/conformance.test.ts",
  // Every inherited name through every row, route and tool: a fuzz run, as fuzz.test.ts (18 s).
  "tests/sidecar/own-keys.test.ts",
  // Child processes over whole builds: the stdio server (rebuilds dist/ behind a stale one), the
  // mirror CLI's runs, a server started over a folder it cannot open (12–14 s each).
  "tests/mcp/stdio.test.ts",
  "tests/mirror/cli.test.ts",
  // The cloud-catalogue package packed, installed and run on each Node here beside the repository's
  // CLI, then the image's and the CI examples' steps: 100 s. (The check's other suites run the
  // package's bundle, built once per run: seconds each.)
  "tests/build/cli-package.test.ts",
  // The check's CLI run as a child process per case, repositories and bounds included (8–19 s each),
  // slow uploads held to their deadlines (11 s) and npm start with no build under load (10 s).
  "tests/build/check-cli.test.ts",
  "tests/build/check-config.test.ts",
  "tests/build/check-evaluation-bounds.test.ts",
  "tests/build/check-repositories.test.ts",
  "tests/build/check-gate.test.ts",
  "tests/sidecar/deadline.test.ts",
  "tests/build/first-start.test.ts",
  "tests/mirror/mirror.test.ts",
  "tests/sidecar/store-unopenable.test.ts",
];

/** Suites of pure functions over the loaded catalogue, with no server, process or global state of their own. */
const SHARED_SUITES = ["tests/catalogue/**/*.test.ts"];

/**
 * What a shared worker would spoil: a global a later file would see (mocks, spies on shared
 * modules, fake timers, process.env, the working folder), or a measure of the worker process itself
 * (its RSS holds what the files before it left: 275–845 MiB where 125 MiB alone; the memory guard
 * reads it, and skips its checks while another suite's server loads a catalogue).
 */
const NEEDS_ITS_OWN_WORKER =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|process\.chdir|process\.memoryUsage\(|\bguardMemory\(/;

/**
 * Suites that start their servers and stores in-process, each on its own ports and folders, and
 * change no global: they share their worker's modules, so the servers' module graph loads once per
 * worker rather than once per file. A suite that changes one, or measures its process, keeps modules
 * of its own.
 */
const SHARED_SERVER_SUITES = ["tests/sidecar", "tests/contract", "tests/mcp", "tests/docs"]
  .flatMap((dir) => readdirSync(dir).map((file) => `${dir}/${file}`))
  .filter((file) => file.endsWith(".test.ts") && !NEEDS_ITS_OWN_WORKER.test(readFileSync(file, "utf8")));

const excluded = [...configDefaults.exclude, ...(process.env.VITEST_FAST ? SLOW_SUITES : [])];

/**
 * The edit loop's property runs: fewer generated cases of the costliest properties (each through
 * the vendors' simulators), the same properties; `npm test` runs them in full. A run that sets
 * the variable itself keeps its own count.
 */
const FAST_RUNS = process.env.VITEST_FAST ? { POLICY_RUNS: process.env.POLICY_RUNS ?? "15" } : {};

export default defineConfig({
  test: {
    testTimeout: 30_000,
    env: FAST_RUNS,
    hookTimeout: 120_000,
    // Suites start real servers (redis-server, nginx, chromium) on free ports, in processes of their own.
    pool: "forks",
    // catalogue/data read and validated once for the run; suites assemble it from that copy.
    globalSetup: ["tests/helpers/catalogue-setup.ts"],
    reporters: ["default"],
    // The isolated suites' long files first, beside the shared workers' short ones (helpers/sequencer.ts).
    sequence: { sequencer: LongestProjectsFirst },
    projects: [
      {
        extends: true,
        // Two files at a time on a 2-core machine (Vitest's default would be one: a worker per core, less one).
        test: {
          name: "suites",
          // dist/ built once, before the suites that serve it start side by side. A project's
          // globalSetup replaces the root's, so the catalogue's is named again.
          globalSetup: ["tests/helpers/catalogue-setup.ts", "tests/helpers/dist-setup.ts"],
          include: ["tests/**/*.test.ts"],
          exclude: [...excluded, ...MEASURING_SUITES, ...SHARED_SUITES, ...SHARED_SERVER_SUITES],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // Pure functions of the catalogue: the files share their worker's modules, so the catalogue
        // and its indexes load once per worker rather than once per file (about half their time).
        test: {
          name: "catalogue",
          include: SHARED_SUITES,
          exclude: excluded,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "servers",
          include: SHARED_SERVER_SUITES,
          exclude: excluded,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "measuring",
          include: MEASURING_SUITES,
          exclude: excluded,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
