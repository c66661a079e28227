/**
 * `npm run bench:build`: times the whole build, per step, on the real catalogue (1×) from a clean
 * compression cache, a rebuild of the 1× catalogue after one service's data was edited (in a copy
 * of the data, never the repository's) with the cache the first build left, and a synthetic
 * catalogue ten times its size made from it (each service copied nine more times under new slugs,
 * each copy with its own equivalence groups) from a clean cache. Then times `npm start` on a port
 * no build was made for, to ready, and says whether it rebuilt. Writes the tables to
 * .cache/bench-build.md. Targets: a full build ≤ 25 s, a rebuild after one edit ≤ 10 s, 10× within
 * 12× of the 1× time. Also measures the RSS of a server of each full build (targets: ≤ 150 MB at
 * 1×, ≤ 400 MB at 10×).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { spawn } from "node:child_process";
import { DEFAULT_DATA_DIR, loadCatalogue } from "../../catalogue/load/load.ts";
import { freePort, waitFor } from "../components.ts";
import { npmStartCommand } from "./start-command.ts";
import { build } from "../build.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const FACTOR = 10;

/** A copy of the data with every service present FACTOR times. */
function syntheticData(factor: number): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-bench-data-"));
  cpSync(DEFAULT_DATA_DIR, dir, { recursive: true });
  const copySlug = (slug: string, n: number) => (n === 0 ? slug : `${slug}-x${n}`);
  for (const providerId of readdirSync(join(dir, "services"))) {
    const folder = join(dir, "services", providerId);
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".yaml"))) {
      const service = parse(readFileSync(join(folder, file), "utf8")) as {
        slug: string;
        name: string;
        lifecycle?: { successorSlug?: string };
      };
      // Copy n is <name>-x<n>.yaml, its slug <slug>-x<n>: the loader's rule for file names.
      for (let n = 1; n < factor; n++)
        writeFileSync(
          join(folder, file.replace(/\.yaml$/, `-x${n}.yaml`)),
          stringify({
            ...service,
            slug: copySlug(service.slug, n),
            name: `${service.name} (copy ${n})`,
            ...(service.lifecycle?.successorSlug
              ? { lifecycle: { ...service.lifecycle, successorSlug: copySlug(service.lifecycle.successorSlug, n) } }
              : {}),
          }),
        );
    }
  }
  const groupsPath = join(dir, "equivalents.yaml");
  const groups = parse(readFileSync(groupsPath, "utf8")) as {
    id: string;
    name: string;
    services: string[];
    otherCategories?: Record<string, string>;
  }[];
  // Copy n of every group links the n-th copies of its services, so a service has as many
  // equivalents as in the real catalogue.
  const grownGroups = Array.from({ length: factor }, (_, n) =>
    groups.map((group) => ({
      ...group,
      id: copySlug(group.id, n),
      services: group.services.map((slug) => copySlug(slug, n)),
      ...(group.otherCategories
        ? {
            otherCategories: Object.fromEntries(
              Object.entries(group.otherCategories).map(([slug, why]) => [copySlug(slug, n), why]),
            ),
          }
        : {}),
    })),
  ).flat();
  writeFileSync(groupsPath, stringify(grownGroups));
  return dir;
}

const BUILT_URLS = { apiUrl: "http://localhost:8080", textUrl: "http://localhost:8081" };

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
}

/**
 * RSS of a server of the build, started as `npm start` starts one (its node flags and environment,
 * the catalogue the build shipped, default settings): when ready, and after it has answered every service's
 * detail and text page, a search per provider and each provider's page, one request at a time.
 */
