/**
 * `npm run bench`: wrk (one thread, 50 connections, `Accept-Encoding: br`) against the server as
 * `npm start` runs it by default (package.json's start command, only PORT, TEXT_PORT, DATA_DIR and
 * REDIS_URL set), each row beside its reference in the same run, in one-second slices of each in
 * turn, the order reversed each second (this machine's speed drifts by tens of per cent a minute):
 *   static reads   vs nginx, one worker, the same dist/ (the production config of deploy-config.ts)
 *   dynamic GETs   vs a bare Fastify hello world (scripts/bench/hello.ts) and vs the API host's own
 *                  plugin stack answering a kept 3 KB brotli body (scripts/bench/stack.ts): the
 *                  gap to the stack is the route's own work, the stack's gap to hello world the stack's
 *   POSTs          vs the same hello world; list creation with the embedded store and with Redis
 *   mcp load       GET /v1/health's latency from one connection, alone and beside 50 MCP clients
 *                  calling search_services (POST /mcp, stateless) on the TRUST_PROXY server, each
 *                  call from its own X-Forwarded-For client, so the mcp bucket (120/min per
 *                  client) counts every call and refuses none; reported only, with how many calls
 *                  were answered (200 with a tool result) and how many refused or failed; once
 *                  with each client paced at the mcp bucket's rate (one call per 500 ms), once
 *                  each sending its next call as soon as the last is answered
 * Targets (decisions.md#codebase and 65): static ≥ 0.35× nginx; compare and search (kept answers) ≥ 0.4× hello
 * world and ≥ 0.8× the stack, other GETs ≥ 0.5× hello world; POSTs ≥ 0.2× hello world; RSS ≤ 200 MB
 * when ready and ≤ 300 MB after the GET rows; list creation is reported only. POST rows run against a second server with
 * TRUST_PROXY=127.0.0.1, each request naming its own client in X-Forwarded-For (wrk.lua), so the
 * per-IP buckets do not answer 429 (the limiter still counts every request). Each row reports
 * wrk's CPU (near 100 %: the load generator was the limit) and the server's. Writes the table to
 * .cache/bench-api.md.
 *
 *   BENCH_SECONDS (5)   measured seconds per row, after 1 s of warm-up
 *   BENCH_ONLY          a regular expression on row names
 *   BENCH_AGAINST=ref   also runs each row against the code of a git ref (A/B in the same run)
 *   BENCH_PORT (18480)  API port (text host +1, the BENCH_AGAINST copy +10)
 */
import { execFileSync, execSync, spawn, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUCKETS } from "../../catalogue/limits.ts";
import { loadCatalogue } from "../../catalogue/load.ts";
import { findBinary, freePort, startRedis, waitFor } from "../components.ts";
import { renderNginxConfig } from "../deploy-config.ts";
import { npmStartCommand } from "./start-command.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const ONLY = new RegExp(process.env.BENCH_ONLY ?? "");
const AGAINST = process.env.BENCH_AGAINST;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 18480);
const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-bench-"));
const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;
/** Least ratio to the reference per kind of row; undefined: reported only. */
const TARGETS = { static: 0.35, GET: 0.5, POST: 0.2, "list create": undefined } as const;
/** The kept answers' targets (decisions.md#serving-performance): against hello world, and against the plugin stack. */
const KEPT_TARGETS = { ref: 0.4, stack: 0.8 } as const;
const RSS_TARGET_MB = 200;
const RSS_AFTER_TARGET_MB = 300;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];

/** CPU seconds so far of a process and its direct children (nginx's worker). */
function cpuSeconds(pid: number): number {
  const own = (id: number) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      return 0;
    }
  };
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no children
  }
  return own(pid) + kids.reduce((sum, kid) => sum + own(kid), 0);
}

/** Resident set in MB (10^6 bytes; /proc's "kB" are KiB). */
const rssMB = (pid: number) =>
  (Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024) / 1e6;

