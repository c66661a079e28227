/**
 * `npm run bench`: wrk (C, one thread, 50 connections, `Accept-Encoding: br`) against the server as
 * `npm start` runs it by default — package.json's start command (`node … scripts/start.ts`) with only
 * PORT, TEXT_PORT, DATA_DIR and REDIS_URL set — each row measured beside its reference, in the
 * same run (one-second slices of each in turn, the order reversed each second):
 *   static reads            vs nginx (one worker, the same dist/, brotli_static/gzip_static, the
 *                           production config from scripts/deploy-config.ts)
 *   dynamic GETs            vs a bare Fastify hello world (scripts/bench/hello.ts)
 *   POSTs and list creation vs the same hello world, with the embedded store and with Redis
 *   the access line         the default server vs the same at LOG_LEVEL=warn, a new pair each round
 *   node:http's bound       a bare node:http server writing the static row's bytes vs nginx, on one
 *                           thread and on one thread per core
 * Rows that need many clients (every POST is rate-limited per IP, the text host too) run against a
 * second server that differs from the default only by TRUST_PROXY=127.0.0.1, each request naming its
 * own client in X-Forwarded-For (scripts/bench/wrk.lua); the limiter still counts every request.
 * Each row also reports wrk's own CPU (near 100 % of a core: the load generator was the limit),
 * the server's CPU, and responses ≥ 400. Writes the table to .cache/bench-api.md.
 *
 *   BENCH_SECONDS (5)   measured seconds per run (one-second slices), after 1 s of unmeasured warm-up
 *   BENCH_ONLY          a regular expression on row names
 *   BENCH_AGAINST=ref   also runs each row against the code of a git ref (A/B in the same run)
 *   BENCH_CODE=ref      measures the code of a git ref instead of the working tree
 *   BENCH_ROUNDS (1)    rounds per row (reference, row and BENCH_AGAINST row in turn); each column
 *                       reports its median round: on a shared machine single runs drift
 *   BENCH_PORT (18480)  API port of the servers (text host: +1; the BENCH_AGAINST copy: +10); fixed
 *                       so that the build, whose public URLs follow the port, is reused between runs
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
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogue } from "../../catalogue/load.ts";
import { findBinary, freePort, startRedis, waitFor } from "../../tests/helpers/components.ts";
import { renderNginxConfig } from "../deploy-config.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 50;
const ONLY = new RegExp(process.env.BENCH_ONLY ?? "");
const AGAINST = process.env.BENCH_AGAINST;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 18480);
const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-bench-"));
const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];

// ---------------------------------------------------------------------------------------------
// Processes

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

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function tail(path: string): string {
  try {
    return readFileSync(path, "utf8").slice(-2000);
  } catch {
    return "(no log)";
  }
}

async function spawnReady(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
  logName: string,
  timeoutMs = 20_000,
) {
  const log = openSync(join(work, logName), "a");
  const child = spawn(command, args, { env, stdio: ["ignore", log, log] });
  children.push(child);
  const exited = new Promise<never>((_resolve, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`bench: ${logName} exited (${code}):\n${tail(join(work, logName))}`)),
    ),
  );
  await Promise.race([waitFor(async () => (await fetch(ready)).ok, timeoutMs, logName), exited]);
  exited.catch(() => undefined);
  return child;
}

/** `npm start`'s command line from the code's package.json: node's flags and the script. */
function startArguments(codeRoot: string): string[] {
  const script = (JSON.parse(readFileSync(join(codeRoot, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== "node" || args.some((arg) => /["'$&|;]/.test(arg)))
    throw new Error(`bench: cannot run npm start's script here: ${script}`);
  return args.map((arg) => (arg.startsWith("-") ? arg : join(codeRoot, arg)));
}

interface Server {
  readonly label: string;
  readonly api: string;
  readonly text: string;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly rssAtStart: number;
}

/**
 * `npm start` as a user runs it: only the ports, the data folder and REDIS_URL are set (and, for the
 * rows that need many clients, TRUST_PROXY); stdout (the access log) goes to a file.
 */
async function startServer(
  codeRoot: string,
  label: string,
  port: number,
  env: Record<string, string>,
): Promise<Server> {
  const dataDir = mkdtempSync(join(work, "data-"));
  const child = await spawnReady(
    process.execPath,
    startArguments(codeRoot),
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      TEXT_PORT: String(port + 1),
      DATA_DIR: dataDir,
      ...env,
    },
    `http://127.0.0.1:${port}/v1/health`,
    `start-${label.replace(/\W+/g, "-")}.log`,
    // The first start may build dist/ (a few minutes on a busy 2-core machine).
    900_000,
  );
  return {
    label,
    api: `http://127.0.0.1:${port}`,
    text: `http://127.0.0.1:${port + 1}`,
    pid: child.pid!,
    child,
    rssAtStart: rssMiB(child.pid!),
  };
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

// ---------------------------------------------------------------------------------------------
// Measuring

interface Run {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  bytesPerResponse: number;
  failed: number;
  socketErrors: number;
  loadCpu: number;
  serverCpu: number;
}

interface Request {
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  xff?: boolean;
  list?: boolean;
  /** A URL of its own for every request (scripts/bench/wrk.lua): nothing answered from the replay cache. */
  uniq?: boolean;
}

/**
 * Where each wrk run's client numbers start (wrk.lua: 2^24 of them, then they repeat). Every run
 * lasts a second and answers well under 2^17 requests in it, so a client comes back only after 128
 * runs, over two minutes later: past the strict bucket's one-minute window.
 */
let seed = 0;
function wrk(url: string, request: Request, seconds: number, serverPid: number): Run {
  const out = join(work, "wrk.json");
  rmSync(out, { force: true });
  seed += 1 << 17;
  const headers = { "Accept-Encoding": "br", ...request.headers };
  const cpu0 = cpuSeconds(serverPid);
  execFileSync(
    "wrk",
    [
      "-t1",
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      "--timeout",
      "5s",
      "-s",
      join(root, "scripts", "bench", "wrk.lua"),
      ...Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
      url,
    ],
    {
      env: {
        ...process.env,
        BENCH_METHOD: request.method ?? "GET",
        BENCH_BODY: request.body ?? "",
        BENCH_XFF: request.xff ? "1" : "",
        BENCH_LIST: request.list ? "1" : "",
        BENCH_UNIQ: request.uniq ? "1" : "",
        BENCH_SEED: String(seed),
        BENCH_OUT: out,
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const serverCpu = cpuSeconds(serverPid) - cpu0;
  const r = JSON.parse(readFileSync(out, "utf8")) as Record<string, number>;
  const elapsed = r.durationUs! / 1e6;
  return {
    requests: r.requests!,
    seconds: elapsed,
    rps: r.requests! / elapsed,
    p50: r.p50Us! / 1000,
    p99: r.p99Us! / 1000,
    bytesPerResponse: r.bytes! / Math.max(1, r.requests!),
    failed: r.status4xx5xx!,
    socketErrors: r.connectErrors! + r.readErrors! + r.writeErrors! + r.timeoutErrors!,
    loadCpu: r.cpuTicks! / CLOCK_TICKS / elapsed,
    serverCpu: serverCpu / elapsed,
  };
}

interface Measured {
  readonly url: string;
  readonly request: Request;
  readonly pid: number;
}

/** Runs of one target taken as one: totals over their time, latencies weighted by requests. */
function combine(runs: Run[]): Run {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const total = (pick: (run: Run) => number) => runs.reduce((sum, run) => sum + pick(run), 0);
  const weighted = (pick: (run: Run) => number) => total((run) => pick(run) * run.requests) / Math.max(1, requests);
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: weighted((run) => run.p50),
    p99: weighted((run) => run.p99),
    bytesPerResponse: weighted((run) => run.bytesPerResponse),
    failed: total((run) => run.failed),
    socketErrors: total((run) => run.socketErrors),
    loadCpu: total((run) => run.loadCpu * run.seconds) / seconds,
    serverCpu: total((run) => run.serverCpu * run.seconds) / seconds,
  };
}

/**
 * One round of targets measured side by side: each warmed up, then DURATION seconds of each in
 * one-second slices taken in turn, the order reversed each second (reference, row, row,
 * reference, …) so that neither side is always the later one while the machine speeds up or
 * slows down. This machine's speed drifts by tens of per cent within a minute; a row and its
 * reference measured one after the other, 5 s each, read 0.66–0.99× for two copies of the same
 * hello world, and 0.90–1.02× in slices (BENCHMARKS.md).
 */
function measureTogether(targets: readonly Measured[]): Run[] {
  for (const target of targets) wrk(target.url, target.request, WARMUP_SECONDS, target.pid);
  const slices: Run[][] = targets.map(() => []);
  const order = targets.map((_, i) => i);
  for (let second = 0; second < DURATION; second++)
    for (const i of second % 2 === 0 ? order : [...order].reverse())
      slices[i]!.push(wrk(targets[i]!.url, targets[i]!.request, 1, targets[i]!.pid));
  return slices.map(combine);
}

/** The round of median throughput. */
function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor((runs.length - 1) / 2)]!;
}

interface Target {
  readonly url: string;
  readonly pid: number;
}

interface Row {
  name: string;
  kind: keyof typeof TARGETS;
  server: string;
  reference: string;
  ref: Run;
  run: Run;
  against?: Run;
  /** What the response looked like, checked once before the row: status and encoding. */
  shape: string;
}

/** A row's least ratio to its reference; a "bound" row measures the reference's kind, not this server. */
const TARGETS = { static: 0.8, GET: 0.5, POST: 0.4, "list create": 0.3, log: 0.9, bound: undefined } as const;

/** A ratio to two places, or three where two would round a miss up to its target. */
const ratioText = (ratio: number, target: number | undefined) =>
  ratio.toFixed(target !== undefined && ratio < target && Number(ratio.toFixed(2)) >= target ? 3 : 2);

async function shapeOf(url: string, request: Request): Promise<string> {
  // A kept-alive socket the server has since closed (its keep-alive limit is 5 s) fails once: retry on a new one.
  const send = (init: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
  const response = await send({
    method: request.method ?? "GET",
    headers: {
      "accept-encoding": "br",
      ...(request.body ? { "content-type": "application/json" } : {}),
      ...(request.xff ? { "x-forwarded-for": "192.0.2.1" } : {}),
      ...request.headers,
    },
    ...(request.body
      ? { body: request.list ? `{"name":"Bench shape","approvedServiceIds":${request.body}}` : request.body }
      : {}),
  });
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`bench: ${url} answered ${response.status}`);
  return `${response.status} ${response.headers.get("content-encoding") ?? "identity"}`;
}

const rows: Row[] = [];
async function row(
  name: string,
  kind: Row["kind"],
  reference: { name: string; target: Target },
  server: Server,
  path: string,
  request: Request = {},
  against?: Server,
  host: "api" | "text" = "api",
): Promise<void> {
  if (!ONLY.test(name)) return;
  const url = `${server[host]}${path}`;
  const shape = await shapeOf(url, request);
  const refs: Run[] = [];
  const runs: Run[] = [];
  const againsts: Run[] = [];
  const targets: Measured[] = [
    {
      url: reference.target.url,
      request: reference.name === "nginx" ? { ...request, xff: false } : {},
      pid: reference.target.pid,
    },
    { url, request, pid: server.pid },
    ...(against ? [{ url: `${against[host]}${path}`, request, pid: against.pid }] : []),
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const [ref, run, againstRun] = measureTogether(targets);
    refs.push(ref!);
    runs.push(run!);
    if (againstRun) againsts.push(againstRun);
  }
  const againstRun = against ? median(againsts) : undefined;
  record({
    name,
    kind,
    server: server.label,
    reference: reference.name,
    ref: median(refs),
    run: median(runs),
    shape,
    ...(againstRun ? { against: againstRun } : {}),
  });
}

/**
 * A row whose server and reference are started for each round and stopped after it: two processes
 * of the same code can differ by as much as such a row measures (the access line: 19.3 and 21.1 µs
 * of CPU a request in two), so each round measures a new pair.
 */
async function freshPairRow(
  name: string,
  kind: Row["kind"],
  path: string,
  start: () => Promise<{ reference: { name: string; target: Target }; server: Server; stop: () => Promise<void> }>,
): Promise<void> {
  if (!ONLY.test(name)) return;
  const refs: Run[] = [];
  const runs: Run[] = [];
  let shape = "";
  let pair: Awaited<ReturnType<typeof start>> | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    pair = await start();
    try {
      if (round === 0) shape = await shapeOf(`${pair.server.api}${path}`, {});
      const [ref, run] = measureTogether([
        { url: pair.reference.target.url, request: {}, pid: pair.reference.target.pid },
        { url: `${pair.server.api}${path}`, request: {}, pid: pair.server.pid },
      ]);
      refs.push(ref!);
      runs.push(run!);
    } finally {
      await pair.stop();
    }
  }
  const { reference, server } = pair!;
  record({ name, kind, server: server.label, reference: reference.name, ref: median(refs), run: median(runs), shape });
}

function record(entry: Row): void {
  rows.push(entry);
  const { name, reference, ref, run, against } = entry;
  const ratio = run.rps / ref.rps;
  console.log(
    `bench: ${name.padEnd(40)} ${run.rps.toFixed(0).padStart(6)} req/s  ${reference} ${ref.rps.toFixed(0).padStart(6)}  ${ratio.toFixed(2)}×  wrk CPU ${(run.loadCpu * 100).toFixed(0)} %  server CPU ${(run.serverCpu * 100).toFixed(0)} %${against ? `  ${AGAINST}: ${against.rps.toFixed(0)} req/s (${((run.rps / against.rps - 1) * 100).toFixed(0)} %)` : ""}${run.failed ? `  ≥400: ${run.failed}` : ""}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The run

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
const services = new Set(catalogue.services.map((s) => s.slug));
const storage = ["aws-s3", "gcp-cloud-storage", "azure-blob-storage"].filter((slug) => services.has(slug));
const compared = storage.length === 3 ? storage : ids.mixed.slice(0, 3);
const detail = services.has("aws-s3") ? "aws-s3" : ids.aws[0]!;
const [provider, ...rest] = detail.split("-");
const textPage = `/${provider}/${rest.join("-")}`;

const lines: string[] = [];
try {
  const helloPort = await freePort();
  const hello = await spawnReady(
    process.execPath,
    [join(root, "scripts", "bench", "hello.ts")],
    { PATH: process.env.PATH, PORT: String(helloPort) },
    `http://127.0.0.1:${helloPort}/`,
    "hello.log",
  );
  const helloTarget = { name: "hello", target: { url: `http://127.0.0.1:${helloPort}/`, pid: hello.pid! } };
  const againstRoot = AGAINST ? checkout(AGAINST) : undefined;

  // 1. The default configuration: static files, dynamic GETs.
  const codeRoot = process.env.BENCH_CODE ? checkout(process.env.BENCH_CODE) : root;
  const server = await startServer(codeRoot, "default", BASE_PORT, {});
  const against = againstRoot ? await startServer(againstRoot, `${AGAINST} default`, BASE_PORT + 10, {}) : undefined;
  const dist = realpathSync(join(codeRoot, "dist"));
  const nginxBinary = findBinary("nginx", ["/usr/sbin/nginx"]);
  const staticRows = [`static detail ${detail}`, "static providers"];
  const wantsStatic = staticRows.some((name) => ONLY.test(name));
  if (nginxBinary && wantsStatic) {
    const prefix = mkdtempSync(join(work, "nginx-"));
    const [apiPort, textPort] = [await freePort(), await freePort()];
    const config = renderNginxConfig({
      dist,
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
    const nginxTarget = (path: string) => ({
      name: "nginx",
      target: { url: `http://127.0.0.1:${apiPort}${path}`, pid: nginx.pid! },
    });
    await row(
      `static detail ${detail}`,
      "static",
      nginxTarget(`/v1/services/${detail}`),
      server,
      `/v1/services/${detail}`,
      {},
      against,
    );
    await row(staticRows[1]!, "static", nginxTarget("/v1/providers"), server, "/v1/providers", {}, against);
    // What Node's HTTP layer alone reaches for the same answer: the bound of any Node server's static
    // row, on one thread, and on as many threads as there are cores (sharing them with wrk).
    for (const threads of [1, availableParallelism()]) {
      const samePort = await freePort();
      const same = await spawnReady(
        process.execPath,
        [join(root, "scripts", "bench", "same-bytes.ts")],
        {
          PATH: process.env.PATH,
          PORT: String(samePort),
          THREADS: String(threads),
          SOURCE_URL: `${server.api}/v1/services/${detail}`,
        },
        `http://127.0.0.1:${samePort}/`,
        `same-bytes-${threads}.log`,
      );
      await row(
        `bare node:http${threads > 1 ? ` on ${threads} threads` : ""}, the same bytes as ${detail}`,
        "bound",
        nginxTarget(`/v1/services/${detail}`),
        {
          label: "node:http",
          api: `http://127.0.0.1:${samePort}`,
          text: `http://127.0.0.1:${samePort}`,
          pid: same.pid!,
          child: same,
          rssAtStart: 0,
        },
        "/",
      );
      same.kill("SIGTERM");
    }
  } else if (wantsStatic) console.warn("bench: nginx not installed; the static rows are skipped");

  await row(
    "search q+filter",
    "GET",
    helloTarget,
    server,
    "/v1/services?q=object%20storage&category=storage&limit=20",
    {},
    against,
  );
  await row(
    "search, a new URL each request",
    "GET",
    helloTarget,
    server,
    "/v1/services?q=object%20storage&category=storage&limit=20",
    { uniq: true },
    against,
  );
  await row("compare 3", "GET", helloTarget, server, `/v1/compare?ids=${compared.join(",")}`, {}, against);
  await row("exposure 20", "GET", helloTarget, server, `/v1/exposure?ids=${ids.mixed.join(",")}`, {}, against);
  // The file answers /v1/services/{slug}; with a trailing slash the router answers it, computed.
  await row("detail on the fly", "GET", helloTarget, server, `/v1/services/${detail}/`, {}, against);
  const rssAfterGets = rssMiB(server.pid);
  // Two fresh servers that differ only by LOG_LEVEL (no access line at warn), both claiming the
  // default's URLs so that they serve the same build; a new pair each round. Not the default server
  // itself: the rows before have grown its heap and filled its caches, which the reference would not share.
  const urls = { PUBLIC_API_URL: server.api, PUBLIC_TEXT_URL: server.text };
  const searchPath = "/v1/services?q=object%20storage&category=storage&limit=20";
  await freshPairRow("access log: search q+filter", "log", searchPath, async () => {
    const logging = await startServer(codeRoot, "default, fresh", BASE_PORT + 30, urls);
    const quiet = await startServer(codeRoot, "LOG_LEVEL=warn", BASE_PORT + 20, { LOG_LEVEL: "warn", ...urls });
    return {
      reference: { name: "LOG_LEVEL=warn", target: { url: `${quiet.api}${searchPath}`, pid: quiet.pid } },
      server: logging,
      stop: async () => {
        await stopServer(quiet);
        await stopServer(logging);
      },
    };
  });
  const rss = { label: server.label, start: server.rssAtStart, after: rssAfterGets };
  const againstRss = against ? { start: against.rssAtStart, after: rssMiB(against.pid) } : undefined;
  await stopServer(server);
  await stopServer(against);

  // 2. Many clients: TRUST_PROXY=127.0.0.1, one X-Forwarded-For per request.
  const configs: [string, Record<string, string>][] = [["embedded", {}]];
  const redisBinary = findBinary("redis-server");
  if (redisBinary) {
    const redis = await startRedis(redisBinary);
    cleanups.push(() => redis.stop().then(() => rmSync(redis.dir, { recursive: true, force: true })));
    configs.push(["redis", { REDIS_URL: redis.url }]);
  } else console.warn("bench: redis-server not installed; the Redis rows are skipped");
  const approved = JSON.stringify({ approvedServiceIds: ids.mixed });
  // What bare Fastify reaches for a POST like the policy rows' (hello.ts POST /post): their bound.
  await row(
    "bare Fastify POST, a policy body in, 1 KiB out",
    "bound",
    helloTarget,
    {
      label: "hello",
      api: helloTarget.target.url.replace(/\/$/, ""),
      text: "",
      pid: hello.pid!,
      child: hello,
      rssAtStart: 0,
    },
    "/post",
    { method: "POST", body: JSON.stringify({ approvedServiceIds: ids.aws }), xff: true },
  );
  for (const [label, env] of configs) {
    const names = [
      `text page ${textPage}`,
      "policy scp",
      "policy azure",
      "policy gcp",
      "export markdown",
      "list create",
    ].map((what) => `${what} (${label})`);
    if (!names.some((name) => ONLY.test(name))) continue;
    const many = { ...env, TRUST_PROXY: "127.0.0.1" };
    const trusted = await startServer(codeRoot, label, BASE_PORT, many);
    const trustedAgainst = againstRoot
      ? await startServer(againstRoot, `${AGAINST} ${label}`, BASE_PORT + 10, many)
      : undefined;
    const post = (body: string): Request => ({ method: "POST", body, xff: true });
    if (label === "embedded")
      await row(
        `text page ${textPage} (${label})`,
        "GET",
        helloTarget,
        trusted,
        textPage,
        { xff: true, headers: { Accept: "*/*" } },
        trustedAgainst,
        "text",
      );
    await row(
      `policy scp (${label})`,
      "POST",
      helloTarget,
      trusted,
      "/v1/policies/alpha-scp",
      post(JSON.stringify({ approvedServiceIds: ids.aws })),
      trustedAgainst,
    );
    await row(
      `policy azure (${label})`,
      "POST",
      helloTarget,
      trusted,
      "/v1/policies/beta-policy",
      post(JSON.stringify({ approvedServiceIds: ids.azure })),
      trustedAgainst,
    );
    await row(
      `policy gcp (${label})`,
      "POST",
      helloTarget,
      trusted,
      "/v1/policies/gamma-org-policy",
      post(JSON.stringify({ approvedServiceIds: ids.gcp })),
      trustedAgainst,
    );
    await row(
      `export markdown (${label})`,
      "POST",
      helloTarget,
      trusted,
      "/v1/export/markdown",
      post(approved),
      trustedAgainst,
    );
    await row(
      `list create (${label})`,
      "list create",
      helloTarget,
      trusted,
      "/v1/lists",
      { method: "POST", body: JSON.stringify(ids.mixed), xff: true, list: true },
      trustedAgainst,
    );
    await stopServer(trusted);
    await stopServer(trustedAgainst);
  }

  if (rows.length === 0) throw new Error(`bench: BENCH_ONLY=${process.env.BENCH_ONLY} names no row`);
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const cpu = execSync("lscpu | sed -n 's/^Model name: *//p'").toString().trim();
  lines.push(
    `\`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: ${cpu}, ${execSync("nproc").toString().trim()} cores. wrk ${CONNECTIONS} connections, one thread, \`Accept-Encoding: br\`, ${DURATION} s per run after ${WARMUP_SECONDS} s of warm-up, taken in one-second slices in turn with its reference's, the order reversed each second${ROUNDS > 1 ? `; median of ${ROUNDS} rounds` : ""}.`,
    "",
    `| row | req/s | p50 ms | p99 ms | bytes/resp | answer | reference | ref req/s | ratio | target | wrk CPU | server CPU | ≥ 400 |${AGAINST ? ` ${AGAINST} req/s | change |` : ""}`,
    `|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|${AGAINST ? "---:|---:|" : ""}`,
    ...rows.map((r) => {
      const ratio = r.run.rps / r.ref.rps;
      const target = TARGETS[r.kind];
      return `| ${r.name} | ${r.run.rps.toFixed(0)} | ${r.run.p50.toFixed(2)} | ${r.run.p99.toFixed(2)} | ${r.run.bytesPerResponse.toFixed(0)} | ${r.shape} | ${r.reference} | ${r.ref.rps.toFixed(0)} | ${ratioText(ratio, target)}× | ${target === undefined ? "—" : `${target}× ${ratio >= target ? "✓" : "✗"}`} | ${pct(r.run.loadCpu)} (ref ${pct(r.ref.loadCpu)}) | ${pct(r.run.serverCpu)} | ${r.run.failed + r.run.socketErrors} |${r.against ? ` ${r.against.rps.toFixed(0)} | ${((r.run.rps / r.against.rps - 1) * 100).toFixed(0)} % |` : ""}`;
    }),
    "",
    `RSS of the \`npm start\` process (${rss.label}): ${rss.start.toFixed(0)} MiB when ready, ${rss.after.toFixed(0)} MiB after the GET rows (target ≤ 150 MB)${againstRss ? `; ${AGAINST}: ${againstRss.start.toFixed(0)} and ${againstRss.after.toFixed(0)} MiB` : ""}.`,
  );
  const table = lines.join("\n");
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
