/**
 * `npm start` on a port the build was not made for: dist/ is reused (the listen port is not an input
 * of the build, build/inputs.ts), and every answer carries this server's URLs, its compressed forms
 * included (files.ts rewrites the build's canonical URLs as it reads the files).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "../../scripts/components.ts";
import { CANONICAL_URLS } from "../../sidecar/config.ts";
import { START_ARGS, START_ENV } from "../helpers/process.ts";

interface Started {
  readonly child: ChildProcess;
  readonly api: string;
  readonly text: string;
  stdout(): string;
}

const running: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), "csc-port-"));
afterAll(async () => {
  for (const child of running) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` as a user runs it, on free ports; resolves once /v1/health answers. */
async function start(): Promise<Started> {
  const [port, textPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...START_ENV,
    PORT: String(port),
    TEXT_PORT: String(textPort),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  };
  delete env.PUBLIC_API_URL;
  delete env.PUBLIC_TEXT_URL;
  const child = spawn(process.execPath, [...START_ARGS], { env, stdio: ["ignore", "pipe", "inherit"] });
  running.push(child);
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  const api = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 600_000, "npm start");
  // A stale dist/ is built while the sources answer (a minute or more on a busy machine): wait for it.
  await waitFor(
    () => Promise.resolve(/start: (dist\/ is up to date|now serving the built files)/.test(stdout)),
    600_000,
    "npm start to serve the build",
  );
  return { child, api, text: `http://127.0.0.1:${textPort}`, stdout: () => stdout };
}

async function stop(server: Started): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

/** An answer's text in each encoding (fetch decompresses), and the encodings it was sent in. */
async function texts(url: string, headers: Record<string, string> = {}): Promise<{ bodies: string[]; sent: string[] }> {
  const bodies: string[] = [];
  const sent: string[] = [];
  for (const encoding of ["identity", "br", "gzip"]) {
    const response = await fetch(url, { headers: { ...headers, "accept-encoding": encoding } });
    expect(response.status, url).toBe(200);
    sent.push(response.headers.get("content-encoding") ?? "identity");
    bodies.push(await response.text());
  }
  return { bodies, sent };
}

describe("npm start on another port", () => {
  it("reuses dist/ and answers with its own URLs, never the build's", { timeout: 900_000 }, async () => {
    // The first start builds dist/ if it is stale; the second, on other ports, must not.
    await stop(await start());
    const server = await start();
    expect(server.stdout()).toContain("start: dist/ is up to date");
    const samples = [
      `${server.api}/`,
      `${server.api}/openapi.json`,
      `${server.api}/v1/lifecycle`,
      `${server.api}/v1/lifecycle.atom`,
      `${server.text}/`,
      `${server.text}/aws/s3`,
    ];
    const seen: string[] = [];
    for (const url of samples) {
      const accept: Record<string, string> = url.startsWith(server.text) ? { accept: "text/html" } : {};
      const { bodies, sent } = await texts(url, accept);
      // The compressed forms too: each is made from the rewritten text, not the build's sibling.
      if (url === `${server.api}/`) expect(sent).toEqual(["identity", "br", "gzip"]);
      for (const body of bodies) {
        expect(body, url).not.toContain(CANONICAL_URLS.apiUrl);
        expect(body, url).not.toContain(CANONICAL_URLS.textUrl);
        seen.push(body);
      }
    }
    // The URLs are there, this server's: the discovery document names its OpenAPI and text host.
    expect(seen[0]).toContain(`${server.api}/openapi.json`);
    expect(seen.some((body) => body.includes(server.text))).toBe(true);
    const markdown = await texts(`${server.text}/aws?format=md`);
    for (const body of markdown.bodies) expect(body).not.toContain(CANONICAL_URLS.apiUrl);
    await stop(server);
  });
});
