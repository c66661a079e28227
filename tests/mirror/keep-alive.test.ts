/**
 * Issue 116: `cloud-catalogue serve` over a copy of the real catalogue's build, with kept-alive
 * clients asking all along, switched twice to a new copy. Over the real catalogue, building the new
 * hosts holds the event loop for seconds; requests sent meanwhile on idle kept-alive connections hung,
 * then were reset (10, 1, 9 and 2 failures over four switches), and the old copy answered for up to
 * 15.5 s after "now serving". Here: no request fails, and no answer from the replaced copy arrives
 * more than 1 s after serve says it serves the new one.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Agent, get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap, markServed } from "../../build/dist.ts";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { currentDir, swapCurrent } from "../../scripts/mirror.ts";
import { freePort, waitFor } from "../helpers/components.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-mirror-keep-alive-"));
const dir = join(work, "mirror");
/** A small file of each copy, marked with the copy's number (same length: the manifest's size holds). */
const MARKED = join("api", "v1", "categories.json");

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

/** The body with its first name's last letter replaced by the mark's digit. */
function markOf(body: string, mark: number): string {
  const at = body.indexOf('"name":"') + '"name":"'.length;
  const end = body.indexOf('"', at);
  return `${body.slice(0, end - 1)}${mark}${body.slice(end)}`;
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

/** One answer as a client saw it: when it ended, its status (or error) and the copy it came from. */
interface Seen {
  readonly at: number;
  readonly url: string;
  readonly status: number | string;
  readonly mark?: string;
}

describe("serve switching copies under kept-alive clients", () => {
  it("fails no request across two switches, and answers from the new copy within 1 s of 'now serving'", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const pages = [`${api}/mirror/${MARKED}`, `${api}/v1/services/aws-s3`, `${text}/aws/s3`, `${api}/v1/providers`];
    // A client that asks every 2.5 s on its own kept-alive connection: idle at a switch, it asks
    // again on that connection after it (the old hosts' connection, still open).
    const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (url: string, through = agent) =>
      new Promise<Seen>((resolve) => {
        let body = "";
        const done = (status: number | string) =>
          resolve({ at: performance.now(), url, status, ...(url.endsWith(MARKED) ? { mark: markIn(body) } : {}) });
        const request = httpGet(url, { agent: through, headers: asNewClient() }, (answer) => {
          answer.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
          answer.once("end", () => done(answer.statusCode ?? "no status"));
          answer.once("error", (error) => done(String(error)));
        });
        request.once("error", (error) => done(String(error)));
      });
    const seen: Seen[] = [];
    let asking = true;
    // Six clients, each with a pause now and then, so some connections are idle at a switch and some busy.
    const clients = Array.from({ length: 6 }, async (_, index) => {
      for (let turn = index; asking; turn++) {
        seen.push(await ask(pages[turn % pages.length]!));
        if (turn % 7 === index) await new Promise((resolve) => setTimeout(resolve, 50 + 100 * index));
      }
    });
    const slow = (async () => {
      while (asking) {
        seen.push(await ask(pages[0]!, slowAgent));
        await new Promise((resolve) => setTimeout(resolve, 2500));
      }
    })();
    // "now serving" as serve says it, when this process read it.
    const switchedAt: number[] = [];
    serve!.stderr!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("serve: now serving")) switchedAt.push(performance.now());
    });
    for (const mark of [1, 2]) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const staging = join(dir, "versions", `copy-${mark}.partial`);
      await copyOf(staging, mark);
      await swapCurrent(dir, staging, "copy");
      await waitFor(() => Promise.resolve(switchedAt.length === mark), 60_000, `switch ${mark}\n${serveLog}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    asking = false;
    await Promise.all([...clients, slow]);
    agent.destroy();
    slowAgent.destroy();

    const failed = seen.filter((answer) => answer.status !== 200);
    // From 1 s after each "now serving", every answer of the marked file is the new copy's.
    const stale = seen.filter(
      (answer) =>
        answer.mark !== undefined && switchedAt.some((at, i) => answer.at > at + 1000 && Number(answer.mark) < i + 1),
    );
    const lateness = stale.map((answer) => {
      const i = Number(answer.mark);
      return Math.round(answer.at - switchedAt[i]!);
    });
    console.log(
      `mirror keep-alive: ${seen.length} requests, ${failed.length} failed, ${stale.length} stale (ms after now serving: ${lateness.join(", ") || "none"})`,
    );
    expect(realpathSync(currentDir(dir))).toMatch(/copy-/);
    expect(failed.map((answer) => `${answer.url} ${answer.status}`)).toEqual([]);
    expect(stale.map((answer) => `${answer.url} from copy ${answer.mark}`)).toEqual([]);
    expect(seen.filter((answer) => answer.mark === "2").length).toBeGreaterThan(0);
  }, 300_000);
});
