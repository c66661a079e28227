/**
 * Issue 120: a server that died (a template that ended it, an out-of-memory kill) stayed down:
 * nothing restarted it. `npm start` now supervises the server (scripts/start.ts, supervisor.ts):
 * killed, it is started again on the same ports with the same store; stopped on purpose (SIGTERM
 * to npm start) it stays stopped; and a supervisor killed outright leaves no server behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { waitFor } from "../helpers/components.ts";
import { childrenOf, startAsUser } from "../helpers/process.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits for `url` to answer 200 (polled every 50 ms): how long it took, in ms. */
async function answersAgain(url: string, withinMs = 120_000): Promise<number> {
  const started = performance.now();
  await waitFor(async () => (await fetch(url)).ok, withinMs, url);
  return Math.round(performance.now() - started);
}

async function started(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `csc-${name}-`));
  const server = await startAsUser(dataDir);
  onTestFinished(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}

describe.skipIf(process.platform !== "linux")("npm start's supervisor", () => {
  it("starts the server again on the same ports after kill -9, its lists kept", async () => {
    const server = await started("restart");
    const api = `http://127.0.0.1:${server.port}`;
    const list = await fetch(`${api}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "kept across a restart", approvedServiceIds: ["aws-s3"] }),
    });
    expect(list.status).toBe(200);
    const { id } = (await list.json()) as { id: string };
    for (let round = 1; round <= 2; round++) {
      const before = server.serverPid();
      process.kill(before, "SIGKILL");
      const ms = await answersAgain(`${api}/v1/health`);
      const after = server.serverPid();
      console.log(`restart: server ${before} killed -9, process ${after} answering /v1/health ${ms} ms later`);
      expect(after).not.toBe(before);
      expect(alive(server.child.pid!)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${server.textPort}/aws?format=md`)).status).toBe(200);
      expect((await fetch(`${api}/v1/lists/${id}`)).status).toBe(200);
    }
  }, 300_000);

  it("stops with the server on SIGTERM, exit code 0, and leaves no server when killed outright", async () => {
    const server = await started("stop");
    const serverPid = server.serverPid();
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await waitFor(() => !alive(serverPid), 30_000, "the server to stop");

    const again = await started("orphan");
    const orphan = again.serverPid();
    again.child.kill("SIGKILL");
    // Its IPC channel closed, the server closes and exits: the port is free again.
    await waitFor(() => !alive(orphan), 30_000, "the server left by its supervisor to stop");
    expect(childrenOf(again.child.pid!)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${again.port}/v1/health`)).rejects.toThrow();
  }, 300_000);
});
