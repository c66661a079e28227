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
const LOCK = fileURLToPath(new URL("../../sidecar/store/lock.ts", import.meta.url));
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
/** A DATA_DIR of the test's own, removed after it. */
const lockDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "csc-lock-"));
  dirs.push(dir);
  return dir;
};

describe("the DATA_DIR lock", () => {
  it(`lets exactly one of ${OPENERS} processes opening at once over a stale lock hold it`, async () => {
    const dir = lockDir();
    const dead = deadPid();
    writeFileSync(join(dir, "store.lock"), String(dead));
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
    const dir = lockDir();
    const lock = join(dir, "store.lock");
    // An unrelated process alive now, with the pid a crashed holder's lock names.
    const unrelated = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => unrelated.once("spawn", resolve));
      const pid = unrelated.pid!;
      // This version's lock: the pid and an identity the live process does not have.
      writeFileSync(lock, `${pid}\n${bootIdNow()} 1\n`);
      expect(openIn(dir).result).toBe("opened");
      // An older version's lock (a pid alone) written before the process with that pid started.
      writeFileSync(lock, String(pid));
      const before = new Date(Date.now() - 3_600_000);
      utimesSync(lock, before, before);
      expect(openIn(dir).result).toBe("opened");
      // Written after it started (a folder restored by cp), by a process without the store open: replaced.
      writeFileSync(lock, String(pid));
      expect(openIn(dir).result).toBe("opened");
    } finally {
      unrelated.kill();
    }
  }, 60_000);
});

/** Opens the store in a child process: "opened", or the error's message. */
function openIn(dir: string): { result: string; stderr: string } {
  const child = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { EmbeddedStore } from ${JSON.stringify(STORE)};
       try { const store = await EmbeddedStore.open(process.env.DATA_DIR); await store.close(); console.log("opened"); }
       catch (error) { console.log(error.message); }`,
    ],
    { env: { ...process.env, DATA_DIR: dir }, encoding: "utf8", timeout: 30_000 },
  );
  return { result: child.stdout.trim(), stderr: child.stderr };
}

/** The pid of a process that has exited. */
const deadPid = () =>
  Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
const bootIdNow = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
const startTicksOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
};

describe("the DATA_DIR lock and dead holders (decisions.md#durable-acknowledgement)", () => {
  it("is not held by a zombie: a killed holder its parent has not reaped", async () => {
    const dir = lockDir();
    // The shell's child exits at once; the shell then becomes `sleep`, which never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(d.toString()))),
      );
      await waitForState(zombie, "Z");
      writeFileSync(join(dir, "store.lock"), `${zombie}\n${bootIdNow()} ${startTicksOf(zombie)}\n`);
      expect(openIn(dir).result).toBe("opened");
    } finally {
      parent.kill();
    }
  }, 30_000);

  it("respects an older version's lock whose process has the store open, and says so when it replaces one", async () => {
    const dir = lockDir();
    writeFileSync(join(dir, "store.jsonl"), "");
    // An older version held the folder with store.lock alone (a pid), and kept store.jsonl open.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `require("node:fs").openSync(${JSON.stringify(join(dir, "store.jsonl"))}, "a"); console.log("open"); setTimeout(() => {}, 30000)`,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    try {
      await new Promise((resolve) => holder.stdout.once("data", resolve));
      writeFileSync(join(dir, "store.lock"), String(holder.pid));
      expect(openIn(dir).result).toMatch(new RegExp(`in use by process ${holder.pid}`));
    } finally {
      holder.kill();
      await new Promise((resolve) => holder.once("exit", resolve));
    }
    // The same file once that process is gone (a pid alone, now someone else's or nobody's).
    writeFileSync(join(dir, "store.lock"), "1");
    const replaced = openIn(dir);
    expect(replaced.result).toBe("opened");
    expect(replaced.stderr).toMatch(
      /older version's lock \(a pid alone\) naming process 1, which does not hold .*; replaced/,
    );
  }, 30_000);

  it("waits for a killed holder's socket to be freed rather than refusing", async () => {
    const dir = lockDir();
    // A holder that binds the lock's socket, then is killed while a thread of it still holds the
    // socket: here a process holding the socket for 1.5 s after the file names a dead pid.
    const dead = deadPid();
    const holding = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { lockSocketName } from ${JSON.stringify(LOCK)};
         import { createServer } from "node:net";
         const server = createServer().listen({ path: lockSocketName(process.env.DATA_DIR), exclusive: true }, () => console.log("bound"));
         setTimeout(() => server.close(), 1500);`,
      ],
      { env: { ...process.env, DATA_DIR: dir }, stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise((resolve) => holding.stdout.once("data", resolve));
    writeFileSync(join(dir, "store.lock"), `${dead}\n${bootIdNow()} 1\n`);
    const started = performance.now();
    expect(openIn(dir).result).toBe("opened");
    expect(performance.now() - started).toBeGreaterThan(1000);
  }, 30_000);
});

async function waitForState(pid: number, state: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith(state)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} never reached state ${state}`);
}
