/**
 * Updating a mirror a `cloud-catalogue serve` is serving: the real CLI's mirror runs are killed
 * (SIGKILL) at random points between two origins that differ, and after every kill <dir>/current
 * names a complete, verified copy, and the running serve (never restarted) answers from it. A run
 * that completes and one that changes nothing leave serve answering every request throughout.
 * MIRROR_KILL_SEED repeats a run's kill points.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { currentDir, mirror, swapCurrent } from "../../scripts/mirror.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";
import { freePort, waitFor } from "../helpers/components.ts";

const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-mirror-update-"));
const KILLS = 24;
const seed = Number(process.env.MIRROR_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** A small seeded generator (mulberry32), so that a failing run's kill points can be repeated. */
function random(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Origin {
  readonly url: string;
  readonly app: FastifyInstance;
}

/** A build of `dataDir` served on a free port, as a deployment serves it. */
async function origin(name: string, dataDir: string): Promise<Origin> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dist = join(work, `${name}-dist`);
  await buildDist({
    dataDir,
    outDir: dist,
    urls: { apiUrl: url, textUrl: "http://127.0.0.1:1" },
    log: () => undefined,
  });
  const app = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: loadCatalogue(dataDir),
    store: await EmbeddedStore.open(join(work, `${name}-store`)),
    urls: { apiUrl: url, textUrl: "http://127.0.0.1:1" },
    files: await BuiltFiles.open(dist),
  });
  await app.listen({ port, host: "127.0.0.1" });
  return { url, app };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The files of the copy <dir>/current names that are missing or differ from its manifest. */
function brokenFiles(dir: string): string[] {
  const copy = realpathSync(currentDir(dir));
  const manifest = JSON.parse(readFileSync(join(copy, "api", "manifest.json"), "utf8")) as {
    files: { path: string; sha256: string }[];
  };
  return manifest.files
    .filter((file) => {
      try {
        return sha256(readFileSync(join(copy, file.path))) !== file.sha256;
      } catch {
        return true;
      }
    })
    .map((file) => file.path);
}

/** The name of the service that differs between the two origins, as the copy in use holds it. */
const nameInCurrent = (dir: string) =>
  (
    JSON.parse(readFileSync(join(currentDir(dir), "api", "v1", "services", "stackit-object-storage.json"), "utf8")) as {
      name: string;
    }
  ).name;

/** A mirror run of the real CLI; killed with SIGKILL after `killAfterMs` when given. */
function runMirror(url: string, dir: string, killAfterMs?: number): Promise<{ killed: boolean; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, "mirror", url, dir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve, reject) =>
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL" || code === 0)
        resolve({ killed: signal === "SIGKILL", ms: performance.now() - started });
      else reject(new Error(`mirror exited ${code}: ${stderr}`));
    }),
  );
}

const dir = join(work, "mirror");
let origins: [Origin, Origin];
let api: string;
let text: string;
let serve: ReturnType<typeof spawn> | undefined;
let serveLog = "";

let client = 0;
/** Each request names its own client (X-Forwarded-For): the per-IP limits are not under test. */
function asNewClient(): Record<string, string> {
  client++;
  return { "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
}

/**
 * A GET on a connection of its own: a kept-alive connection the replaced hosts close when idle may
 * meet a request already on its way (the keep-alive race, which clients settle by retrying an
 * idempotent request); a new connection shows what a client finds, a refused one included.
 */
function statusOnNewConnection(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = httpGet(url, { agent: false, headers: asNewClient() }, (answer) => {
      answer.resume();
      answer.once("end", () => resolve(answer.statusCode ?? "no status"));
    });
    request.once("error", (error) => resolve(String(error)));
  });
}

/** What serve answers now, for the pages whose loss the old update caused (404 and 405 after a swap). */
async function servedStatuses(): Promise<Record<string, number | string>> {
  const paths = [
    `${api}/v1/providers`,
    `${api}/v1/services/aws-s3`,
    `${api}/mirror/api/v1/services/aws-s3.json`,
    `${api}/mirror/text/aws/index.md`,
    `${text}/aws/s3`,
    `${text}/stackit/object-storage`,
  ];
  const statuses: Record<string, number | string> = {};
  for (const path of paths) statuses[path.replace(/^http:\/\/[^/]+/, "")] = await statusOnNewConnection(path);
  return statuses;
}

const allOk = (statuses: Record<string, number | string>) =>
  Object.fromEntries(Object.keys(statuses).map((path) => [path, 200]));

/** Waits until serve answers the name the copy in use holds (it follows within about a second). */
async function servesCurrent(): Promise<void> {
  const expected = nameInCurrent(dir);
  await waitFor(
    async () => {
      const answer = await fetch(`${api}/v1/services/stackit-object-storage`, { headers: asNewClient() });
      return answer.ok && ((await answer.json()) as { name: string }).name === expected;
    },
    20_000,
    `serve to follow ${currentDir(dir)} (${expected})\n${serveLog}`,
  );
}

