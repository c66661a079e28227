/**
 * wrk runs for the benches (scripts/bench/api.ts): one thread, CONNECTIONS connections,
 * `Accept-Encoding: br`, scripts/bench/wrk.lua writing each run's result as JSON; a run's CPU (wrk's
 * and the server's, from /proc) and RSS; runs taken together in one-second slices; one answer's
 * status and encoding, checked before a row.
 */
import { execFileSync, execSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Measured seconds per row, after 1 s of warm-up. */
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = 50;
const root = fileURLToPath(new URL("../../", import.meta.url));
const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;
/** Where wrk.lua writes each run's result; removeRunFiles() deletes it. */
const runFiles = mkdtempSync(join(tmpdir(), "csc-bench-wrk-"));
export const removeRunFiles = () => rmSync(runFiles, { recursive: true, force: true });

/** CPU seconds so far of a process and its direct children (nginx's worker). */
export function cpuSeconds(pid: number): number {
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
export const rssMB = (pid: number) =>
  (Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024) / 1e6;

export interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  failed: number;
  loadCpu: number;
  serverCpu: number;
}
export const rps = (run: Run) => run.requests / run.seconds;

export interface Request {
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** Each request names its own client in X-Forwarded-For (wrk.lua). */
  xff?: boolean;
  /** Each request's body is a list with its own name. */
  list?: boolean;
  /** Each request's URL has its own number in place of UNIQUE: nothing kept answers it. */
  unique?: boolean;
  /** Each connection waits this long before its next request (wrk.lua's delay()): a paced client. */
  delayMs?: number;
  /** Paths each connection sends at once, pipelined, GET (wrk.lua's BENCH_PIPELINE). */
  pipeline?: readonly string[];
  /** A file of bodies, one a line, sent in turn (wrk.lua's BENCH_BODY_FILE). */
  bodyFile?: string;
  /** wrk's --timeout for one answer, in seconds (5 by default). */
  timeoutSeconds?: number;
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
    `${request.timeoutSeconds ?? 5}s`,
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
    BENCH_UNIQUE: request.unique ? "1" : "",
    BENCH_DELAY_MS: String(request.delayMs ?? 0),
    BENCH_PIPELINE: request.pipeline?.join("|") ?? "",
    BENCH_BODY_FILE: request.bodyFile ?? "",
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

export function wrk(url: string, request: Request, seconds: number, pid: number, connections = CONNECTIONS): Run {
  const out = join(runFiles, "wrk.json");
  const { args, env } = wrkCommand(url, request, seconds, connections, out);
  const cpu = cpuSeconds(pid);
  execFileSync("wrk", args, { env, stdio: ["ignore", "ignore", "inherit"] });
  return readRun(out, pid, cpu);
}

let besideRuns = 0;

/** wrk in the background, for a load beside a measurement (several may run at once). */
export function wrkBeside(
  url: string,
  request: Request,
  seconds: number,
  pid: number,
  connections: number,
): Promise<Run> {
  const out = join(runFiles, `wrk-beside-${++besideRuns}.json`);
  const { args, env } = wrkCommand(url, request, seconds, connections, out);
  const cpu = cpuSeconds(pid);
  return new Promise((resolve, reject) =>
    spawn("wrk", args, { env, stdio: ["ignore", "ignore", "inherit"] })
      .once("error", reject)
      .once("exit", (code) => (code === 0 ? resolve(readRun(out, pid, cpu)) : reject(new Error(`wrk exited ${code}`)))),
  );
}

/** Runs taken as one: totals over their time (CPU as a share of it), latencies weighted by requests. */
export function combine(runs: Run[]): Run {
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

export interface Target {
  readonly url: string;
  readonly request: Request;
  readonly pid: number;
}

/** Each target warmed up for a second, then DURATION one-second slices of each in turn, the order reversed each second. */
export function measureTogether(targets: readonly Target[]): Run[] {
  for (const { url, request, pid } of targets) wrk(url, request, 1, pid);
  const slices: Run[][] = targets.map(() => []);
  const order = targets.map((_, i) => i);
  for (let second = 0; second < DURATION; second++)
    for (const i of second % 2 === 0 ? order : [...order].reverse())
      slices[i]!.push(wrk(targets[i]!.url, targets[i]!.request, 1, targets[i]!.pid));
  return slices.map(combine);
}

export async function shapeOf(rowUrl: string, request: Request): Promise<string> {
  const url = request.unique ? rowUrl.replace("UNIQUE", "1") : rowUrl;
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
