/**
 * Issues 116 and 126: `cloud-catalogue serve` over a copy of the real catalogue's build, switched
 * ten times to a new copy while three kinds of kept-alive clients ask all along: Node's http.Agent
 * (16 sockets, no idle timer of its own: it keeps an idle socket until the server closes it), undici
 * (its own idle timer, from the server's `Keep-Alive` hint) and wrk (every socket busy, 2 s
 * timeout). Over the real catalogue, preparing the new hosts held the event loop for seconds: 30 of
 * 3,224 Node requests were reset over 11 switches (8 of 2,337 with none: a 5 s keep-alive), 12 of
 * them together, and wrk saw 120 errors over 2 s. Here: no request fails with any of the three, and
 * no answer from the replaced copy arrives more than 1 s after serve says it serves the new one.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Agent as UndiciAgent, request as undiciRequest } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap, markServed } from "../../build/dist.ts";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { currentDir, swapCurrent } from "../../scripts/mirror.ts";
import { freePort, requireComponent, waitFor } from "../helpers/components.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const wrk = requireComponent("wrk");
const work = mkdtempSync(join(tmpdir(), "csc-mirror-keep-alive-"));
const dir = join(work, "mirror");
/** A small file of each copy, marked with the copy's number (same length: the manifest's size holds). */
const MARKED = join("api", "v1", "categories.json");
const SWITCHES = 10;

let built: string;
let serve: ChildProcess | undefined;
let serveLog = "";
let api: string;
let text: string;

/**
 * A copy of the build as a mirror holds it (no site server: a mirror renders no page on demand),
 * marked `mark`. Hard links, as the mirror's own runs make them, by `cp` in a child process: copying
 * in this process would hold the clients' event loop, and a client whose loop is held finds its
 * kept-alive connections closed under its next request (the failure under test, made by the test).
 * The marked file is unlinked first, so only this copy changes.
 */
async function copyOf(target: string, mark: number): Promise<void> {
  await run("cp", ["-al", built, target]);
  await rm(join(target, "site", "server"), { recursive: true, force: true });
  const file = join(target, MARKED);
  const bytes = readFileSync(file, "utf8");
  unlinkSync(file);
  writeFileSync(file, markOf(bytes, mark));
}

/** The body with its first name's last letter replaced by the mark's digit (0–9, then again). */
function markOf(body: string, mark: number): string {
  const at = body.indexOf('"name":"') + '"name":"'.length;
  const end = body.indexOf('"', at);
  return `${body.slice(0, end - 1)}${mark % 10}${body.slice(end)}`;
}

/** The mark of a served copy's file. */
const markIn = (body: string) => {
  const at = body.indexOf('"name":"') + '"name":"'.length;
  return body[body.indexOf('"', at) - 1];
};

beforeAll(async () => {
  built = markServed(await buildAndSwap({ urls: buildUrls(loadConfig({})), build: buildDist, log: () => undefined }));
  mkdirSync(join(dir, "versions"), { recursive: true });
  const staging = join(dir, "versions", "copy-0.partial");
  await copyOf(staging, 0);
  await swapCurrent(dir, staging, "copy");
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
  await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 120_000, `cloud-catalogue serve\n${serveLog}`);
}, 600_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve!.once("exit", resolve));
    serve.kill("SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
}, 60_000);

