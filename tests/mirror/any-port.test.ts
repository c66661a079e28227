/**
 * A mirror of any deployment, as a user makes one: `npm start` on a random port (its build made for
 * the canonical URLs, so every text answer is rewritten to this port's), `cloud-catalogue mirror`
 * of it, `cloud-catalogue serve` of that mirror on other random ports, and a mirror of the mirror.
 * Both mirrors hold the origin's build byte for byte (the manifest's hashes name what /mirror/
 * serves), and the served mirror answers every page it holds as the origin does, apart from the URLs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR } from "../../build/inputs.ts";
import { freePort, waitFor } from "../helpers/components.ts";
import { startAsUser } from "../helpers/process.ts";
import { webcalUrl } from "../../catalogue/render/calendar.ts";

const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-any-port-"));
// Each request names its own client (X-Forwarded-For): the text host's per-IP limit is not under test.
const PROXY = { TRUST_PROXY: "127.0.0.1", LOG_LEVEL: "warn" };

interface Host {
  readonly api: string;
  readonly text: string;
}

let origin: Awaited<ReturnType<typeof startAsUser>>;
let originHost: Host;
let served: ChildProcess | undefined;
let mirrorHost: Host;

/** `cloud-catalogue mirror <url> <dir>` as a user runs it; its exit status and what it wrote. */
function runMirror(url: string, dir: string) {
  const result = spawnSync(process.execPath, [CLI, "mirror", url, dir], { encoding: "utf8", timeout: 600_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
}

/** `cloud-catalogue serve <dir>` on free ports, once it answers. */
async function serveMirror(dir: string): Promise<Host> {
  const [port, textPort] = [await freePort(), await freePort()];
  let log = "";
  served = spawn(process.execPath, [CLI, "serve", dir], {
    env: { ...process.env, ...PROXY, PORT: String(port), TEXT_PORT: String(textPort), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  served.stderr!.on("data", (chunk) => (log += chunk));
  const api = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 120_000, "cloud-catalogue serve").catch(
    (error: unknown) => {
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    },
  );
  return { api, text: `http://127.0.0.1:${textPort}` };
}

beforeAll(async () => {
  origin = await startAsUser(join(work, "data"), PROXY);
  originHost = { api: `http://127.0.0.1:${origin.port}`, text: `http://127.0.0.1:${origin.textPort}` };
  runMirror(originHost.api, join(work, "first"));
  mirrorHost = await serveMirror(join(work, "first"));
  runMirror(mirrorHost.api, join(work, "second"));
}, 900_000);

/** SIGTERM, then SIGKILL if the process is still there after 15 s. */
async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

afterAll(async () => {
  await Promise.all([stop(served), stop(origin?.child)]);
  // Two copies of the whole build: 50,000 files take a minute to remove on a busy disk.
  rmSync(work, { recursive: true, force: true });
}, 300_000);

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Every file under `dir`, relative to it, sorted. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();

let client = 0;
/** A GET on `host` as a fresh client. */
async function get(base: string, path: string, accept: string) {
  client++;
  const response = await fetch(`${base}${path}`, {
    headers: { accept, "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` },
  });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

/** A body with a host's URLs (a calendar's webcal:// address too) replaced by placeholders, so that two hosts' answers compare. */
const placeholders = (body: string, host: Host) =>
  body.replaceAll(host.api, "{API}").replaceAll(webcalUrl(host.api), "{WEBCAL_API}").replaceAll(host.text, "{TEXT}");

describe("a mirror of npm start on a random port, and a mirror of that mirror", () => {
  it("both hold the origin's build byte for byte, as its manifest lists it", () => {
    const build = realpathSync(DIST_DIR);
    const manifest = JSON.parse(readFileSync(join(build, "api", "manifest.json"), "utf8")) as {
      files: { path: string; sha256: string }[];
    };
    const listed = [...manifest.files.map((file) => file.path), "api/manifest.json"].sort();
    for (const name of ["first", "second"]) {
      const dir = realpathSync(join(work, name, "current"));
      expect(filesUnder(dir), name).toEqual(listed);
      const differing = listed.filter(
        (path) => sha256(readFileSync(join(dir, path))) !== sha256(readFileSync(join(build, path))),
      );
      expect(differing, name).toEqual([]);
    }
    // Every file of three copies hashed (the build's twice): 30–40 s on a loaded 2-core machine.
  }, 120_000);

  it("serves every site page and text page it holds as the origin does, apart from the URLs", async () => {
    const dir = realpathSync(join(work, "first", "current"));
    // The site's pages (HTML) and the text host's (Markdown; ANSI and plain text are the same Doc).
    const pages = [
      ...filesUnder(join(dir, "site", "client"))
        .filter((path) => path.endsWith(".html"))
        .map((path) => ({ path: `/${path.replace(/(^|\/)index\.html$/, "$1")}`, accept: "text/html" })),
      ...filesUnder(join(dir, "text"))
        .filter((path) => path.endsWith(".md"))
        .map((path) => ({
          path: `/${path.replace(/\.md$/, "").replace(/(^|\/)index$/, "")}`,
          accept: "text/markdown",
        })),
    ];
    expect(pages.length).toBeGreaterThan(2000);
    expect(pages.map((page) => page.path)).toContain("/search/");
    const differing: string[] = [];
    for (let start = 0; start < pages.length; start += 16)
      await Promise.all(
        pages.slice(start, start + 16).map(async ({ path, accept }) => {
          const [fromOrigin, fromMirror] = await Promise.all([
            get(originHost.text, path, accept),
            get(mirrorHost.text, path, accept),
          ]);
          if (
            fromOrigin.status !== 200 ||
            fromMirror.status !== 200 ||
            // The media type (an on-demand page's names no charset; its <meta charset> does).
            fromOrigin.type?.split(";")[0] !== fromMirror.type?.split(";")[0] ||
            placeholders(fromOrigin.body, originHost) !== placeholders(fromMirror.body, mirrorHost)
          )
            differing.push(
              `${path} (${accept}): origin ${fromOrigin.status} ${fromOrigin.type}, mirror ${fromMirror.status} ${fromMirror.type}`,
            );
        }),
      );
    expect(differing).toEqual([]);
  }, 600_000);

  it("answers the API's reads with its own URLs, as the origin does with its own", async () => {
    for (const path of ["/", "/openapi.json", "/v1/providers", "/v1/services/aws-s3", "/v1/lifecycle.atom"]) {
      const [fromOrigin, fromMirror] = await Promise.all([
        get(originHost.api, path, "*/*"),
        get(mirrorHost.api, path, "*/*"),
      ]);
      expect(fromMirror.status, path).toBe(200);
      expect(placeholders(fromMirror.body, mirrorHost), path).toBe(placeholders(fromOrigin.body, originHost));
    }
    const discovery = JSON.parse((await get(mirrorHost.api, "/", "application/json")).body) as {
      documentation: { openapi: string; textHost: string };
    };
    expect(discovery.documentation).toEqual(
      expect.objectContaining({ openapi: `${mirrorHost.api}/openapi.json`, textHost: mirrorHost.text }),
    );
  });
});
