/**
 * A DATA_DIR the embedded store cannot open: the server says so in one line (no stack trace),
 * serves the catalogue read-only, answers writes 503 in the Error shape, and leaves no lock behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnServer, type ServerProcess } from "../helpers/process.ts";

const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-unopenable-"));
  dirs.push(dir);
  return dir;
}

async function expectReadOnly(dataDir: string, reason: RegExp) {
  const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "info" });
  servers.push(server);
  expect((await fetch(`${server.api}/v1/providers`)).status).toBe(200);
  expect((await fetch(`${server.text}/aws`)).status).toBe(200);
  const post = await fetch(`${server.api}/v1/lists`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
  });
  expect(post.status).toBe(503);
  expect(await post.json()).toMatchObject({ status: 503, error: "Service unavailable" });
  const status = (await (await fetch(`${server.api}/v1/status`)).json()) as {
    components: { component: string; status: string; message: string }[];
  };
  expect(status.components.find((c) => c.component === "store")).toMatchObject({ status: "down" });
  const lines = server.stderr().split("\n").filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^store: cannot open .* serving the catalogue read-only/);
  expect(lines[0]).toMatch(reason);
  expect(server.stderr()).not.toMatch(/\n\s+at /);
}

describe("a DATA_DIR the store cannot open", () => {
  it("serves the catalogue read-only when the folder cannot be made", async () => {
    const file = join(tempDir(), "a-file");
    writeFileSync(file, "");
    await expectReadOnly(join(file, "data"), /ENOTDIR/);
  });

  it("serves the catalogue read-only when the log cannot be opened, and leaves no lock", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "store.jsonl"));
    await expectReadOnly(dir, /EISDIR/);
    expect(existsSync(join(dir, "store.lock"))).toBe(false);
    expect(readdirSync(dir)).toEqual(["store.jsonl"]);
  });
});
