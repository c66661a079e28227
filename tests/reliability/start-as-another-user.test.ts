/**
 * decisions.md#start-says-why: `npm start` run as another user than the one who built died with an uncaught EACCES
 * stack trace in .cache/builds. Run here as `nobody` (through setpriv, so the test needs root), it
 * must stop with one line saying what it cannot write and what to do.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/components.ts";
import { START_ARGS, START_ENV } from "../helpers/process.ts";

const setpriv = spawnSync("which", ["setpriv"], { encoding: "utf8" }).stdout.trim();
const root = process.getuid?.() === 0;
if (!root || !setpriv) {
  const why = `start-as-another-user: skipped (${root ? "setpriv is missing" : "needs root to run a process as nobody"})`;
  if (process.env.CI === "true") throw new Error(why);
  console.warn(why);
}

describe.skipIf(!root || !setpriv)("npm start as another user than the builder", () => {
  it("stops with one line naming the build cache it cannot write", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "csc-other-user-"));
    // The store's folder is this user's; the repository and its .cache stay root's.
    chmodSync(dataDir, 0o777);
    try {
      const result = spawnSync(
        setpriv,
        ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...START_ARGS],
        {
          env: {
            ...process.env,
            ...START_ENV,
            PORT: String(await freePort()),
            TEXT_PORT: String(await freePort()),
            DATA_DIR: dataDir,
            PUBLIC_API_URL: "http://localhost:8080",
            PUBLIC_TEXT_URL: "http://localhost:8081",
          },
          encoding: "utf8",
          timeout: 120_000,
        },
      );
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines.at(-1)).toMatch(
        /^start: cannot write the build cache \.cache\/builds \(EACCES\); run npm start as the user who built it, or let this user write \.cache\/builds$/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 130_000);
});
