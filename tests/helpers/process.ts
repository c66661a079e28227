/** Runs the real server (sidecar/server.ts) as a child process on free ports, for fault tests. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { workerCatalogueSource } from "./catalogue.ts";
import { freePort, waitFor } from "./components.ts";

const SERVER = fileURLToPath(new URL("../../sidecar/server.ts", import.meta.url));
/** `npm start`'s script: builds dist/ when stale, then runs the server. */
export const START = fileURLToPath(new URL("../../scripts/start.ts", import.meta.url));

const START_SCRIPT = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { scripts: { start: string } }
).scripts.start.split(/\s+/);

/** Node's arguments as `npm start` gives them: package.json's start flags, then the script. */
export const START_ARGS: readonly string[] = [...START_SCRIPT.filter((word) => word.startsWith("--")), START];
/** Node's flags as `npm start` gives them (its heap and allocator tuning): the fault suites' servers run so. */
const START_FLAGS = START_ARGS.slice(0, -1);

/** The environment `npm start` sets before `node` (NAME=value words, e.g. the malloc tuning). */
export const START_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  START_SCRIPT.slice(0, START_SCRIPT.indexOf("node"))
    .map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
    .filter((match) => match !== null)
    .map((match) => [match[1]!, match[2]!]),
);

/**
 * The resident memory asked of `npm start`'s node process under every documented load (issue 109:
 * it replaced a 300 MB target that the suites held with a margin to 400, and that loads such as 100
 * MCP clients or eight maximum-size checks passed in CI). The memory suites hold each peak to it and
 * print it; the bench measures it beside each heavy load (BENCHMARKS.md).
 */
export const MEMORY_BOUND_MB = 400;

