/**
 * DATA_DIR's lock (sidecar/store/lock.ts): however many processes open one folder at the same
 * instant, over a lock left by a killed process, exactly one holds it; a lock whose pid was reused
 * by an unrelated process does not refuse startup.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const STORE = fileURLToPath(new URL("../../sidecar/store/embedded.ts", import.meta.url));
const OPENERS = 100;

/** Says "ready", waits for "go" on stdin, opens the store, says what happened, holds until stdin ends. */
const OPENER = `
import { EmbeddedStore, DataDirInUseError } from ${JSON.stringify(STORE)};
import { createInterface } from "node:readline";
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write("ready\\n");
await lines.next();
let store;
try {
  store = await EmbeddedStore.open(process.env.DATA_DIR);
  process.stdout.write("won\\n");
} catch (error) {
  process.stdout.write(error instanceof DataDirInUseError ? "refused\\n" : "error " + error.message + "\\n");
}
await lines.next();
await store?.close();
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the DATA_DIR lock", () => {
  it(`lets exactly one of ${OPENERS} processes opening at once over a stale lock hold it`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-lock-"));
    dirs.push(dir);
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    writeFileSync(join(dir, "store.lock"), dead);
    const children = Array.from({ length: OPENERS }, () => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", OPENER], {
        env: { ...process.env, DATA_DIR: dir },
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.setEncoding("utf8");
      const lines: ((line: string) => void)[] = [];
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        for (let at = out.indexOf("\n"); at >= 0; at = out.indexOf("\n")) {
          const line = out.slice(0, at);
          out = out.slice(at + 1);
          lines.shift()?.(line);
        }
      });
      const next = () => new Promise<string>((resolve) => lines.push(resolve));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      return { child, ready: next(), result: undefined as Promise<string> | undefined, next, exited };
    });
    expect(await Promise.all(children.map((c) => c.ready))).toEqual(Array(OPENERS).fill("ready"));
    for (const c of children) c.result = c.next();
    for (const c of children) c.child.stdin.write("go\n");
    const results = await Promise.all(children.map((c) => c.result!));
    const winners = children.filter((_, i) => results[i] === "won");
    expect(results.filter((r) => r === "won")).toHaveLength(1);
    expect(results.filter((r) => r === "refused")).toHaveLength(OPENERS - 1);
    expect(readFileSync(join(dir, "store.lock"), "utf8").split("\n")[0]).toBe(String(winners[0]!.child.pid));
    for (const c of children) c.child.stdin.end();
    await Promise.all(children.map((c) => c.exited));
    console.log(`lock: ${OPENERS} openers over a stale lock, 1 holder, ${OPENERS - 1} refused`);
  }, 120_000);

  it("is not refused for good by a lock whose pid a new, unrelated process has taken since a crash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-lock-"));
    dirs.push(dir);
    const lock = join(dir, "store.lock");
    // An unrelated process alive now, with the pid a crashed holder's lock names.
    const unrelated = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => unrelated.once("spawn", resolve));
      const pid = unrelated.pid!;
      const open = async () => {
        const child = spawnSync(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            `import { EmbeddedStore } from ${JSON.stringify(STORE)};
             try { const store = await EmbeddedStore.open(process.env.DATA_DIR); await store.close(); console.log("opened"); }
             catch (error) { console.log(error.message); }`,
          ],
          { env: { ...process.env, DATA_DIR: dir }, encoding: "utf8" },
        );
        return child.stdout.trim();
      };
      // This version's lock: the pid and an identity the live process does not have.
      writeFileSync(lock, `${pid}\n${readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()} 1\n`);
      expect(await open()).toBe("opened");
      // An older version's lock (a pid alone) written before the process with that pid started.
      writeFileSync(lock, String(pid));
      const before = new Date(Date.now() - 3_600_000);
      utimesSync(lock, before, before);
      expect(await open()).toBe("opened");
      // Written after it started, the pid may be an older version's holder: respected.
      writeFileSync(lock, String(pid));
      expect(await open()).toMatch(new RegExp(`in use by process ${pid}`));
    } finally {
      unrelated.kill();
    }
  }, 60_000);
});
