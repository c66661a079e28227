/**
 * `npm run bench`: autocannon against the dynamic endpoints of the real server (embedded store, and
 * Redis when redis-server is installed), each row right after a run of a bare Fastify hello-world
 * (the baseline), each server in its own process. Prints a Markdown table of req/s, p50, p99 and
 * the ratio to the row's baseline, and writes it to .cache/bench-api.md. Targets: GETs ≥ 50 %,
 * POSTs ≥ 30 % of baseline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { loadCatalogue } from "../../catalogue/load.ts";
import { findBinary, freePort, startRedis, waitFor } from "../../tests/helpers/components.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
// Each row first runs this long unmeasured, so the JIT and caches are warm for every row alike.
const WARMUP_SECONDS = 1;
// 20 keeps the hello-world baseline server-bound on two cores; more connections make autocannon the limit.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
// A regular expression on row names, to re-measure some rows only (e.g. BENCH_ONLY="list create").
const ONLY = new RegExp(process.env.BENCH_ONLY ?? "");
const root = fileURLToPath(new URL("../../", import.meta.url));

async function startProcess(script: string, env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, script)], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: "ignore",
  });
  await waitFor(async () => (await fetch(ready)).ok, 20_000, script);
  return child;
}

interface Row {
  name: string;
  method: string;
  /** The hello-world baseline measured just before this row. */
  baselineRps: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

let counter = 0;
let baselineUrl = "";
async function measure(name: string, url: string, options: { method?: "GET" | "POST"; body?: unknown } = {}) {
  await load(name, url, options, WARMUP_SECONDS);
  return load(name, url, options, DURATION);
}
/**
 * Each row is paired with a baseline run just before it: this machine's speed drifts by tens of
 * percent within minutes, so one baseline for all rows would favour or penalise them by when they
 * ran.
 */
async function run(
  name: string,
  url: string,
  options: { method?: "GET" | "POST"; body?: unknown } = {},
): Promise<Row | undefined> {
  if (!ONLY.test(name)) return undefined;
  const baseline = await measure("baseline", baselineUrl);
  const result = await measure(name, url, options);
  const row = {
    name,
    method: options.method ?? "GET",
    baselineRps: baseline.requests.average,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
  console.log(
    `bench: ${name.padEnd(32)} ${row.rps.toFixed(0).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  baseline ${row.baselineRps.toFixed(0)} req/s${row.non2xx ? `  non-2xx ${row.non2xx}` : ""}`,
  );
  return row;
}

function load(name: string, url: string, options: { method?: "GET" | "POST"; body?: unknown }, duration: number) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    method: options.method ?? "GET",
    headers: options.body ? { "content-type": "application/json" } : {},
    body: options.body ? JSON.stringify(options.body) : undefined,
    // The server trusts loopback as a proxy here, so each request may name its own client and
    // the per-IP buckets measure the endpoint rather than the limiter.
    requests: [
      {
        setupRequest: (request: { headers?: Record<string, string>; body?: string }) => {
          const n = counter++;
          request.headers = {
            ...request.headers,
            "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          };
          if (name.startsWith("list create"))
            request.body = JSON.stringify({ name: `Bench ${n}`, approvedServiceIds: ["aws-s3", "aws-lambda"] });
          return request;
        },
      },
    ],
  } as autocannon.Options);
}