export interface ServerProcess {
  readonly api: string;
  readonly text: string;
  readonly child: ChildProcess;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The server's environment on free loopback ports, with `env` on top. */
async function serverEnv(env: Record<string, string>) {
  const [port, textPort] = [await freePort(), await freePort()];
  return {
    port,
    textPort,
    env: {
      ...process.env,
      PORT: String(port),
      TEXT_PORT: String(textPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      ...env,
    },
  };
}

/**
 * Starts the server; `startMs` bounds the wait for its /v1/health (a busy machine may need more than 20 s).
 * Unless told another, it serves the run's catalogue as a build leaves it (no static files), as
 * `npm start` serves its build's: 2 s to start where the data folder's YAML took 4.7 (7.5 CPU-s
 * with its heavy thread's copy), and a fault suite starts dozens.
 */
export async function spawnServer(overrides: Record<string, string>, startMs = 20_000): Promise<ServerProcess> {
  const built = workerCatalogueSource().distDir;
  const catalogue: Record<string, string> =
    overrides.DIST_DIR || overrides.CATALOGUE_DATA_DIR || !built ? {} : { DIST_DIR: built };
  const { port, textPort, env } = await serverEnv({ ...catalogue, ...overrides });
  const child = spawn(process.execPath, [...START_FLAGS, SERVER], {
    env: { ...START_ENV, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const api = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, startMs, "the server to start");
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return {
    api,
    text: `http://127.0.0.1:${textPort}`,
    child,
    stderr: () => stderr,
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** Runs a server (or `script`) that should refuse to start: its exit code and what it wrote. */
export async function refusedServer(
  overrides: Record<string, string>,
  script = SERVER,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { env } = await serverEnv(overrides);
  // A start on a busy machine may take longer than 20 s to load the catalogue before it refuses.
  const result = spawnSync(process.execPath, [script], { env, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The resident set of a process, in MB (10^6 bytes), from /proc (whose "kB" are KiB). */
export function rssMb(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return (Number(kib) * 1024) / 1e6;
}

/**
 * Waits for a process to give memory back: polls its RSS until two samples in a row are under
 * `limitMb`, or `withinMs` has passed. Resolves with the last sample and how long it took, so a
 * test that asks "back under the limit within a minute" waits for that, not for the whole minute.
 */
export async function rssBackUnder(
  pid: number,
  limitMb: number,
  withinMs = 60_000,
): Promise<{ mb: number; seconds: number }> {
  const started = performance.now();
  let under = 0;
  for (;;) {
    const mb = rssMb(pid);
    under = mb < limitMb ? under + 1 : 0;
    const elapsed = performance.now() - started;
    if (under >= 2 || elapsed >= withinMs) return { mb, seconds: elapsed / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The peak resident set of `pid` under a load already sent, sampled every 250 ms: for at least
 * `minMs`, then until no sample has passed the peak for `settledMs`, `maxMs` at most. Answers piled
 * up unread reach their peak within seconds and stay there; a load still growing is sampled to the
 * end. Resolves with the peak and how long it was sampled.
 */
export async function rssPeak(
  pid: number,
  { minMs = 5000, settledMs = 4000, maxMs = 15_000 } = {},
): Promise<{ mb: number; seconds: number }> {
  const started = performance.now();
  let peak = rssMb(pid);
  let peakAt = started;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = performance.now();
    const mb = rssMb(pid);
    if (mb > peak) [peak, peakAt] = [mb, now];
    const elapsed = now - started;
    if (elapsed >= maxMs || (elapsed >= minMs && now - peakAt >= settledMs))
      return { mb: peak, seconds: elapsed / 1000 };
  }
}

/** The processes whose parent is `pid` (Linux: /proc). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its last ")" are what follow.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/**
 * The server process `npm start` runs: its supervisor's child (scripts/start.ts), the node whose
 * memory the suites bound (MEMORY_BOUND_MB); the supervisor itself holds no request.
 */
export function serverPidOf(supervisor: number): number {
  const servers = childrenOf(supervisor).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("start-server.ts");
    } catch {
      return false;
    }
  });
  if (servers.length !== 1) throw new Error(`npm start (process ${supervisor}) runs ${servers.length} servers`);
  return servers[0]!;
}

/** A running `npm start`. */
export interface StartedAsUser {
  /** The supervisor (scripts/start.ts), which the test started and stops. */
  readonly child: ChildProcess;
  readonly port: number;
  readonly textPort: number;
  /** The server process it runs now (a new one after a restart). */
  readonly serverPid: () => number;
  stop(): Promise<void>;
}

/**
 * `npm start` as a user runs it (package.json's flags and environment, default LOG_LEVEL) on a free
 * port, for the memory tests: the listen port is not an input of the build, so dist/ is built once
 * and served on every port with its URLs rewritten. `extraEnv` goes on top (e.g. TRUST_PROXY).
 * Resolves once /v1/health answers; `stop` ends it with SIGTERM.
 */
export async function startAsUser(dataDir: string, extraEnv: Record<string, string> = {}): Promise<StartedAsUser> {
  const port = await freePort();
  const textPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...START_ENV,
    PORT: String(port),
    TEXT_PORT: String(textPort),
    DATA_DIR: dataDir,
  };
  delete env.PUBLIC_API_URL;
  delete env.PUBLIC_TEXT_URL;
  delete env.LOG_LEVEL;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [...START_ARGS], { env, stdio: ["ignore", "ignore", "inherit"] });
  // A stale dist/ is built first (a minute or more on a busy machine).
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/v1/health`)).ok, 600_000, "npm start");
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { child, port, textPort, stop, serverPid: () => serverPidOf(child.pid!) };
}

/**
 * `startAsUser` for the suite it is called in: started in beforeAll on a fresh data folder, stopped
 * and the folder removed in afterAll, with `overrides` in its environment (e.g. TRUST_PROXY). Read
 * `server()` inside the tests.
 */
export function startAsUserPerSuite(name: string, overrides: Record<string, string> = {}): () => StartedAsUser {
  const dataDir = mkdtempSync(join(tmpdir(), `csc-${name}-`));
  let server: StartedAsUser | undefined;
  beforeAll(async () => {
    server = await startAsUser(dataDir, overrides);
  }, 620_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!server) throw new Error(`${name}: npm start did not come up`);
    return server;
  };
}
