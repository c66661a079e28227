/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against POST /mcp, on the
 * main thread and through the worker thread: the scenarios that apply to a server that is not the
 * suite's "everything" server (initialize, ping, the three listings) and DNS-rebinding protection.
 * Left out, and why: tools-call-*, resources-read-*, prompts-get-*, completion-complete call the
 * everything server's own test tools and prompts; logging-set-level, resources-subscribe and the
 * SSE scenarios test capabilities this read-only, stateless server does not claim.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { build, workerCatalogueSource } from "../helpers/app.ts";

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

function suiteEntry(): string | undefined {
  try {
    return createRequire(import.meta.url)
      .resolve("@modelcontextprotocol/conformance/package.json")
      .replace(/package\.json$/, "dist/index.js");
  } catch {
    const message = "@modelcontextprotocol/conformance is not installed: the conformance suite is SKIPPED";
    if (process.env.CI === "true") throw new Error(`${message} — CI must run it`);
    console.warn(`\n*** ${message} ***\n`);
    return undefined;
  }
}

const entry = suiteEntry();

async function runSuite(url: string): Promise<Record<string, string>> {
  const cwd = mkdtempSync(join(tmpdir(), "csc-conformance-"));
  const outcomes: Record<string, string> = {};
  try {
    for (const scenario of SCENARIOS) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [entry!, "server", "--url", url, "--scenario", scenario],
        { cwd, timeout: 60_000 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      outcomes[scenario] = /Passed: (\d+)\/\1, 0 failed/.exec(stdout)?.[0] ?? stdout.slice(-500);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  return outcomes;
}

describe.skipIf(!entry)("the official MCP conformance suite", () => {
  for (const [where, options] of [
    ["on the main thread", {}],
    ["through the worker thread", { catalogueSource: workerCatalogueSource() }],
  ] as const)
    it(`passes every scenario that applies, ${where}`, { timeout: 300_000 }, async () => {
      const app = await build(options);
      const address = await app.listen({ port: 0, host: "127.0.0.1" });
      const outcomes = await runSuite(`${address}/mcp`);
      for (const scenario of SCENARIOS) expect(outcomes[scenario], scenario).toMatch(/^Passed: (\d+)\/\1, 0 failed/);
    });
});
