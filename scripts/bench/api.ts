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
 * when ready and ≤ 400 MB after the GET rows (and beside every heavy load: ./fair-load.ts); list creation is reported only. POST rows run against a second server with
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
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { findBinary, freePort, startRedis, waitFor } from "../components.ts";
import { renderNginxConfig } from "../deploy-config.ts";
import { npmStartCommand } from "./start-command.ts";
import { mcpTable, measureMcpLoad, type McpLoad } from "./mcp-load.ts";
import { FAIR_LOAD_NAMES, fairTable, measureFairLoads, type FairRow } from "./fair-load.ts";
import { AFTER_IDLE_NAME, afterIdleTable, measureAfterIdle, type AfterIdleRow } from "./after-idle.ts";
import {
  CONNECTIONS,
  DURATION,
  measureTogether,
  removeRunFiles,
  rps,
  rssMB,
  shapeOf,
  type Request,
  type Run,
} from "./wrk-runs.ts";

const ONLY = new RegExp(process.env.BENCH_ONLY ?? "");
const AGAINST = process.env.BENCH_AGAINST;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 18480);
const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "csc-bench-"));
/** Least ratio to the reference per kind of row; undefined: reported only. */
const TARGETS = { static: 0.35, GET: 0.5, POST: 0.2, "list create": undefined } as const;
/** The kept answers' targets (decisions.md#serving-performance): against hello world, and against the plugin stack. */
const KEPT_TARGETS = { ref: 0.4, stack: 0.8 } as const;
const RSS_TARGET_MB = 200;
const RSS_AFTER_TARGET_MB = 400;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true }), removeRunFiles];

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
  // dist/ built first, as a server that has run a while serves it: a start over a stale one serves
  // answers computed from the sources, then a fast build, while a build runs beside it.
  execFileSync(process.execPath, [join(codeRoot, "scripts", "build.ts")], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ["ignore", openSync(join(work, `build-${label.replace(/\W+/g, "-")}.log`), "a"), "inherit"],
  });
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
  // Since issue 120 npm start supervises the server in a child process: that one's memory is measured.
  const pid = servingPid(child.pid!);
  const server: Server = {
    api: `http://127.0.0.1:${port}`,
    text: `http://127.0.0.1:${port + 1}`,
    pid,
    child,
    rssWhenReady: rssMB(pid),
  };
  return server;
}

/** The process that serves: npm start's child running scripts/start-server.ts, or npm start itself (older code). */
function servingPid(started: number): number {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === started && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("start-server.ts"))
        return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return started;
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
let mcpLoad: McpLoad | undefined;
let fairRows: FairRow[] = [];
let afterIdle: AfterIdleRow[] = [];

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
  // A page no one asked for before: the search runs for each request (a misspelling is respelt first).
  const uncached = { unique: true };
  await row("search uncached", "GET", hello, dynamic, "/v1/services?q=object%20storage&page=UNIQUE", uncached);
  await row("search uncached typo", "GET", hello, dynamic, "/v1/services?q=postgers&page=UNIQUE", uncached);
  const compare = `/v1/compare?ids=${mixed.slice(0, 3).join(",")}`;
  await row("compare 3", "GET", hello, dynamic, compare, {}, KEPT_TARGETS);
  await row("health", "GET", hello, dynamic, "/v1/health");
  await row("exposure 20", "GET", hello, dynamic, `/v1/exposure?ids=${mixed.join(",")}`);
  // The file answers /v1/services/{slug}; with a trailing slash the router answers it, computed.
  await row("detail computed", "GET", hello, dynamic, `/v1/services/${detail}/`);
  if (ONLY.test(AFTER_IDLE_NAME)) afterIdle = await measureAfterIdle(server);
  const rss = { ready: server.rssWhenReady, after: rssMB(server.pid), against: against?.rssWhenReady };
  await stopServer(server);
  await stopServer(against);

  // 2. Many clients behind a trusted proxy: POSTs and list creation, embedded and with Redis.
  const namesFor = (label: string) => [
    ...["text page", "policy scp", "export markdown", "list create"].map((what) => `${what} (${label})`),
    ...(label === "embedded" ? ["mcp load (embedded)", ...FAIR_LOAD_NAMES] : []),
  ];
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
    if (label === "embedded" && ONLY.test(`mcp load (${label})`)) mcpLoad = await measureMcpLoad(trusted);
    if (label === "embedded" && wants([...FAIR_LOAD_NAMES]))
      fairRows = await measureFairLoads(
        [
          { label: "this code", api: trusted.api, pid: trusted.pid },
          ...(trustedAgainst ? [{ label: AGAINST!, api: trustedAgainst.api, pid: trustedAgainst.pid }] : []),
        ],
        work,
        ONLY,
        Number(process.env.BENCH_FAIR_REPEATS ?? 1),
      );
    await stopServer(trusted);
    await stopServer(trustedAgainst);
  }

  if (rows.length === 0 && !mcpLoad && fairRows.length === 0 && afterIdle.length === 0)
    throw new Error(`bench: BENCH_ONLY=${process.env.BENCH_ONLY} names no row`);
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
    ...fairTable(fairRows),
    ...afterIdleTable(afterIdle),
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
