/**
 * Real components started on this machine, for the benches (scripts/bench/) and the tests
 * (tests/helpers/components.ts adds the skip-or-fail rule): a binary found, a free port, a
 * condition waited for, a redis-server in a temporary folder.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** nginx prints its version with -v and rejects --version; wrk prints it with -v, then exits 1. */
const VERSION_FLAG: Record<string, string> = { nginx: "-v", w3m: "-version", wrk: "-v" };
const VERSION_EXIT: Record<string, number> = { wrk: 1 };

export function findBinary(
  name: string,
  candidates: string[] = [`/usr/bin/${name}`, `/usr/sbin/${name}`],
): string | undefined {
  for (const candidate of candidates) {
    const ran = spawnSync(candidate, [VERSION_FLAG[name] ?? "--version"], { stdio: "ignore" });
    if (ran.error === undefined && ran.status === (VERSION_EXIT[name] ?? 0)) return candidate;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Sends redis-server a signal (SIGSTOP: it hangs with its connections open; SIGCONT). */
  signal(signal: NodeJS.Signals): void;
}

/** Starts redis-server on a free port in a temporary folder, with AOF and appendfsync always. */
export async function startRedis(binary: string): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "csc-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      binary,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
      ],
      { stdio: "ignore" },
    );
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          socket.once("connect", () => {
            socket.end();
            resolve(true);
          });
          socket.once("error", () => resolve(false));
        }),
      10_000,
      "redis-server",
    );
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    start,
    async stop() {
      await stop();
    },
    signal(signal) {
      child?.kill(signal);
    },
  };
}

export function cleanup(server: RedisServer): Promise<void> {
  return server.stop().then(() => rmSync(server.dir, { recursive: true, force: true }));
}
