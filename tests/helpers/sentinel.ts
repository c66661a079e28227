/**
 * A Redis Sentinel group on loopback for failover tests: one primary and `replicas` replicas
 * (`redis-server`, AOF with appendfsync always, min-replicas-to-write 1) watched by `sentinels`
 * `redis-sentinel` processes, each in its own temporary folder on a free port — the topology of
 * deploy/README.md with the failure detection tuned down.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { freePort, waitFor } from "./components.ts";

export interface SentinelGroup {
  /** The name the Sentinels monitor the primary under. */
  readonly name: string;
  /** REDIS_SENTINELS for the sidecars. */
  readonly sentinels: string;
  /** The ports of the data nodes; the first started as the primary. */
  readonly nodePorts: readonly number[];
  /** What the Sentinels name as primary now (host:port). */
  primary(): Promise<string>;
  /** kill -9 of the data node on `port`. */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

const NAME = "csc";

async function sentinelCommand(port: number, args: string[]): Promise<unknown> {
  const client = createClient({ socket: { host: "127.0.0.1", port, connectTimeout: 1000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    client.destroy();
  }
}

export async function startSentinelGroup(
  redisBinary: string,
  sentinelBinary: string,
  options: { replicas?: number; sentinels?: number; downAfterMs?: number; failoverTimeoutMs?: number } = {},
): Promise<SentinelGroup> {
  const root = mkdtempSync(join(tmpdir(), "csc-sentinel-"));
  const children = new Map<number, ChildProcess>();
  const nodePorts: number[] = [];
  for (let i = 0; i <= (options.replicas ?? 2); i++) nodePorts.push(await freePort());
  const [primaryPort] = nodePorts as [number];
  const up = (port: number) =>
    waitFor(async () => (await sentinelCommand(port, ["PING"])) === "PONG", 10_000, `redis on port ${port}`);

  for (const port of nodePorts) {
    const dir = join(root, `node-${port}`);
    mkdirSync(dir);
    // deploy/README.md's settings; repl-diskless-sync-delay 0 only so the test starts faster.
    const args = [
      "--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "",
      "--appendonly", "yes", "--appendfsync", "always",
      "--min-replicas-to-write", "1", "--min-replicas-max-lag", "10",
      "--repl-diskless-sync-delay", "0",
      ...(port === primaryPort ? [] : ["--replicaof", "127.0.0.1", String(primaryPort)]),
    ]; // prettier-ignore
    children.set(port, spawn(redisBinary, args, { stdio: "ignore" }));
    await up(port);
  }
  // Replicas in sync before the Sentinels start, so none is promoted empty.
  await waitFor(
    async () =>
      /connected_slaves:(\d+)/.exec(String(await sentinelCommand(primaryPort, ["INFO", "replication"])))?.[1] ===
      String(nodePorts.length - 1),
    15_000,
    "the replicas to connect",
  );

  const sentinelPorts: number[] = [];
  for (let i = 0; i < (options.sentinels ?? 3); i++) {
    const port = await freePort();
    const dir = join(root, `sentinel-${port}`);
    mkdirSync(dir);
    const config = join(dir, "sentinel.conf");
    // down-after 2000 ms, not 1000: a Sentinel pings each node once a second, so at 1000 ms one
    // late answer from a freshly promoted primary under load had it failed over again, and writes
    // then waited ~10 s for the demoted node to rejoin as a replica (min-replicas-to-write 1).
    writeFileSync(
      config,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${NAME} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${NAME} ${options.downAfterMs ?? 2000}`,
        `sentinel failover-timeout ${NAME} ${options.failoverTimeoutMs ?? 10_000}`,
        `sentinel parallel-syncs ${NAME} 1`,
        "",
      ].join("\n"),
    );
    children.set(port, spawn(sentinelBinary, [config], { stdio: "ignore" }));
    sentinelPorts.push(port);
    await up(port);
  }
  // Each Sentinel must know the others (hello messages every 2 s) and the replicas before a
  // failover can be authorised.
  await waitFor(
    async () => {
      for (const port of sentinelPorts) {
        const others = (await sentinelCommand(port, ["SENTINEL", "SENTINELS", NAME])) as unknown[];
        const replicas = (await sentinelCommand(port, ["SENTINEL", "REPLICAS", NAME])) as unknown[];
        if (others.length !== sentinelPorts.length - 1 || replicas.length !== nodePorts.length - 1) return false;
      }
      return true;
    },
    30_000,
    "the Sentinels to discover each other and the replicas",
  );

  const stopChild = async (port: number) => {
    const child = children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  return {
    name: NAME,
    sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(","),
    nodePorts,
    async primary() {
      for (const port of sentinelPorts) {
        try {
          const [host, primary] = (await sentinelCommand(port, ["SENTINEL", "GET-MASTER-ADDR-BY-NAME", NAME])) as [
            string,
            string,
          ];
          return `${host}:${primary}`;
        } catch {
          // ask the next
        }
      }
      throw new Error("no Sentinel answered");
    },
    kill: stopChild,
    async stop() {
      for (const port of children.keys()) await stopChild(port);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