async function servingRss(label: string, outDir: string, slugs: readonly string[], providers: readonly string[]) {
  const [port, textPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "csc-bench-data-dir-"));
  // What `npm start` runs once the build is there: the server, with npm start's node flags and environment.
  const start = npmStartCommand(root);
  const child = spawn(process.execPath, [...start.nodeFlags, join(root, "sidecar", "server.ts")], {
    env: {
      ...start.env,
      PATH: process.env.PATH,
      PORT: String(port),
      TEXT_PORT: String(textPort),
      DATA_DIR: dataDir,
      DIST_DIR: outDir,
      PUBLIC_API_URL: BUILT_URLS.apiUrl,
      PUBLIC_TEXT_URL: BUILT_URLS.textUrl,
      TRUST_PROXY: "127.0.0.1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const api = `http://127.0.0.1:${port}`;
    const text = `http://127.0.0.1:${textPort}`;
    await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 120_000, `${label} server`);
    const ready = rssMiB(child.pid!);
    // Each request names its own client (the server trusts loopback as its proxy): the text host's
    // per-client limit would otherwise answer most of the walk with 429.
    let client = 0;
    const get = async (url: string) => {
      client++;
      const forwardedFor = `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`;
      const response = await fetch(url, { headers: { "accept-encoding": "br", "x-forwarded-for": forwardedFor } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`bench: ${url} answered ${response.status}`);
    };
    for (const slug of slugs) {
      await get(`${api}/v1/services/${slug}`);
      const [provider, ...rest] = slug.split("-");
      await get(`${text}/${provider}/${rest.join("-")}?format=md`);
    }
    for (const provider of providers) {
      await get(`${api}/v1/services?provider=${provider}&q=storage`);
      await get(`${text}/${provider}?format=md`);
    }
    console.log(`${label}: served ${slugs.length * 2 + providers.length * 2} distinct URLs`);
    return { ready, after: rssMiB(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A copy of the real data with one service's description changed. */
function editedData(): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-bench-edit-"));
  cpSync(DEFAULT_DATA_DIR, dir, { recursive: true });
  const path = join(dir, "services", "aws", "s3.yaml");
  const yaml = readFileSync(path, "utf8");
  const edited = yaml.replace(/^(description: .*)$/m, "$1 Edited by the build bench.");
  if (edited === yaml) throw new Error("bench: found no service description to edit in services/aws/s3.yaml");
  writeFileSync(path, edited);
  return dir;
}

/** Times a build into a new folder with this compression cache; with `rss`, then a server of it. */
async function timeBuild(label: string, cacheDir: string, dataDir?: string, rss = true) {
  const outDir = mkdtempSync(join(tmpdir(), "csc-bench-dist-"));
  const steps: Record<string, number> = {};
  const started = performance.now();
  let total: number;
  let served: { ready: number; after: number } | undefined;
  try {
    await build({
      dataDir,
      outDir,
      cacheDir,
      urls: BUILT_URLS,
      log: (line) => console.log(`${label}: ${line}`),
      onStep: (step, ms) => (steps[step] = ms),
    });
    total = performance.now() - started;
    const catalogue = loadCatalogue(dataDir);
    if (rss)
      served = await servingRss(
        label,
        outDir,
        catalogue.services.map((service) => service.slug),
        catalogue.providers.map((provider) => provider.id),
      );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return { total, steps, rss: served ?? { ready: NaN, after: NaN } };
}

/**
 * `npm start` in the repository with a new empty DATA_DIR on `port`: the time from spawning it to a
 * healthy /v1/health, and whether it built (it says so: "building").
 */
async function timeStart(label: string, port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), "csc-bench-start-"));
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: root,
    // Its own process group: npm, its shell and node are stopped together.
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      TEXT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    await Promise.race([
      waitFor(async () => (await fetch(`http://127.0.0.1:${port}/v1/health`)).ok, 900_000, `${label} npm start`),
      exited.then(() => Promise.reject(new Error(`bench: npm start exited:\n${output.slice(-2000)}`))),
    ]);
    return { label, port, ms: performance.now() - started, rebuilt: /building/.test(output) };
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A start on some port (building if dist/ is not for it), then one on a port no build was made for. */
async function startsOnNewPort() {
  const first = await timeStart("first start", await freePort());
  return [first, await timeStart("start on a new port", await freePort())];
}

const cacheDir = mkdtempSync(join(tmpdir(), "csc-bench-cache-"));
const one = await timeBuild("1×", cacheDir);
const editedDir = editedData();
const rebuilt = await timeBuild("1× after one edit", cacheDir, editedDir, false);
rmSync(editedDir, { recursive: true, force: true });
rmSync(cacheDir, { recursive: true, force: true });
const syntheticDir = syntheticData(FACTOR);
const tenCacheDir = mkdtempSync(join(tmpdir(), "csc-bench-cache-"));
const ten = await timeBuild(`${FACTOR}×`, tenCacheDir, syntheticDir);
rmSync(syntheticDir, { recursive: true, force: true });
rmSync(tenCacheDir, { recursive: true, force: true });
const started = await startsOnNewPort();

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const stepNames = Object.keys(one.steps);
const ratio = ten.total / one.total;
const table = [
  `| step | 1× (ms) | 1× after one edit (ms) | ${FACTOR}× (ms) | ratio ${FACTOR}×/1× |`,
  "|---|---:|---:|---:|---:|",
  ...stepNames.map(
    (step) =>
      `| ${step} | ${one.steps[step]!.toFixed(0)} | ${rebuilt.steps[step]!.toFixed(0)} | ${ten.steps[step]!.toFixed(0)} | ${(ten.steps[step]! / one.steps[step]!).toFixed(1)}× |`,
  ),
  `| **total** | **${one.total.toFixed(0)}** | **${rebuilt.total.toFixed(0)}** | **${ten.total.toFixed(0)}** | **${ratio.toFixed(1)}×** |`,
  "",
  `Targets: a full build (1×, clean compression cache) ≤ 25 s (${seconds(one.total)}, ${one.total <= 25_000 ? "met" : "missed"}); a rebuild after editing one service's data ≤ 10 s (${seconds(rebuilt.total)}, ${rebuilt.total <= 10_000 ? "met" : "missed"}); ${FACTOR}× within 12× of 1× (${ratio <= 12 ? "met" : "missed"}).`,
  "",
  "`npm start` (the repository's dist/ and caches, a new empty DATA_DIR), time to a healthy /v1/health:",
  "",
  "| start | port | rebuilt | ready in |",
  "|---|---:|---|---:|",
  ...started.map((row) => `| ${row.label} | ${row.port} | ${row.rebuilt ? "yes" : "no"} | ${seconds(row.ms)} |`),
  "",
  "RSS of a server of each build (`npm start`'s node flags, default settings), when ready and after answering every service's API detail and text page, a search and the page of every provider:",
  "",
  "| catalogue | ready (MiB) | after (MiB) | target |",
  "|---|---:|---:|---|",
  `| 1× | ${one.rss.ready.toFixed(0)} | ${one.rss.after.toFixed(0)} | ≤ 150 MB ${Math.max(one.rss.ready, one.rss.after) * 1.048576 <= 150 ? "✓" : "✗"} |`,
  `| ${FACTOR}× | ${ten.rss.ready.toFixed(0)} | ${ten.rss.after.toFixed(0)} | ≤ 400 MB ${Math.max(ten.rss.ready, ten.rss.after) * 1.048576 <= 400 ? "✓" : "✗"} |`,
].join("\n");
mkdirSync(join(root, ".cache"), { recursive: true });
writeFileSync(join(root, ".cache", "bench-build.md"), `${table}\n`);
console.log(`\n${table}`);
