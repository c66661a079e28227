/**
 * `npm run dev` (scripts/dev.ts) against a copy of the data folder: an edit to one service's
 * description shows in the API, the text host's Markdown and the site's HTML without a restart or a
 * build, and an edit that does not load leaves the previous catalogue served.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "../helpers/components.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEV_SCRIPT = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { dev: string } })
  .scripts.dev;
/** Generous: the first HTML page waits for Astro's dev server to compile it, on a busy machine. */
const WAIT_MS = 90_000;
const SLUG = "aws-s3";
const PAGE = "/aws/s3";

let dir: string;
let child: ChildProcess;
let stderr = "";
let api: string;
let text: string;
let servicesFile: string;

const apiDescription = async () =>
  ((await (await fetch(`${api}/v1/services/${SLUG}`)).json()) as { description: string }).description;
const markdown = async () => (await fetch(`${text}${PAGE}`, { headers: { accept: "text/markdown" } })).text();
const html = async () => {
  const response = await fetch(`${text}${PAGE}`, { headers: { accept: "text/html" } });
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  return response.text();
};

/** Waits until every face shows `value`: the API's field, the Markdown page and the site's page. */
async function everyFaceShows(value: string) {
  await waitFor(async () => (await apiDescription()) === value, WAIT_MS, `the API to show "${value}"\n${stderr}`);
  await waitFor(async () => (await markdown()).includes(value), WAIT_MS, `the text host to show "${value}"`);
  await waitFor(async () => (await html()).includes(value), WAIT_MS, `the site to show "${value}"`);
}

beforeAll(async () => {
  expect(DEV_SCRIPT).toMatch(/^node scripts\/dev\.ts$/);
  dir = mkdtempSync(join(tmpdir(), "csc-dev-"));
  // The data folder and, beside it as the loader expects, the release snapshots.
  cpSync(join(ROOT, "catalogue", "data"), join(dir, "data"), { recursive: true });
  cpSync(join(ROOT, "catalogue", "releases"), join(dir, "releases"), { recursive: true });
  servicesFile = join(dir, "data", "services", "aws", "s3.yaml");
  const [port, textPort] = [await freePort(), await freePort()];
  api = `http://127.0.0.1:${port}`;
  text = `http://127.0.0.1:${textPort}`;
  child = spawn(process.execPath, DEV_SCRIPT.split(/\s+/).slice(1), {
    cwd: ROOT,
    env: {
      // Vite's dev server under VITEST (or NODE_ENV=test) leaves Astro's page requests unanswered:
      // the child runs as a developer's shell would start it.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST"))),
      NODE_ENV: "development",
      PORT: String(port),
      TEXT_PORT: String(textPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      DATA_DIR: join(dir, "store"),
      CATALOGUE_DATA_DIR: join(dir, "data"),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, WAIT_MS, "the dev server to start");
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it(
    "shows an edited description in the API, the text host and the site, and keeps it through an invalid edit",
    async () => {
      const before = await apiDescription();
      await everyFaceShows(before);
      const yaml = readFileSync(servicesFile, "utf8");
      const line = `description: ${before}\n`;
      expect(yaml, "the service's description is one plain line of its YAML").toContain(line);

      const edited = "Object storage edited under npm run dev to see it in every face";
      writeFileSync(servicesFile, yaml.replace(line, `description: ${edited}\n`));
      await everyFaceShows(edited);

      // A file that is not YAML: the loader's problem is printed and the edited catalogue stays.
      writeFileSync(servicesFile, yaml.replace(line, `description: "${edited}\n`));
      await waitFor(() => stderr.includes("the edit does not load"), WAIT_MS, "the dev server to refuse the edit");
      expect(stderr).toContain("services/aws/s3.yaml");
      expect(child.exitCode).toBeNull();
      expect(await apiDescription()).toBe(edited);
      expect(await markdown()).toContain(edited);
      expect(await html()).toContain(edited);
    },
    5 * WAIT_MS,
  );
});