async function endpoints(
  api: string,
  label: string,
  ids: { aws: string[]; mixed: string[]; azure: string[]; gcp: string[] },
  list: string,
): Promise<(Row | undefined)[]> {
  const approved = { approvedServiceIds: ids.mixed };
  return [
    await run(`search q+filter (${label})`, `${api}/v1/services?q=object%20storage&category=storage&limit=20`),
    await run(`compare 3 (${label})`, `${api}/v1/compare?ids=${ids.mixed.slice(0, 3).join(",")}`),
    await run(`exposure 20 (${label})`, `${api}/v1/exposure?ids=${ids.mixed.join(",")}`),
    await run(`detail on the fly (${label})`, `${api}/v1/services/${ids.aws[0]}`),
    await run(`policy scp (${label})`, `${api}/v1/policies/alpha-scp`, {
      method: "POST",
      body: { approvedServiceIds: ids.aws },
    }),
    await run(`policy azure (${label})`, `${api}/v1/policies/beta-policy`, {
      method: "POST",
      body: { approvedServiceIds: ids.azure },
    }),
    await run(`policy gcp (${label})`, `${api}/v1/policies/gamma-org-policy`, {
      method: "POST",
      body: { approvedServiceIds: ids.gcp },
    }),
    await run(`export markdown (${label})`, `${api}/v1/export/markdown`, { method: "POST", body: approved }),
    await run(`list create (${label})`, `${api}/v1/lists`, { method: "POST", body: approved }),
    await run(`list get (${label})`, `${api}/v1/lists/${list}`),
  ];
}

const catalogue = loadCatalogue();
const of = (provider: string, n: number) =>
  catalogue.services
    .filter((s) => s.providerId === provider)
    .slice(0, n)
    .map((s) => s.slug);
const ids = {
  aws: of("aws", 10),
  azure: of("azure", 10),
  gcp: of("gcp", 10),
  mixed: [...of("aws", 7), ...of("azure", 7), ...of("gcp", 6)],
};

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
try {
  const helloPort = await freePort();
  baselineUrl = `http://127.0.0.1:${helloPort}/`;
  children.push(await startProcess("scripts/bench/hello.ts", { PORT: String(helloPort) }, baselineUrl));

  const rows: Row[] = [];
  const configs: [string, Record<string, string>][] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "csc-bench-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  configs.push(["embedded", { DATA_DIR: dataDir }]);
  const redisBinary = findBinary("redis-server");
  if (redisBinary) {
    const redis = await startRedis(redisBinary);
    cleanups.push(() => redis.stop().then(() => rmSync(redis.dir, { recursive: true, force: true })));
    configs.push(["redis", { REDIS_URL: redis.url }]);
  } else console.warn("bench: redis-server not installed; the Redis rows are skipped");

  for (const [label, env] of configs) {
    const [port, textPort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${port}`;
    const child = await startProcess(
      "sidecar/server.ts",
      { ...env, PORT: String(port), TEXT_PORT: String(textPort), TRUST_PROXY: "127.0.0.1" },
      `${api}/v1/health`,
    );
    children.push(child);
    const created = (await (
      await fetch(`${api}/v1/lists`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ approvedServiceIds: ids.aws }),
      })
    ).json()) as { id: string };
    rows.push(...(await endpoints(api, label, ids, created.id)).filter((row) => row !== undefined));
    child.kill();
  }

  if (rows.length === 0) throw new Error(`bench: BENCH_ONLY=${process.env.BENCH_ONLY} names no row`);
  const baselines = rows.map((row) => row.baselineRps);
  const table = [
    `Baseline: a bare Fastify hello world, run just before each row: ${Math.min(...baselines).toFixed(0)}–${Math.max(...baselines).toFixed(0)} req/s. ${CONNECTIONS} connections, ${DURATION} s each after ${WARMUP_SECONDS} s of warm-up.`,
    "",
    "| endpoint | req/s | p50 ms | p99 ms | baseline req/s | ratio to baseline | target | non-2xx |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((row) => {
      const ratio = row.rps / row.baselineRps;
      const target = row.method === "GET" ? 0.5 : 0.3;
      return `| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.baselineRps.toFixed(0)} | ${(ratio * 100).toFixed(0)} % | ${target * 100} % ${ratio >= target ? "✓" : "✗"} | ${row.non2xx} |`;
    }),
  ].join("\n");
  mkdirSync(join(root, ".cache"), { recursive: true });
  writeFileSync(join(root, ".cache", "bench-api.md"), `${table}\n`);
  console.log(`\n${table}\n\nbench: table written to .cache/bench-api.md`);
} finally {
  for (const child of children) child.kill();
  for (const cleanup of cleanups) await cleanup();
}
