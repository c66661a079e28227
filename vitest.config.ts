import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Suites start real servers (redis-server, nginx, chromium) on free ports; files run in parallel on both cores.
    pool: "forks",
    reporters: ["default"],
  },
});
