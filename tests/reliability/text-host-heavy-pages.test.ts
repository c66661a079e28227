/**
 * The text host's computed pages (a matrix for some providers, a comparison, a search, a filtered
 * lifecycle; HTML and text) ran on the event loop the API shares: 60 addresses × 30 requests, each
 * under the text host's 60 a minute, held the API's /v1/health at p50 10.6 s and p99 19.8 s. Now
 * they run in the heavy computations' thread. wrk (a process of its own, so that this one only
 * measures) sends them from 60 addresses (X-Forwarded-For, the server trusting loopback) for 20 s
 * while /v1/health is polled: its p99 must stay under 100 ms.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startAsUserPerSuite } from "../helpers/process.ts";
import { LOAD_PROVIDERS, LOAD_SERVICES } from "./memory-load.ts";

const ADDRESSES = 60;
const SECONDS = 10;
const P99_LIMIT_MS = 100;

/** 2,000 distinct computed pages, so that few are answered from the kept ones. */
function pages(): { path: string; accept: string }[] {
  return Array.from({ length: 2000 }, (_, n) => {
    const pick = <T>(list: readonly T[], count: number) =>
      [...new Set(Array.from({ length: count }, (_, i) => list[(n * 7 + i * 3) % list.length]!))].join(",");
    const width = 60 + (n % 140);
    const path = [
      `/equivalents/?providers=${pick(LOAD_PROVIDERS, 2 + (n % 5))}&width=${width}`,
      `/compare?ids=${pick(LOAD_SERVICES, 2 + (n % 4))}&width=${width}`,
      `/search?q=storage+${n}`,
      `/lifecycle?within=${1 + (n % 365)}&width=${width}`,
    ][n % 4]!;
    return { path, accept: n % 3 === 0 ? "text/html" : "text/plain" };
  });
}

/** wrk's script: each request the next page, from the next of ADDRESSES clients. */
const WRK_SCRIPT = `
local pages = {}
for line in io.lines(os.getenv("PAGES_FILE")) do
  local accept, path = line:match("^(%S+) (.+)$")
  table.insert(pages, { accept = accept, path = path })
end
local counter = 0
local threads = {}
function setup(thread)
  thread:set("offset", math.random(1, #pages))
  table.insert(threads, thread)
end
ok, limited, busy, other = 0, 0, 0, 0
response = function(status)
  if status == 200 then ok = ok + 1
  elseif status == 429 then limited = limited + 1
  elseif status == 503 then busy = busy + 1
  else other = other + 1 end
end
function done()
  local sums = { ok = 0, limited = 0, busy = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for name in pairs(sums) do sums[name] = sums[name] + thread:get(name) end
  end
  io.write(string.format("statuses: 200 %d, 429 %d, 503 %d, other %d\\n", sums.ok, sums.limited, sums.busy, sums.other))
end
request = function()
  counter = counter + 1
  local page = pages[((offset or 0) + counter) % #pages + 1]
  local client = ((offset or 0) + counter) % ${ADDRESSES}
  return wrk.format("GET", page.path, { ["Accept"] = page.accept, ["X-Forwarded-For"] = "10.7.0." .. client })
end
`;

const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

describe.skipIf(process.platform !== "linux")(
  "the API's health while 60 addresses ask the text host for computed pages",
  () => {
    if (!hasWrk && process.env.CI === "true") throw new Error("wrk is required under CI");
    const server = startAsUserPerSuite("text-heavy-pages", { TRUST_PROXY: "127.0.0.1" });
    const dir = mkdtempSync(join(tmpdir(), "csc-text-heavy-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.skipIf(!hasWrk)(
      `keeps /v1/health's p99 under ${P99_LIMIT_MS} ms`,
      async () => {
        const { port, textPort } = server();
        const health = `http://127.0.0.1:${port}/v1/health`;
        const poll = async (until: () => boolean) => {
          const times: number[] = [];
          while (!until()) {
            const started = performance.now();
            expect((await fetch(health)).status).toBe(200);
            times.push(performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return times.sort((a, b) => a - b);
        };
        const quantile = (times: number[], q: number) =>
          times[Math.min(times.length - 1, Math.ceil(times.length * q) - 1)]!;
        // The same polling with nothing else going on, for comparison (a shared machine's own jitter).
        const quietUntil = performance.now() + 3000;
        const quiet = await poll(() => performance.now() > quietUntil);

        const pagesFile = join(dir, "pages.txt");
        writeFileSync(
          pagesFile,
          pages()
            .map(({ path, accept }) => `${accept} ${path}`)
            .join("\n") + "\n",
        );
        const scriptFile = join(dir, "pages.lua");
        writeFileSync(scriptFile, WRK_SCRIPT);
        const wrk = spawn(
          "wrk",
          [
            "-t",
            "2",
            "-c",
            String(ADDRESSES),
            "-d",
            `${SECONDS}s`,
            "--latency",
            "-s",
            scriptFile,
            `http://127.0.0.1:${textPort}`,
          ],
          { env: { ...process.env, PAGES_FILE: pagesFile }, stdio: ["ignore", "pipe", "pipe"] },
        );
        let report = "";
        wrk.stdout.on("data", (chunk) => (report += chunk));
        wrk.stderr.on("data", (chunk) => (report += chunk));
        let loading = true;
        const finished = new Promise<number | null>((resolve) => wrk.once("exit", (code) => resolve(code)));
        void finished.then(() => (loading = false));
        const times = await poll(() => !loading);
        expect(await finished, report).toBe(0);

        const requests = /(\d+) requests in/.exec(report)?.[1];
        const statuses = /statuses: (.*)/.exec(report)?.[1] ?? "";
        const other = Number(/other (\d+)/.exec(statuses)?.[1] ?? NaN);
        const p50 = quantile(times, 0.5);
        const p99 = quantile(times, 0.99);
        console.log(
          `text host computed pages: wrk ${ADDRESSES} connections from ${ADDRESSES} addresses for ${SECONDS} s: ${requests} requests (${statuses}: 429 is the text host's limit of 60 a minute per address, 503 too many waiting); /v1/health × ${times.length}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (alone before: p50 ${quantile(quiet, 0.5).toFixed(1)} ms, p99 ${quantile(quiet, 0.99).toFixed(1)} ms)`,
        );
        expect(Number(requests)).toBeGreaterThan(0);
        // Computed, limited or refused for a full queue; nothing else (no 500).
        expect(other, report).toBe(0);
        expect(p99).toBeLessThan(P99_LIMIT_MS);
        // The pages were computed, not only refused: one of each kind answers 200 afterwards from a new
        // address, once the jobs wrk left queued have drained (503 "too many waiting" until then).
        for (const { path, accept } of pages().slice(0, 4)) {
          const ask = () =>
            fetch(`http://127.0.0.1:${textPort}${path}`, { headers: { accept, "x-forwarded-for": "10.8.0.1" } });
          let page = await ask();
          for (const giveUp = Date.now() + 30_000; page.status === 503 && Date.now() < giveUp; page = await ask())
            await new Promise((resolve) => setTimeout(resolve, 250));
          expect(page.status, path).toBe(200);
        }
      },
      120_000,
    );
  },
);
