import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { freePort, waitFor } from "../helpers/components.ts";

const SERVER = fileURLToPath(new URL("../../sidecar/server.ts", import.meta.url));
const CLIENT = "198.51.100.7";

it("writes one access line per request at the default level, all of them by exit, each with the client Fastify sees", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "csc-access-log-"));
  const [port, textPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      TEXT_PORT: String(textPort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // Behind a proxy: the client is the one X-Forwarded-For names.
      TRUST_PROXY: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  try {
    const api = `http://127.0.0.1:${port}`;
    // A readiness wait, not a measure: the start took past 20 s beside the other suites on a loaded machine.
    await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 90_000, "the server to start");
    // Repeated and one-off URLs, and a 404.
    const urls = [
      ...Array.from({ length: 150 }, () => "/v1/services?q=storage&limit=5"),
      ...Array.from({ length: 50 }, (_, n) => `/v1/services?q=storage+${n}&limit=5`),
      "/v1/nope",
    ];
    // 40 at a time, so that many lines fall in one event-loop turn.
    for (let i = 0; i < urls.length; i += 40)
      await Promise.all(
        urls
          .slice(i, i + 40)
          .map(async (url) => (await fetch(`${api}${url}`, { headers: { "x-forwarded-for": CLIENT } })).arrayBuffer()),
      );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    const lines = stdout
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { method: string; url: string; status: number; ip: string })
      // The start-up health checks are logged too.
      .filter((line) => line.url !== "/v1/health");
    expect(lines).toHaveLength(urls.length);
    expect(lines.map((line) => line.url).sort()).toEqual([...urls].sort());
    expect(lines.find((line) => line.url === "/v1/nope")?.status).toBe(404);
    expect(lines.every((line) => line.method === "GET" && line.ip === CLIENT)).toBe(true);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 150_000);
