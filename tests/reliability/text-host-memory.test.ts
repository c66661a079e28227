/**
 * The text host bounded like the API host. It answered /v1/* through an in-process inject, which
 * built every answer whole in memory: 200 connections × 16 pipelined GET /v1/equivalents took
 * `npm start` to 1,054 MB (255 MB on the API host). Its computed pages (a matrix for some
 * providers, a comparison, a search) ran on the event loop, uncached, and a mixed run of 200 × 50
 * pipelined page requests left RSS at about 1 GB three minutes later. Started as a user gets it,
 * the server must stay under the memory suites' bound (400 MB, tests/helpers/process.ts) during
 * each run and be back under 250 MB a minute after. Computed pages cost the most: the heavy thread
 * that keeps them off the event loop holds its own catalogue and the site's renderer (about 85 MB
 * at rest), and 3,200 requests parked unread add 60–75 MB; seven runs peaked at 287–329 MB
 * (2026-11-26, busy machine). Each peak is printed beside the bound.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { MEMORY_BOUND_MB, rssBackUnder, rssMb, rssPeak, startAsUserPerSuite } from "../helpers/process.ts";
import { LOAD_PROVIDERS, LOAD_SERVICES } from "./memory-load.ts";

const CONNECTIONS = 200;
const PIPELINED = 16;
/** The memory suites' bound (tests/helpers/process.ts): the API host's /v1/ queries peaked at 244, 260 and 342 MB in three CI runs of one day's code. */
const DURING_LIMIT_MB = MEMORY_BOUND_MB;
const COMPUTED_DURING_LIMIT_MB = MEMORY_BOUND_MB;
const AFTER_LIMIT_MB = 250;

/** The largest answers under /v1/ (the dump is not under /v1/: /v1/%2e%2e/ is refused). */
const API_READS = ["/v1/equivalents", "/v1/services?limit=200", "/v1/lifecycle", "/v1/changes", "/v1/providers"];

const WORDS = ["object storage", "kubernetes", "database", "queue", "dns", "cdn", "backup", "vpn", "key", "log"];

/** The `n`th of a mix of /v1/ reads each computed on first asking, as varied as many users make them. */
function queryRead(n: number, withDump: boolean): string {
  const reads = [
    `/v1/services?limit=200&page=${1 + (n % 9)}`,
    `/v1/services?provider=${LOAD_PROVIDERS[n % LOAD_PROVIDERS.length]}&limit=200`,
    `/v1/services?q=${encodeURIComponent(WORDS[n % WORDS.length]!)}&page=${1 + (n % 3)}`,
    `/v1/compare?ids=${LOAD_SERVICES[n % LOAD_SERVICES.length]},${LOAD_SERVICES[(n + 1) % LOAD_SERVICES.length]}`,
    // A query GET /v1/equivalents does not take is a 400 since 1.11.0: exposure varies by its ids.
    `/v1/exposure?ids=${LOAD_SERVICES[n % LOAD_SERVICES.length]},${LOAD_SERVICES[(n + 2) % LOAD_SERVICES.length]}`,
    `/v1/lifecycle?within=${1 + (n % 365)}`,
    `/v1/services/${LOAD_SERVICES[n % LOAD_SERVICES.length]}`,
    withDump ? "/catalogue.json" : "/v1/equivalents",
  ];
  return reads[n % reads.length]!;
}

/** The `n`th computed page: each a new query (a cache alone would not bound them), in turn HTML and text. */
function computedPage(n: number): { path: string; accept: string } {
  const pick = <T>(list: readonly T[], count: number) =>
    Array.from({ length: count }, (_, i) => list[(n * 7 + i * 3) % list.length]!);
  const width = 60 + (n % 140);
  const paths = [
    `/equivalents/?providers=${[...new Set(pick(LOAD_PROVIDERS, 2 + (n % 5)))].join(",")}&width=${width}`,
    `/compare?ids=${[...new Set(pick(LOAD_SERVICES, 2 + (n % 4)))].join(",")}&width=${width}`,
    `/search?q=${encodeURIComponent(pick(WORDS, 1)[0]!)}+${n}`,
    `/lifecycle?within=${1 + (n % 365)}&width=${width}`,
  ];
  return { path: paths[n % paths.length]!, accept: n % 2 === 0 ? "text/html" : "text/plain" };
}