async function spawnReady(command: string, args: string[], env: NodeJS.ProcessEnv, ready: string, logName: string) {
  const logPath = join(work, logName);
  const child = spawn(command, args, { env, stdio: ["ignore", openSync(logPath, "a"), openSync(logPath, "a")] });
  children.push(child);
  const exited = new Promise<never>((_resolve, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`bench: ${logName} exited (${code}):\n${readFileSync(logPath, "utf8").slice(-2000)}`)),
    ),
  );
  // The first start may build dist/ (minutes on a busy 2-core machine).
  await Promise.race([waitFor(async () => (await fetch(ready)).ok, 900_000, logName), exited]);
  exited.catch(() => undefined);
  return child;
}

interface Server {
  readonly api: string;
  readonly text: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly rssWhenReady: number;
}

/** `npm start` of the code at `codeRoot`, from its package.json's start command, as a user runs it. */
async function startServer(codeRoot: string, label: string, port: number, env: Record<string, string>) {
  const start = npmStartCommand(codeRoot);
  const child = await spawnReady(
    process.execPath,
    [...start.nodeFlags, join(codeRoot, start.script)],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      TEXT_PORT: String(port + 1),
      DATA_DIR: mkdtempSync(join(work, "data-")),
      ...start.env,
      ...env,
    },
    `http://127.0.0.1:${port}/v1/health`,
    `start-${label.replace(/\W+/g, "-")}.log`,
  );
  const server: Server = {
    api: `http://127.0.0.1:${port}`,
    text: `http://127.0.0.1:${port + 1}`,
    pid: child.pid!,
    child,
    rssWhenReady: rssMB(child.pid!),
  };
  return server;
}

