/**
 * The stdio server as a desktop assistant starts it: a child process (scripts/mcp-stdio.ts) over a build,
 * driven by the SDK's own Client. Its answers are compared with the API's (app.inject) for the same
 * requests; saved lists, which need the API server's store, are refused clearly.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { build, realCatalogue, URLS } from "../helpers/app.ts";
import {
  call,
  expectListings,
  expectPrompts,
  expectResources,
  expectSameAsApi,
  expectToolError,
  INVALID,
  VALID,
} from "./shared.ts";

const STDIO = fileURLToPath(new URL("../../scripts/mcp-stdio.ts", import.meta.url));

/** A build holding what the stdio server reads: the validated catalogue, as scripts/build.ts writes it. */
function buildFolder(): string {
  const dist = mkdtempSync(join(tmpdir(), "csc-mcp-dist-"));
  mkdirSync(join(dist, "api"));
  writeFileSync(join(dist, "api", "catalogue-source.json"), JSON.stringify(realCatalogue().source));
  return dist;
}

function stdioClient(
  args: string[],
  env: Record<string, string> = { PUBLIC_API_URL: URLS.apiUrl, PUBLIC_TEXT_URL: URLS.textUrl },
): { client: Client; transport: StdioClientTransport; stderr: string[] } {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [STDIO, ...args],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return { client: new Client({ name: "stdio-test", version: "1.0.0" }), transport, stderr };
}

describe("the MCP server over stdio", () => {
  let dist: string;
  let client: Client;
  let stderr: string[];
  beforeAll(async () => {
    dist = buildFolder();
    const started = stdioClient(["--dist", dist]);
    ({ client, stderr } = started);
    await client.connect(started.transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    rmSync(dist, { recursive: true, force: true });
  });
  // The API's answers to compare with, through app.inject (build() closes it after each test).
  const api = (): Promise<FastifyInstance> => build();

  it("lists its tools, resource templates, resources and prompts", async () => {
    await expectListings(client, realCatalogue());
    expect(client.getServerVersion()?.name).toBe("cloud-services-catalogue");
    expect(client.getInstructions()).toContain("Cite the release");
  });

  it("answers every tool as the API answers the same request", async () => {
    const app = await api();
    for (const c of VALID) await expectSameAsApi(client, app, c, realCatalogue());
  });

  it("refuses invalid input with a tool error, the API's Error where it has one, and keeps serving", async () => {
    const app = await api();
    for (const c of INVALID) await expectToolError(client, app, c, realCatalogue());
    expect((await call(client, VALID[2]!)).isError ?? false).toBe(false);
  });

  it("says saved lists are unavailable over stdio, pointing to the HTTP endpoint", async () => {
    const result = await call(client, { tool: "get_saved_list", args: { id: "platform-baseline" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 503, error: "Saved lists unavailable" });
    expect(JSON.stringify(result.content)).toContain(`${URLS.apiUrl}/mcp`);
  });

  it("reads resources as the API answers them, and refuses unknown ones", async () => {
    await expectResources(client, await api(), realCatalogue());
  });

  it("answers the prompts with facts and the release, and refuses unknown ids", async () => {
    await expectPrompts(client, realCatalogue());
  });

  it("writes only the protocol to stdout: its own lines go to stderr", () => {
    expect(stderr.join("")).toContain(`serving ${realCatalogue().services.length} services over stdio`);
  });
});

describe("the stdio server without a build", () => {
  it("exits with a message naming what is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "csc-mcp-empty-"));
    const { client, transport, stderr } = stdioClient(["--dist", empty]);
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr.join("")).toContain("api/catalogue-source.json is missing");
    rmSync(empty, { recursive: true, force: true });
  });
});

describe("the stdio server over a stale dist/", () => {
  it("answers initialize and tools/list from the data in memory while dist/ is rebuilt, and cleans up", async () => {
    const root = mkdtempSync(join(tmpdir(), "csc-mcp-stale-"));
    const builds = join(root, ".cache", "builds");
    mkdirSync(builds, { recursive: true });
    // Left by a build killed mid-way (a pid no process has).
    const leftover = join(builds, "0123456789abcdef.staging-4194000");
    mkdirSync(leftover);
    // A build that takes longer than the test: initialize must not wait for it.
    const script = join(root, "slow-build.mjs");
    const pidFile = join(root, "build.pid");
    writeFileSync(
      script,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nprocess.stderr.write("slow build started\\n");\nsetTimeout(() => process.stderr.write("slow build done\\n"), 120000);\n`,
    );
    const { client, transport, stderr } = stdioClient(["--link", join(root, "dist"), "--build-script", script]);
    const started = Date.now();
    await client.connect(transport);
    const tools = (await client.listTools()).tools;
    const elapsed = Date.now() - started;
    console.log(`stdio over a stale dist/: initialize and tools/list answered in ${elapsed} ms`);
    expect(tools.map((tool) => tool.name)).toContain("search_services");
    const log = stderr.join("");
    expect(log).toContain("serving the catalogue data in memory while dist/ is rebuilt");
    expect(log).toContain(`serving ${realCatalogue().services.length} services over stdio`);
    // Answered before the build finished: it is still running.
    expect(log).not.toContain("slow build done");
    expect(existsSync(leftover)).toBe(false);
    await vi.waitUntil(() => existsSync(pidFile), { timeout: 10_000 });
    const buildPid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(buildPid)).toBe(true);
    await client.close();
    // The server's exit stops its background build.
    await vi.waitUntil(() => !alive(buildPid), { timeout: 10_000, interval: 100 });
    rmSync(root, { recursive: true, force: true });
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the stdio server's word on saved lists names the API it belongs to", () => {
  // Issue 126: it named 127.0.0.1:8080 whatever the API's address.
  const MIRRORED = "https://api.mirror.example";
  let dist: string;
  beforeAll(() => {
    dist = buildFolder();
    // The discovery document a build (or a mirror's copy) carries names the API it was made for.
    writeFileSync(
      join(dist, "api", "index.json"),
      JSON.stringify({ documentation: { openapi: `${MIRRORED}/openapi.json` } }),
    );
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it.each([
    ["the build's own API, when nothing else is configured", {}, MIRRORED],
    ["PUBLIC_API_URL when set", { PUBLIC_API_URL: "https://api.team.example" }, "https://api.team.example"],
    ["the configured port when set", { PORT: "9090" }, "http://127.0.0.1:9090"],
  ])(
    "names %s",
    async (_case, env, named) => {
      const started = stdioClient(["--dist", dist], env);
      await started.client.connect(started.transport);
      try {
        const result = await call(started.client, { tool: "get_saved_list", args: { id: "platform-baseline" } });
        expect(result.structuredContent).toMatchObject({ status: 503, error: "Saved lists unavailable" });
        expect(JSON.stringify(result.content)).toContain(`GET ${named}/v1/lists/{id}`);
        expect(JSON.stringify(result.content)).not.toContain(named === MIRRORED ? "127.0.0.1:8080" : MIRRORED);
      } finally {
        await started.client.close();
      }
    },
    60_000,
  );
});