describe.skipIf(process.platform !== "linux")("the text host under many clients that do not read", () => {
  // Each connection speaks for an address of its own (X-Forwarded-For): the per-IP limits let the load through.
  const server = startAsUserPerSuite("text-memory", { TRUST_PROXY: "127.0.0.1" });

  /**
   * Opens CONNECTIONS sockets to the text host (or `port`), each writing `requests(i)` and reading
   * nothing (or everything, `reading`); samples RSS until its peak holds (rssPeak).
   */
  async function load(
    requests: (connection: number) => string,
    { port, reading = false, afterWithinMs }: { port?: number; reading?: boolean; afterWithinMs?: number } = {},
  ): Promise<{ ready: number; peak: number; held: number; after: number; seconds: number }> {
    const { serverPid, textPort } = server();
    const pid = serverPid();
    const ready = rssMb(pid);
    const sockets: Socket[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const socket = connect(port ?? textPort, "127.0.0.1");
      socket.on("error", () => undefined);
      // Read nothing: the answers pile up on the server's side. Or read all, as fast as it comes.
      if (reading) socket.on("data", () => undefined);
      else socket.pause();
      socket.once("connect", () => socket.write(requests(i)));
      sockets.push(socket);
    }
    const { mb: peak, seconds: held } = await rssPeak(pid);
    // The API's health answers meanwhile, on both hosts.
    expect((await fetch(`http://127.0.0.1:${server().port}/v1/health`)).ok).toBe(true);
    expect((await fetch(`http://127.0.0.1:${textPort}/v1/health`)).ok).toBe(true);
    for (const socket of sockets) socket.destroy();
    const { mb: after, seconds } = await rssBackUnder(pid, AFTER_LIMIT_MB, afterWithinMs);
    return { ready, peak, held, after, seconds };
  }

  it(`keeps both hosts under ${DURING_LIMIT_MB} MB while ${CONNECTIONS} readers each pipeline ${PIPELINED} /v1/ reads of queries never asked before, and the dump`, async () => {
    const { port, textPort } = server();
    for (const [host, hostPort, prefix] of [
      ["text host", textPort, 20],
      ["API host", port, 21],
    ] as const) {
      const { ready, peak, held, after, seconds } = await load(
        (i) =>
          Array.from({ length: PIPELINED }, (_, n) => {
            const path = queryRead(i * PIPELINED + n, host === "API host");
            // Half of them brotli: each kept answer is compressed once, not once per request waiting for it.
            const encoding = n % 2 === 0 ? "identity" : "br";
            return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${encoding}\r\nX-Forwarded-For: 10.${prefix}.${i >> 8}.${i & 255}\r\n\r\n`;
          }).join(""),
        { port: hostPort, reading: true, afterWithinMs: 30_000 },
      );
      console.log(
        `${host} /v1/ queries: RSS ${ready.toFixed(0)} MB when ready, peak ${peak.toFixed(0)} MB over ${held.toFixed(0)} s of ${CONNECTIONS} readers × ${PIPELINED} pipelined reads (pages of 200 services, searches, provider listings, comparisons, matrices${host === "API host" ? ", the dump" : ""}); ${after.toFixed(0)} MB ${seconds.toFixed(1)} s after they closed (bound ${MEMORY_BOUND_MB})`,
      );
      expect(peak, host).toBeLessThan(DURING_LIMIT_MB);
      expect(after, host).toBeLessThan(AFTER_LIMIT_MB);
      expect(seconds, host).toBeLessThan(30);
    }
  }, 200_000);

  it(`keeps the server under ${DURING_LIMIT_MB} MB while ${CONNECTIONS} connections each pipeline ${PIPELINED} of the largest /v1/ reads through the text host`, async () => {
    const { textPort } = server();
    const sizes: string[] = [];
    for (const path of API_READS) {
      const answer = await fetch(`http://127.0.0.1:${textPort}${path}`, { headers: { "accept-encoding": "identity" } });
      expect(answer.status, path).toBe(200);
      sizes.push(`${path} ${((await answer.arrayBuffer()).byteLength / 1e3).toFixed(0)} kB`);
    }
    const { ready, peak, held, after, seconds } = await load((i) =>
      Array.from(
        { length: PIPELINED },
        (_, n) =>
          `GET ${API_READS[(i + n) % API_READS.length]} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 10.1.${i >> 8}.${i & 255}\r\n\r\n`,
      ).join(""),
    );
    console.log(
      `text host /v1/: RSS ${ready.toFixed(0)} MB when ready, peak ${peak.toFixed(0)} MB over ${held.toFixed(0)} s of ${CONNECTIONS} connections × ${PIPELINED} pipelined reads (${sizes.join(", ")}), nothing read; ${after.toFixed(0)} MB ${seconds.toFixed(1)} s after they closed`,
    );
    expect(peak).toBeLessThan(DURING_LIMIT_MB);
    expect(after).toBeLessThan(AFTER_LIMIT_MB);
  }, 150_000);

  it(`keeps the server under ${COMPUTED_DURING_LIMIT_MB} MB while ${CONNECTIONS} addresses each pipeline ${PIPELINED} computed pages, and gives it back within a minute`, async () => {
    const { serverPid, textPort } = server();
    const cold = rssMb(serverPid());
    // Every kind of computed page answers, in HTML and text (the heavy thread starts with the first).
    for (let n = 0; n < 8; n++) {
      const { path, accept } = computedPage(n);
      const answer = await fetch(`http://127.0.0.1:${textPort}${path}`, {
        headers: { accept, "x-forwarded-for": `10.9.0.${n}` },
      });
      expect(answer.status, path).toBe(200);
    }
    const { ready, peak, held, after, seconds } = await load((i) =>
      Array.from({ length: PIPELINED }, (_, n) => {
        // Each connection starts with another kind of page: the mix, not one kind, waits unread.
        const { path, accept } = computedPage(i * (PIPELINED + 1) + n);
        return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nX-Forwarded-For: 10.2.${i >> 8}.${i & 255}\r\n\r\n`;
      }).join(""),
    );
    console.log(
      `text host computed pages: RSS ${cold.toFixed(0)} MB before the first page, ${ready.toFixed(0)} MB after eight, peak ${peak.toFixed(0)} MB over ${held.toFixed(0)} s of ${CONNECTIONS} addresses × ${PIPELINED} pipelined computed pages (matrix, compare, search, lifecycle; HTML and text), nothing read; ${after.toFixed(0)} MB ${seconds.toFixed(1)} s after they closed`,
    );
    expect(peak).toBeLessThan(COMPUTED_DURING_LIMIT_MB);
    expect(after).toBeLessThan(AFTER_LIMIT_MB);
  }, 150_000);
});