async function stopServer(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

/** The code of a git ref, extracted once into the temp folder (its dist/ is kept there between runs). */
function checkout(ref: string): string {
  const sha = execFileSync("git", ["-C", root, "rev-parse", ref]).toString().trim();
  const dir = join(tmpdir(), `csc-bench-ref-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, "package.json"))) {
    mkdirSync(dir, { recursive: true });
    execSync(`git -C ${JSON.stringify(root)} archive ${sha} | tar -x -C ${JSON.stringify(dir)}`);
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  }
  return dir;
}

interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  failed: number;
  loadCpu: number;
  serverCpu: number;
}
const rps = (run: Run) => run.requests / run.seconds;

interface Request {
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** Each request names its own client in X-Forwarded-For (wrk.lua). */
  xff?: boolean;
  /** Each request's body is a list with its own name. */
  list?: boolean;
  /** Each connection waits this long before its next request (wrk.lua's delay()): a paced client. */
  delayMs?: number;
}

/** Where each wrk run's client numbers start, so that no client comes back within a bucket's minute. */
let seed = 0;
/** wrk's command line and environment for one run, its result written to `out`. */
function wrkCommand(url: string, request: Request, seconds: number, connections: number, out: string) {
  rmSync(out, { force: true });
  seed += 1 << 17;
  const headers = { "Accept-Encoding": "br", ...request.headers };
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--timeout",
    "5s",
    "-s",
    join(root, "scripts", "bench", "wrk.lua"),
  ]
    .concat(Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]))
    .concat(url);
  const env = {
    ...process.env,
    BENCH_METHOD: request.method ?? "GET",
    BENCH_BODY: request.body ?? "",
    BENCH_XFF: request.xff ? "1" : "",
    BENCH_LIST: request.list ? "1" : "",
    BENCH_DELAY_MS: String(request.delayMs ?? 0),
    BENCH_SEED: String(seed),
    BENCH_OUT: out,
  };
  return { args, env };
}

function readRun(out: string, pid: number, cpu: number): Run {
  const r = JSON.parse(readFileSync(out, "utf8")) as Record<string, number>;
  const elapsed = r.durationUs! / 1e6;
  return {
    requests: r.requests!,
    seconds: elapsed,
    p50: r.p50Us! / 1000,
    p99: r.p99Us! / 1000,
    failed: r.status4xx5xx! + r.connectErrors! + r.readErrors! + r.writeErrors! + r.timeoutErrors!,
    loadCpu: r.cpuTicks! / CLOCK_TICKS,
    serverCpu: cpuSeconds(pid) - cpu,
  };
}

function wrk(url: string, request: Request, seconds: number, pid: number, connections = CONNECTIONS): Run {
  const out = join(work, "wrk.json");
  const { args, env } = wrkCommand(url, request, seconds, connections, out);
  const cpu = cpuSeconds(pid);
  execFileSync("wrk", args, { env, stdio: ["ignore", "ignore", "inherit"] });
  return readRun(out, pid, cpu);
}

/** wrk in the background, for a load beside a measurement. */
function wrkBeside(url: string, request: Request, seconds: number, pid: number, connections: number): Promise<Run> {
  const out = join(work, "wrk-load.json");
  const { args, env } = wrkCommand(url, request, seconds, connections, out);
  const cpu = cpuSeconds(pid);
  return new Promise((resolve, reject) =>
    spawn("wrk", args, { env, stdio: ["ignore", "ignore", "inherit"] })
      .once("error", reject)
      .once("exit", (code) => (code === 0 ? resolve(readRun(out, pid, cpu)) : reject(new Error(`wrk exited ${code}`)))),
  );
}

/** Health probes measured by one connection: alone, and beside CONNECTIONS MCP clients calling search_services. */
interface McpLoad {
  readonly alone: Run;
  readonly beside: Run;
  readonly mcp: Run;
  /** The same clients, each at most as fast as the mcp bucket lets one client call. */
  readonly pacedBeside: Run;
  readonly paced: Run;
  readonly shape: string;
}
/** One call per client every this many ms is the most the mcp bucket admits (120 a minute). */
const MCP_PACE_MS = BUCKETS.mcp.windowMs / BUCKETS.mcp.max;
let mcpLoad: McpLoad | undefined;

/** One tools/call a client sends again and again (stateless Streamable HTTP: no session to open first). */
const MCP_SEARCH: Request = {
  method: "POST",
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_services", arguments: { query: "object storage", limit: 10 } },
  }),
  headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" },
  xff: true,
};

/** The call's answer must be a search result, not a tool error: the row would measure refusals. */
async function checkMcpAnswer(url: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.2", ...MCP_SEARCH.headers },
    body: MCP_SEARCH.body!,
  });
  const answer = (await response.json()) as { result?: { isError?: boolean; structuredContent?: { data?: [] } } };
  if (answer.result?.isError || !answer.result?.structuredContent?.data?.length)
    throw new Error(`bench: /mcp answered no search result: ${JSON.stringify(answer).slice(0, 300)}`);
}

async function measureMcpLoad(server: Server): Promise<void> {
  const health = `${server.api}/v1/health`;
  const shape = await shapeOf(`${server.api}/mcp`, MCP_SEARCH);
  await checkMcpAnswer(`${server.api}/mcp`);
  wrk(health, {}, 1, server.pid, 1);
  const alone = wrk(health, {}, DURATION, server.pid, 1);
  // Each load runs a second before and after the measured probes.
  const besideLoad = async (request: Request) => {
    const load = wrkBeside(`${server.api}/mcp`, request, DURATION + 2, server.pid, CONNECTIONS);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { beside: wrk(health, {}, DURATION, server.pid, 1), mcp: await load };
  };
  const paced = await besideLoad({ ...MCP_SEARCH, delayMs: MCP_PACE_MS });
  const { beside, mcp } = await besideLoad(MCP_SEARCH);
  mcpLoad = { alone, beside, mcp, pacedBeside: paced.beside, paced: paced.mcp, shape };
  console.log(
    `bench: mcp load: health p99 ${alone.p99.toFixed(2)} ms alone, ${paced.beside.p99.toFixed(2)} ms beside paced clients (${rps(paced.mcp).toFixed(0)} calls/s), ${beside.p99.toFixed(2)} ms beside ${rps(mcpLoad.mcp).toFixed(0)} MCP calls/s (${mcpLoad.mcp.requests - mcpLoad.mcp.failed} answered, ${mcpLoad.mcp.failed} refused or failed)`,
  );
}

/** Runs taken as one: totals over their time (CPU as a share of it), latencies weighted by requests. */
function combine(runs: Run[]): Run {
  const total = (pick: (run: Run) => number) => runs.reduce((sum, run) => sum + pick(run), 0);
  const requests = total((run) => run.requests);
  const seconds = total((run) => run.seconds);
  const weighted = (pick: (run: Run) => number) => total((run) => pick(run) * run.requests) / Math.max(1, requests);
  return {
    requests,
    seconds,
    p50: weighted((run) => run.p50),
    p99: weighted((run) => run.p99),
    failed: total((run) => run.failed),
    loadCpu: total((run) => run.loadCpu) / seconds,
    serverCpu: total((run) => run.serverCpu) / seconds,
  };
}

interface Target {
  readonly url: string;
  readonly request: Request;
  readonly pid: number;
}

/** Each target warmed up for a second, then DURATION one-second slices of each in turn, the order reversed each second. */
function measureTogether(targets: readonly Target[]): Run[] {
  for (const { url, request, pid } of targets) wrk(url, request, 1, pid);
  const slices: Run[][] = targets.map(() => []);
  const order = targets.map((_, i) => i);
  for (let second = 0; second < DURATION; second++)
    for (const i of second % 2 === 0 ? order : [...order].reverse())
      slices[i]!.push(wrk(targets[i]!.url, targets[i]!.request, 1, targets[i]!.pid));
  return slices.map(combine);
}

interface Reference {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
}

interface Row {
  readonly name: string;
  readonly kind: keyof typeof TARGETS;
  readonly reference: string;
  readonly ref: Run;
  /** The plugin stack's run beside the row (dynamic GETs). */
  readonly stack: Run | undefined;
  /** Least ratios to the reference and to the stack; undefined: the kind's, and the stack's reported only. */
  readonly targets: { readonly ref?: number; readonly stack?: number } | undefined;
  readonly run: Run;
  readonly against: Run | undefined;
  /** Status and encoding of one answer, checked before the row. */
  readonly shape: string;
}
const rows: Row[] = [];

async function shapeOf(url: string, request: Request): Promise<string> {
  const init: RequestInit = {
    method: request.method ?? "GET",
    headers: {
      "accept-encoding": "br",
      ...(request.body ? { "content-type": "application/json" } : {}),
      ...(request.xff ? { "x-forwarded-for": "192.0.2.1" } : {}),
      ...request.headers,
    },
    ...(request.body
      ? { body: request.list ? `{"name":"Shape","approvedServiceIds":${request.body}}` : request.body }
      : {}),
  };
  // A kept-alive socket the server has since closed fails once: retry on a new one.
  const response = await fetch(url, init).catch(() => fetch(url, init));
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`bench: ${url} answered ${response.status}`);
  return `${response.status} ${response.headers.get("content-encoding") ?? "identity"}`;
}

async function row(
  name: string,
  kind: Row["kind"],
  reference: Reference,
  servers: { server: Server; against: Server | undefined; host?: "api" | "text"; stack?: Reference },
  path: string,
  request: Request = {},
  targets?: Row["targets"],
): Promise<void> {
  if (!ONLY.test(name)) return;
  const { server, against, host = "api", stack } = servers;
  const url = `${server[host]}${path}`;
  const shape = await shapeOf(url, request);
  const runs = measureTogether([
    // The reference's own plain GET: nginx's file, the hello world's "/".
    { url: reference.url, request: {}, pid: reference.pid },
    { url, request, pid: server.pid },
    ...(against ? [{ url: `${against[host]}${path}`, request, pid: against.pid }] : []),
    ...(stack ? [{ url: stack.url, request: {}, pid: stack.pid }] : []),
  ]);
  const entry: Row = {
    name,
    kind,
    reference: reference.name,
    ref: runs[0]!,
    run: runs[1]!,
    against: against ? runs[2] : undefined,
    stack: stack ? runs.at(-1) : undefined,
    targets,
    shape,
  };
  rows.push(entry);
  const ratio = (to: Run) => `${(rps(entry.run) / rps(to)).toFixed(2)}×`;
  console.log(
    `bench: ${name.padEnd(32)} ${rps(entry.run).toFixed(0).padStart(6)} req/s  ${reference.name} ${rps(entry.ref).toFixed(0).padStart(6)}  ${ratio(entry.ref)}${entry.stack ? `  stack ${rps(entry.stack).toFixed(0)} ${ratio(entry.stack)}` : ""}${entry.against ? `  ${AGAINST}: ${rps(entry.against).toFixed(0)}` : ""}`,
  );
}

/** The MCP load's table: health alone and beside the MCP clients, and what the clients got. */
function mcpTable(load: McpLoad | undefined): string[] {
  if (!load) return [];
  const line = (what: string, run: Run) =>
    `| ${what} | ${rps(run).toFixed(0)} | ${run.p50.toFixed(2)} | ${run.p99.toFixed(2)} | ${((run.serverCpu / run.seconds) * 100).toFixed(0)} % | ${run.failed} |`;
  return [
    "",
    `MCP load: \`GET /v1/health\` from one connection, alone and beside ${CONNECTIONS} MCP clients (wrk connections) calling search_services through \`POST /mcp\` (answer ${load.shape}), each call from its own X-Forwarded-For client on the TRUST_PROXY server, so the mcp bucket counts but never refuses: ${load.mcp.requests - load.mcp.failed} calls answered, ${load.mcp.failed} refused or failed.`,
    "",
    "| requests | req/s | p50 ms | p99 ms | server CPU | errors |",
    "|---|---:|---:|---:|---:|---:|",
    line("GET /v1/health alone", load.alone),
    line(`GET /v1/health beside ${CONNECTIONS} MCP clients`, load.beside),
    line(`POST /mcp tools/call search_services (${CONNECTIONS} clients)`, load.mcp),
    line(`GET /v1/health beside ${CONNECTIONS} paced MCP clients`, load.pacedBeside),
    line(`POST /mcp, ${CONNECTIONS} clients, each one call per ${MCP_PACE_MS} ms`, load.paced),
    "",
    `Paced: each client waits ${MCP_PACE_MS} ms between calls, the most the mcp bucket (${BUCKETS.mcp.max} a minute) lets one client send; unpaced, each sends its next call as soon as the last is answered, several times what the bucket admits.`,
    "",
  ];
}

const catalogue = loadCatalogue();
const slugs = (provider: string, n: number) =>
  catalogue.services
    .filter((s) => s.providerId === provider)
    .slice(0, n)
    .map((s) => s.slug);
const mixed = [...slugs("aws", 7), ...slugs("azure", 7), ...slugs("gcp", 6)];
const detail = catalogue.bySlug.has("aws-s3") ? "aws-s3" : mixed[0]!;
const textPage = `/${detail.replace("-", "/")}`;

try {
  const helloPort = await freePort();
  const helloChild = await spawnReady(
    process.execPath,
    [join(root, "scripts", "bench", "hello.ts")],
    { PATH: process.env.PATH, PORT: String(helloPort) },
    `http://127.0.0.1:${helloPort}/`,
    "hello.log",
  );
  const hello = { name: "hello world", url: `http://127.0.0.1:${helloPort}/`, pid: helloChild.pid! };
  const stackPort = await freePort();
  const stackChild = await spawnReady(
    process.execPath,
    [join(root, "scripts", "bench", "stack.ts")],
    { PATH: process.env.PATH, PORT: String(stackPort) },
    `http://127.0.0.1:${stackPort}/`,
    "stack.log",
  );
  const stack = { name: "plugin stack", url: `http://127.0.0.1:${stackPort}/`, pid: stackChild.pid! };
  const againstRoot = AGAINST ? checkout(AGAINST) : undefined;

  // 1. The default server: static reads and dynamic GETs.
  const server = await startServer(root, "default", BASE_PORT, {});
  const against = againstRoot ? await startServer(againstRoot, AGAINST!, BASE_PORT + 10, {}) : undefined;
  const defaults = { server, against };
  const nginxBinary = findBinary("nginx", ["/usr/sbin/nginx"]);
  const wants = (names: string[]) => names.some((name) => ONLY.test(name));
  const staticRows = [`static detail ${detail}`, "static providers"];
  if (nginxBinary && wants(staticRows)) {
    const prefix = mkdtempSync(join(work, "nginx-"));
    const [apiPort, textPort] = [await freePort(), await freePort()];
    const config = renderNginxConfig({
      dist: realpathSync(join(root, "dist")),
      prefix,
      apiPort,
      textPort,
      sidecars: [{ host: "127.0.0.1", apiPort: BASE_PORT, textPort: BASE_PORT + 1 }],
    }).replace(/^worker_processes auto;$/m, "worker_processes 1;");
    writeFileSync(join(prefix, "nginx.conf"), config);
    const nginx = await spawnReady(
      nginxBinary,
      ["-p", prefix, "-e", join(prefix, "error.log"), "-c", join(prefix, "nginx.conf"), "-g", "daemon off;"],
      { PATH: process.env.PATH },
      `http://127.0.0.1:${apiPort}/v1/providers`,
      "nginx.log",
    );
    const nginxAt = (path: string) => ({ name: "nginx", url: `http://127.0.0.1:${apiPort}${path}`, pid: nginx.pid! });
    await row(staticRows[0]!, "static", nginxAt(`/v1/services/${detail}`), defaults, `/v1/services/${detail}`);
    await row(staticRows[1]!, "static", nginxAt("/v1/providers"), defaults, "/v1/providers");
  } else if (wants(staticRows)) console.warn("bench: nginx not installed; the static rows are skipped");
  const dynamic = { ...defaults, stack };
  await row("search q+provider", "GET", hello, dynamic, "/v1/services?q=postgres&provider=gcp", {}, KEPT_TARGETS);
  await row("search q+filter", "GET", hello, dynamic, "/v1/services?q=object%20storage&category=storage&limit=20");
  const compare = `/v1/compare?ids=${mixed.slice(0, 3).join(",")}`;
  await row("compare 3", "GET", hello, dynamic, compare, {}, KEPT_TARGETS);
  await row("health", "GET", hello, dynamic, "/v1/health");
  await row("exposure 20", "GET", hello, dynamic, `/v1/exposure?ids=${mixed.join(",")}`);
  // The file answers /v1/services/{slug}; with a trailing slash the router answers it, computed.
  await row("detail computed", "GET", hello, dynamic, `/v1/services/${detail}/`);
  const rss = { ready: server.rssWhenReady, after: rssMB(server.pid), against: against?.rssWhenReady };
  await stopServer(server);
  await stopServer(against);

  // 2. Many clients behind a trusted proxy: POSTs and list creation, embedded and with Redis.
  const namesFor = (label: string) =>
    ["text page", "policy scp", "export markdown", "list create", ...(label === "embedded" ? ["mcp load"] : [])].map(
      (what) => `${what} (${label})`,
    );
  const stores: [string, Record<string, string>][] = [["embedded", {}]];
  const redisBinary = findBinary("redis-server");
  if (redisBinary && wants(namesFor("redis"))) {
    const redis = await startRedis(redisBinary);
    cleanups.push(() => redis.stop().then(() => rmSync(redis.dir, { recursive: true, force: true })));
    stores.push(["redis", { REDIS_URL: redis.url }]);
  } else if (wants(namesFor("redis"))) console.warn("bench: redis-server not installed; the Redis rows are skipped");
  const post = (body: unknown): Request => ({ method: "POST", body: JSON.stringify(body), xff: true });
  for (const [label, env] of stores) {
    if (!wants(namesFor(label))) continue;
    const many = { ...env, TRUST_PROXY: "127.0.0.1" };
    const trusted = await startServer(root, label, BASE_PORT, many);
    const trustedAgainst = againstRoot
      ? await startServer(againstRoot, `${AGAINST} ${label}`, BASE_PORT + 10, many)
      : undefined;
    const servers = { server: trusted, against: trustedAgainst };
    if (label === "embedded")
      await row(`text page (${label})`, "GET", hello, { ...servers, host: "text" }, textPage, {
        xff: true,
        headers: { Accept: "*/*" },
      });
    await row(
      `policy scp (${label})`,
      "POST",
      hello,
      servers,
      "/v1/policies/alpha-scp",
      post({ approvedServiceIds: slugs("aws", 10) }),
    );
    await row(
      `export markdown (${label})`,
      "POST",
      hello,
      servers,
      "/v1/export/markdown",
      post({ approvedServiceIds: mixed }),
    );
    await row(`list create (${label})`, "list create", hello, servers, "/v1/lists", {
      method: "POST",
      body: JSON.stringify(mixed),
      xff: true,
      list: true,
    });
    if (label === "embedded" && ONLY.test(`mcp load (${label})`)) await measureMcpLoad(trusted);
    await stopServer(trusted);
    await stopServer(trustedAgainst);
  }

  if (rows.length === 0 && !mcpLoad) throw new Error(`bench: BENCH_ONLY=${process.env.BENCH_ONLY} names no row`);
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const cpu = execSync("lscpu | sed -n 's/^Model name: *//p'").toString().trim();
  const table = [
    `\`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${cpu}, ${execSync("nproc").toString().trim()} cores; wrk ${CONNECTIONS} connections, one thread, ${DURATION} s a row in one-second slices beside its reference.`,
    "",
    `| row | req/s | p50 ms | p99 ms | answer | reference | ref req/s | ratio | target | stack req/s | ratio to stack | target | wrk CPU | server CPU | errors |${AGAINST ? ` ${AGAINST} req/s |` : ""}`,
    `|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${AGAINST ? "---:|" : ""}`,
    ...rows.map((r) => {
      const verdict = (ratio: number, target: number | undefined) =>
        target === undefined ? "report" : `${target}× ${ratio >= target ? "✓" : "✗"}`;
      const ratio = rps(r.run) / rps(r.ref);
      const stack = r.stack ? rps(r.run) / rps(r.stack) : undefined;
      const stackColumns =
        r.stack && stack !== undefined
          ? `${rps(r.stack).toFixed(0)} | ${stack.toFixed(2)}× | ${verdict(stack, r.targets?.stack)}`
          : " | | ";
      return `| ${r.name} | ${rps(r.run).toFixed(0)} | ${r.run.p50.toFixed(2)} | ${r.run.p99.toFixed(2)} | ${r.shape} | ${r.reference} | ${rps(r.ref).toFixed(0)} | ${ratio.toFixed(2)}× | ${verdict(ratio, r.targets?.ref ?? TARGETS[r.kind])} | ${stackColumns} | ${pct(r.run.loadCpu)} | ${pct(r.run.serverCpu)} | ${r.run.failed} |${r.against ? ` ${rps(r.against).toFixed(0)} |` : ""}`;
    }),
    "",
    ...mcpTable(mcpLoad),
    `RSS of the default \`npm start\` process: ${rss.ready.toFixed(0)} MB when ready (target ≤ ${RSS_TARGET_MB} MB ${rss.ready <= RSS_TARGET_MB ? "✓" : "✗"}), ${rss.after.toFixed(0)} MB after the GET rows (target ≤ ${RSS_AFTER_TARGET_MB} MB ${rss.after <= RSS_AFTER_TARGET_MB ? "✓" : "✗"})${rss.against === undefined ? "" : `; ${AGAINST}: ${rss.against.toFixed(0)} MB when ready`}.`,
  ].join("\n");
  mkdirSync(join(root, ".cache"), { recursive: true });
  writeFileSync(join(root, ".cache", "bench-api.md"), `${table}\n`);
  console.log(`\n${table}\n\nbench: table written to .cache/bench-api.md`);
} finally {
  // Wait for the servers to exit before removing their folders: a closing store or nginx still writes.
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exits = running.map((child) => new Promise((resolve) => child.once("exit", resolve)));
  for (const child of running) child.kill("SIGTERM");
  await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  for (const cleanup of cleanups) await cleanup();
}