let client = 0;
/** Each request names its own client (X-Forwarded-For): the per-IP limits are not under test. */
function asNewClient(): Record<string, string> {
  client++;
  return { "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
}

/** One answer as a client saw it: when it ended, its status (or error), how long it took, the copy it came from. */
interface Seen {
  readonly client: "node" | "undici";
  readonly at: number;
  readonly ms: number;
  readonly url: string;
  readonly status: number | string;
  readonly mark?: string;
}

/** A GET through Node's agent. */
function askNode(url: string, agent: Agent): Promise<Seen> {
  const started = performance.now();
  return new Promise<Seen>((resolve) => {
    let body = "";
    const done = (status: number | string) => {
      const at = performance.now();
      resolve({
        client: "node",
        at,
        ms: at - started,
        url,
        status,
        ...(url.endsWith(MARKED) ? { mark: markIn(body) } : {}),
      });
    };
    const request = httpGet(url, { agent, headers: asNewClient() }, (answer) => {
      answer.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      answer.once("end", () => done(answer.statusCode ?? "no status"));
      answer.once("error", (error) => done(String(error)));
    });
    request.once("error", (error) => done(String(error)));
  });
}

/** A GET through undici with its defaults (its idle timer from the server's Keep-Alive hint). */
async function askUndici(url: string, dispatcher: UndiciAgent): Promise<Seen> {
  const started = performance.now();
  let status: number | string;
  let body = "";
  try {
    const answer = await undiciRequest(url, { dispatcher, headers: asNewClient() });
    body = await answer.body.text();
    status = answer.statusCode;
  } catch (error) {
    status = String(error);
  }
  const at = performance.now();
  return {
    client: "undici",
    at,
    ms: at - started,
    url,
    status,
    ...(url.endsWith(MARKED) ? { mark: markIn(body) } : {}),
  };
}

/** wrk's Lua script: the pages in turn, each request its own client, and the summary as JSON on stdout. */
const WRK_SCRIPT = `
local paths = { "/mirror/${MARKED}", "/v1/services/aws-s3", "/v1/providers", "/v1/categories" }
local n = 0
request = function()
  n = n + 1
  local headers = { ["X-Forwarded-For"] = "10.200." .. (n % 250) .. "." .. (math.floor(n / 250) % 250) }
  return wrk.format("GET", paths[(n % #paths) + 1], headers)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"maxMs":%d}\\n',
    summary.requests, e.connect, e.read, e.write, e.status, e.timeout, latency.max / 1000))
end
`;

interface WrkSummary {
  requests: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  maxMs: number;
}

/** wrk on 8 kept-alive connections until `stop`, then its summary. */
function startWrk(): { stop(): Promise<WrkSummary> } {
  const script = join(work, "wrk.lua");
  writeFileSync(script, WRK_SCRIPT);
  const child = spawn(wrk!, ["-t", "1", "-c", "8", "-d", "600s", "-s", script, api], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    stop: async () => {
      // wrk stops on SIGINT and prints its summary.
      child.kill("SIGINT");
      await exited;
      const line = /WRK (\{.*\})/.exec(output);
      if (!line) throw new Error(`wrk printed no summary:\n${output}`);
      return JSON.parse(line[1]!) as WrkSummary;
    },
  };
}

describe.skipIf(!wrk)("serve switching copies under kept-alive clients", () => {
  it(`fails no request of Node's agent, undici or wrk across ${SWITCHES} switches, and answers from the new copy within 1 s of 'now serving'`, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const undici = new UndiciAgent();
    const pages = [`${api}/mirror/${MARKED}`, `${api}/v1/services/aws-s3`, `${text}/aws/s3`, `${api}/v1/providers`];
    // A client that asks every 2.5 s on its own kept-alive connection: idle at a switch, it asks
    // again on that connection after it (the old hosts' connection, still open).
    const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seen: Seen[] = [];
    let asking = true;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Eight Node clients and four undici ones, each with a pause now and then, so some connections
    // are idle at a switch and some busy.
    const nodeClients = Array.from({ length: 8 }, async (_, index) => {
      for (let turn = index; asking; turn++) {
        seen.push(await askNode(pages[turn % pages.length]!, agent));
        if (turn % 7 === index % 7) await pause(50 + 150 * index);
      }
    });
    const undiciClients = Array.from({ length: 4 }, async (_, index) => {
      for (let turn = index; asking; turn++) {
        seen.push(await askUndici(pages[turn % pages.length]!, undici));
        if (turn % 5 === index) await pause(100 + 400 * index);
      }
    });
    const slow = (async () => {
      while (asking) {
        seen.push(await askNode(pages[0]!, slowAgent));
        await pause(2500);
      }
    })();
    const load = startWrk();
    // "now serving" as serve says it, when this process read it.
    const switchedAt: number[] = [];
    const held: number[] = [];
    serve!.stderr!.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.includes("serve: now serving")) continue;
        switchedAt.push(performance.now());
        held.push(Number(/held at most (\d+) ms/.exec(line)?.[1]));
      }
    });
    for (let mark = 1; mark <= SWITCHES; mark++) {
      await pause(3000);
      const staging = join(dir, "versions", `copy-${mark}.partial`);
      await copyOf(staging, mark);
      await swapCurrent(dir, staging, "copy");
      await waitFor(() => Promise.resolve(switchedAt.length === mark), 60_000, `switch ${mark}\n${serveLog}`);
    }
    await pause(3000);
    asking = false;
    await Promise.all([...nodeClients, ...undiciClients, slow]);
    const wrkSummary = await load.stop();
    agent.destroy();
    slowAgent.destroy();
    await undici.close();

    const failed = seen.filter((answer) => answer.status !== 200);
    // From 1 s after each "now serving", every answer of the marked file is the new copy's.
    const copyAt = (answer: Seen) => switchedAt.filter((at) => answer.at > at + 1000).length;
    // Within that second an answer may be either copy's (marks run 0–9, then again).
    const fresh = (answer: Seen) => [copyAt(answer), copyAt(answer) + 1].map((copy) => String(copy % 10));
    const stale = seen.filter((answer) => answer.mark !== undefined && !fresh(answer).includes(answer.mark));
    const slowest = (kind: Seen["client"]) =>
      Math.round(Math.max(...seen.filter((answer) => answer.client === kind).map((answer) => answer.ms)));
    const count = (kind: Seen["client"]) => seen.filter((answer) => answer.client === kind).length;
    console.log(
      `mirror keep-alive over ${SWITCHES} switches: Node ${count("node")} requests (slowest ${slowest("node")} ms), undici ${count("undici")} (slowest ${slowest("undici")} ms), ` +
        `wrk ${wrkSummary.requests} (slowest ${wrkSummary.maxMs} ms); ${failed.length} failed, ${stale.length} stale; ` +
        `serve's event loop held at most ${Math.max(...held)} ms in a switch (${held.join(", ")})`,
    );
    expect(realpathSync(currentDir(dir))).toMatch(/copy-/);
    expect(failed.map((answer) => `${answer.client} ${answer.url} ${answer.status}`)).toEqual([]);
    expect(stale.map((answer) => `${answer.url} from copy ${answer.mark} (${copyAt(answer)} switches)`)).toEqual([]);
    // wrk counts an answer slower than 2 s as a timeout, and any other status than 2xx/3xx.
    expect(wrkSummary).toMatchObject({ connect: 0, read: 0, write: 0, status: 0, timeout: 0 });
    expect(wrkSummary.requests).toBeGreaterThan(1000);
    expect(seen.filter((answer) => answer.mark === String(SWITCHES % 10)).length).toBeGreaterThan(0);
  }, 600_000);
});
