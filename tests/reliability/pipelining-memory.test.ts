/**
 * decisions.md#bounded-memory: one connection writing thousands of pipelined GETs for the largest built file
 * and reading nothing drove `npm start` from 139 MiB to 4.8 GiB in 3 s (each queued request read
 * its own copy of the 12.8 MB file). Started as a user gets it (scripts/start.ts, which builds
 * dist/ when stale, real HTTP, default settings), the server's RSS must stay under the memory
 * suites' bound (tests/helpers/process.ts).
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { MEMORY_BOUND_MB, rssMb, rssPeak, startAsUserPerSuite } from "../helpers/process.ts";
import { catalogueDumpBytes } from "./memory-load.ts";

const REQUESTS = 4000;
const LIMIT_MB = MEMORY_BOUND_MB;

describe.skipIf(process.platform !== "linux")("pipelined requests for the largest file", () => {
  const server = startAsUserPerSuite("pipelining");

  it(`keeps the server under ${LIMIT_MB} MB while one connection pipelines ${REQUESTS} GET /catalogue.json and reads nothing`, async () => {
    const { serverPid, port } = server();
    const base = `http://127.0.0.1:${port}`;
    const size = await catalogueDumpBytes(base);
    // The file: the catalogue's full export, the largest the build writes.
    expect(size).toBeGreaterThan(5_000_000);
    const pid = serverPid();
    const ready = rssMb(pid);
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    // Read nothing: the answers pile up on the server's side.
    socket.pause();
    socket.write("GET /catalogue.json HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(REQUESTS));
    const { mb: peak, seconds: held } = await rssPeak(pid, { maxMs: 10_000 });
    socket.destroy();
    console.log(
      `pipelining: RSS ${ready.toFixed(0)} MB when ready, peak ${peak.toFixed(0)} MB over ${held.toFixed(0)} s of ${REQUESTS} pipelined GET /catalogue.json (${(size / 1e6).toFixed(1)} MB each), nothing read`,
    );
    expect(peak).toBeLessThan(LIMIT_MB);
    // The server still answers.
    expect((await fetch(`${base}/v1/health`)).ok).toBe(true);
  }, 60_000);
});
