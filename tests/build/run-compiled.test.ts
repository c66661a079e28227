/**
 * scripts/run-compiled.js, which `npm start` runs scripts/start.ts through: the entry runs compiled
 * by esbuild, without Node's type stripper in the process, and each module keeps its own
 * import.meta values and the command line it would have had run directly.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "../helpers/components.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LAUNCHER = join(ROOT, "scripts", "run-compiled.js");
const COMPILED_DIR = join(ROOT, ".cache", "compiled");
const work = mkdtempSync(join(tmpdir(), "csc-run-compiled-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a module reports of itself: its import.meta values. */
const REPORT = `({ url: import.meta.url, main: import.meta.main, dirname: import.meta.dirname, filename: import.meta.filename })`;

describe("run-compiled", () => {
  it("runs a TypeScript entry without the type stripper, each module with its own import.meta", () => {
    mkdirSync(join(work, "lib"));
    const entry = join(work, "entry.ts");
    const lib = join(work, "lib", "meta.ts");
    writeFileSync(lib, `export const libMeta: Record<string, unknown> = ${REPORT};\n`);
    writeFileSync(
      entry,
      [
        `import { libMeta } from "./lib/meta.ts";`,
        `const entryMeta: Record<string, unknown> = ${REPORT};`,
        // Node's internal modules loaded so far: the type stripper is internal/deps/amaro.
        `const stripper = process.moduleLoadList.filter((name: string) => /amaro/.test(name));`,
        `console.log(JSON.stringify({ entryMeta, libMeta, argv: process.argv.slice(1), stripper }));`,
      ].join("\n"),
    );
    const output = JSON.parse(execFileSync(process.execPath, [LAUNCHER, entry, "one", "two"], { encoding: "utf8" }));
    expect(output).toEqual({
      entryMeta: { url: pathToFileURL(entry).href, main: true, dirname: work, filename: entry },
      libMeta: { url: pathToFileURL(lib).href, main: false, dirname: join(work, "lib"), filename: lib },
      argv: [entry, "one", "two"],
      stripper: [],
    });
    // The same entry run directly does load it: the check above can fail.
    const direct = JSON.parse(execFileSync(process.execPath, [entry], { encoding: "utf8" }));
    expect(direct.stripper.length).toBeGreaterThan(0);
  });

  it("removes the compiled module once the entry's top level has run, and a killed run's at the next start", () => {
    const entry = join(work, "quiet.ts");
    writeFileSync(entry, `const answer: number = 42;\nconsole.log(answer);\n`);
    mkdirSync(COMPILED_DIR, { recursive: true });
    // A module left by a process that no longer runs (pid 2^22 + 1 is above Linux's pid_max).
    const stale = join(COMPILED_DIR, `4194305-1.mjs`);
    writeFileSync(stale, "");
    const run = spawnSync(process.execPath, [LAUNCHER, entry], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("42");
    expect(readdirSync(COMPILED_DIR).filter((name) => name.startsWith(`${run.pid}-`))).toEqual([]);
    expect(existsSync(stale)).toBe(false);
  });

  it("serves the API from sidecar/server.ts with npm start's node flags", async () => {
    const start = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } })
      .scripts.start;
    const [command, ...args] = start.split(/\s+/);
    expect(command).toBe("node");
    expect(args.filter((arg) => !arg.startsWith("--"))).toEqual(["scripts/run-compiled.js", "scripts/start.ts"]);
    const flags = args.filter((arg) => arg.startsWith("--"));
    const [port, textPort] = [await freePort(), await freePort()];
    const dataDir = mkdtempSync(join(work, "data-"));
    const child = spawn(process.execPath, [...flags, LAUNCHER, join(ROOT, "sidecar", "server.ts")], {
      env: { ...process.env, PORT: String(port), TEXT_PORT: String(textPort), DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    try {
      const api = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 30_000, "the compiled server");
      const detail = await fetch(`${api}/v1/services/aws-s3`);
      expect(detail.status).toBe(200);
      expect(((await detail.json()) as { id: string }).id).toBe("aws-s3");
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
