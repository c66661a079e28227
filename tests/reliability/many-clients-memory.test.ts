/**
 * decisions.md#bounded-memory: 200 connections that each pipelined 50 `GET /catalogue.json` (10 MB each) and
 * read nothing drove `npm start` from 165 to 896–942 MiB, and it held ~926 MiB a minute after every
 * socket had closed: the per-connection cap bounded one socket, nothing bounded the total. Started
 * as a user gets it (scripts/start.ts with package.json's flags and environment), the server's RSS
 * must stay under the memory suites' bound meanwhile (MEMORY_BOUND_MB, 400 MB) and be back under
 * 250 MB a minute after the clients go.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { MEMORY_BOUND_MB, rssBackUnder, rssMb, rssPeak, startAsUserPerSuite } from "../helpers/process.ts";
import { catalogueDumpBytes } from "./memory-load.ts";

const CONNECTIONS = 200;
const PIPELINED = 50;
const DURING_LIMIT_MB = MEMORY_BOUND_MB;
const AFTER_LIMIT_MB = 250;

describe.skipIf(process.platform !== "linux")("many connections pipelining the largest file", () => {
  const server = startAsUserPerSuite("many-clients");

  it(`keeps the server under ${DURING_LIMIT_MB} MB while ${CONNECTIONS} connections each pipeline ${PIPELINED} GET /catalogue.json and read nothing, and under ${AFTER_LIMIT_MB} MB a minute after they close`, async () => {
    const { serverPid, port } = server();
    const base = `http://127.0.0.1:${port}`;
    const size = await catalogueDumpBytes(base);
    expect(size).toBeGreaterThan(5_000_000);
    const pid = serverPid();
    const ready = rssMb(pid);
    const sockets: Socket[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      // Read nothing: the answers pile up on the server's side.
      socket.pause();
      socket.once("connect", () =>
        socket.write("GET /catalogue.json HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(PIPELINED)),
      );
      sockets.push(socket);
    }
    const { mb: peak, seconds: held } = await rssPeak(pid);
    // The server still answers others meanwhile.
    expect((await fetch(`${base}/v1/health`)).ok).toBe(true);
    for (const socket of sockets) socket.destroy();
    const { mb: after, seconds } = await rssBackUnder(pid, AFTER_LIMIT_MB);
    console.log(
      `many clients: RSS ${ready.toFixed(0)} MB when ready, peak ${peak.toFixed(0)} MB over ${held.toFixed(0)} s of ${CONNECTIONS} connections × ${PIPELINED} pipelined GET /catalogue.json (${(size / 1e6).toFixed(1)} MB each), nothing read; ${after.toFixed(0)} MB ${seconds.toFixed(1)} s after they closed`,
    );
    expect(peak).toBeLessThan(DURING_LIMIT_MB);
    expect(after).toBeLessThan(AFTER_LIMIT_MB);
    expect((await fetch(`${base}/v1/health`)).ok).toBe(true);
  }, 120_000);
});