beforeAll(async () => {
  const dataA = join(work, "data-a");
  const dataB = join(work, "data-b");
  cpSync(FIXTURE_DIR, dataA, { recursive: true });
  cpSync(FIXTURE_DIR, dataB, { recursive: true });
  const service = join(dataB, "services", "stackit", "object-storage.yaml");
  writeFileSync(
    service,
    readFileSync(service, "utf8").replace("name: STACKIT Object Storage\n", "name: STACKIT Object Storage (S3)\n"),
  );
  origins = [await origin("a", dataA), await origin("b", dataB)];
  await mirror(origins[0].url, dir, () => undefined);
  const [port, textPort] = [await freePort(), await freePort()];
  [api, text] = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${textPort}`];
  serve = spawn(process.execPath, [CLI, "serve", dir], {
    env: {
      ...process.env,
      PORT: String(port),
      TEXT_PORT: String(textPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      TRUST_PROXY: "127.0.0.1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  serve.stderr!.on("data", (chunk) => (serveLog += chunk));
  await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 60_000, `cloud-catalogue serve\n${serveLog}`);
}, 300_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve!.once("exit", resolve));
    serve.kill("SIGTERM");
    await exited;
  }
  await Promise.all(origins?.map((each) => each.app.close()) ?? []);
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("updating a mirror while serve serves it", () => {
  it("serves every request through a completed update and a re-run that changes nothing", async () => {
    const failures: string[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const statuses = await servedStatuses();
        for (const [path, status] of Object.entries(statuses)) if (status !== 200) failures.push(`${path} ${status}`);
      }
    })();
    const before = readFileSync(join(dir, "current", "api", "manifest.json"));
    await runMirror(origins[1].url, dir);
    await servesCurrent();
    const updated = realpathSync(currentDir(dir));
    await runMirror(origins[1].url, dir);
    expect(realpathSync(currentDir(dir)), "a re-run with nothing changed keeps the copy").toBe(updated);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    polling = false;
    await poll;
    expect(readFileSync(join(dir, "current", "api", "manifest.json")).equals(before)).toBe(false);
    expect(failures).toEqual([]);
    expect(serveLog).toMatch(/serve: now serving/);
  }, 120_000);

  it("keeps every kept-alive client answered through three swaps within 10 s, then drops the old copies", async () => {
    // Issue 101: kept-alive connections stayed on the replaced hosts, were cut when their drain
    // ended, and a second update deleted the copy they still read (404s).
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    // Pages, and a different file of the copy on disk at each turn: a file first read after its
    // copy was deleted is what answered 404.
    const manifest = JSON.parse(readFileSync(join(currentDir(dir), "api", "manifest.json"), "utf8")) as {
      files: { path: string }[];
    };
    const files = manifest.files
      .filter((file) => /^(api\/v1\/services|text)\//.test(file.path))
      .map((file) => `${api}/mirror/${file.path}`);
    const pages = [
      `${api}/v1/providers`,
      `${api}/v1/services/aws-s3`,
      `${text}/aws/s3`,
      `${text}/stackit/object-storage`,
    ];
    const paths = files.flatMap((file, index) => [file, pages[index % pages.length]!]);
    const keptAlive = (url: string) =>
      new Promise<number | string>((resolve) => {
        const request = httpGet(url, { agent, headers: asNewClient() }, (answer) => {
          answer.resume();
          answer.once("end", () => resolve(answer.statusCode ?? "no status"));
          answer.once("error", (error) => resolve(String(error)));
        });
        request.once("error", (error) => resolve(String(error)));
      });
    const failures: string[] = [];
    let requests = 0;
    let polling = true;
    const clients = Array.from({ length: 4 }, async (_, index) => {
      for (let turn = index; polling; turn++) {
        const url = paths[turn % paths.length]!;
        const status = await keptAlive(url);
        requests++;
        if (status !== 200) failures.push(`${url} ${status}`);
      }
    });
    // Three swaps a second or two apart, each made by the mirror's own swap (swapCurrent, which
    // also drops old copies) over a hard-linked copy of the one in use: a full mirror run takes
    // longer than 10 s on a busy machine.
    const started = performance.now();
    for (let swap = 0; swap < 3; swap++) {
      const served = realpathSync(currentDir(dir));
      const staging = join(dir, "versions", `swap-${swap}.partial`);
      execFileSync("cp", ["-al", served, staging]);
      const name = await swapCurrent(dir, staging, basename(served).split("-")[0]!);
      await waitFor(
        () => Promise.resolve(serveLog.includes(`serve: now serving ${join(realpathSync(dir), "versions", name)}`)),
        10_000,
        `serve to follow the swap to ${name}\n${serveLog}`,
      );
    }
    const swapsMs = performance.now() - started;
    // Past the old drain (10 s), which closed the connections still busy under their requests.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    polling = false;
    await Promise.all(clients);
    agent.destroy();
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    expect(swapsMs, "the three swaps fell within 10 s").toBeLessThan(10_000);
    // Every replaced copy was deleted once its last connection closed; only the one in use is left.
    const inUse = basename(realpathSync(currentDir(dir)));
    await waitFor(
      () =>
        Promise.resolve(
          readdirSync(join(dir, "versions")).every((name) => name === inUse || name.endsWith(".partial")),
        ),
      20_000,
      `the replaced copies to be removed: ${readdirSync(join(dir, "versions")).join(", ")}\n${serveLog}`,
    );
  }, 120_000);

  it(`leaves a servable mirror, followed by serve, when killed at ${KILLS} random points (seed ${seed})`, async () => {
    // How long an update takes here, so that the kill points fall across the whole run. A run that
    // finishes before its kill narrows the window to its own time: in CI one slow first measurement
    // let 13 of 24 runs finish unkilled.
    let window = (await runMirror(origins[0].url, dir)).ms;
    await servesCurrent();
    const next = random(seed);
    let killed = 0;
    for (let round = 0; round < KILLS; round++) {
      const from = origins[round % 2]!;
      const killAfterMs = Math.floor(next() * window);
      const result = await runMirror(from.url, dir, killAfterMs);
      if (result.killed) killed++;
      else window = result.ms;
      const where = `round ${round}, killed after ${killAfterMs} ms (seed ${seed})`;
      expect(brokenFiles(dir), where).toEqual([]);
      await servesCurrent();
      const statuses = await servedStatuses();
      expect(statuses, where).toEqual(allOk(statuses));
    }
    // Most runs were killed mid-way, not after they finished.
    expect(killed).toBeGreaterThanOrEqual(KILLS / 2);
  }, 600_000);
});
