/**
 * The bench's heavy loads beside cheap reads (`BENCH_ONLY=fair npm run bench`, issue 109): GET
 * /v1/health and a static read (GET /v1/providers, a built file answered from memory), each from
 * PROBE_CONNECTIONS connections paced at one request per PROBE_PACE_MS, alone and then beside each
 * documented heavy load, with the node process's peak RSS meanwhile:
 *   pipelined reads  200 connections each sending 16 GETs at once, /catalogue.json among them,
 *                    once with Accept-Encoding: br (the dump's 0.5 MB) and once without (19 MB)
 *   MCP              100 clients calling tools/list, search_services, get_service and exit_plan in
 *                    turn, each call from its own X-Forwarded-For address, as fast as answered
 *   checks           8 clients each posting a 4 MiB CloudFormation template to POST
 *                    /v1/deployments/check as soon as its last was answered
 * The probes' connections open first, as ordinary readers' kept-alive connections are; the load
 * starts LOAD_AFTER_MS later and runs DURATION seconds (BENCH_FAIR_SECONDS, 10), the probes a
 * second longer. (A connection opened during a burst of 200 new ones waits to be accepted behind
 * them: node accepts one connection per turn of its event loop, libuv's uv__server_io.) Each server answers one request of each load first (its heavy
 * thread started, its kept answers made), as a server that has run a while would. Targets: health and static p99 ≤ 1 s beside every load; the node process ≤ 400 MB.
 * The probes alone, taken just before each load in the same run, are the row's reference.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rssMB, wrkBeside, type Request, type Run } from "./wrk-runs.ts";

/** Seconds the probes run, alone and beside each load (`BENCH_FAIR_SECONDS`). */
const DURATION = Number(process.env.BENCH_FAIR_SECONDS ?? 10);
export const PROBE_CONNECTIONS = 10;
export const PROBE_PACE_MS = 50;
const LOAD_AFTER_MS = 500;
export const P99_TARGET_MS = 1000;
export const RSS_BOUND_MB = 400;

/** The 16 reads each pipelining connection sends at once: built files, computed reads and the dump. */
const PIPELINED_READS = [
  "/catalogue.json",
  "/v1/providers",
  "/v1/services/aws-s3",
  "/v1/categories",
  "/v1/services/gcp-cloud-storage",
  "/v1/services?q=object%20storage",
  "/v1/equivalents",
  "/v1/services?limit=100",
  "/v1/lifecycle",
  "/v1/compare?ids=aws-s3,gcp-cloud-storage",
  "/v1/services/aws-ec2",
  "/v1/changes",
  "/v1/services?provider=aws&limit=100",
  "/v1/exposure?ids=aws-s3,aws-ec2",
  "/v1/services/aws-lambda",
  "/openapi.json",
];

const MCP_CALLS = [
  { jsonrpc: "2.0", id: 1, method: "tools/list" },
  {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "search_services", arguments: { query: "managed kubernetes", limit: 25 } },
  },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_service", arguments: { slug: "aws-s3" } } },
  {
    jsonrpc: "2.0",
    id: 4,
    method: "tools/call",
    params: {
      name: "exit_plan",
      arguments: {
        approvedServiceIds: ["aws-s3", "aws-ec2", "aws-lambda", "aws-rds-postgresql"],
        to: { sovereignOption: true },
      },
    },
  },
];

/** A CloudFormation template of 4 MiB less `spare` bytes: queues and buckets with a long tag each. */
function maximumCheck(spare = 8192): string {
  const resources: Record<string, unknown> = {};
  for (let i = 0, size = 0; size < 4 * 1024 * 1024 - spare - 2400; i++, size += 2400)
    resources[`R${i}`] = {
      Type: i % 2 ? "AWS::S3::Bucket" : "AWS::SQS::Queue",
      Properties: { Tags: [{ Key: "description", Value: "x".repeat(2300) }] },
    };
  return JSON.stringify({ approvedServiceIds: ["aws-s3", "aws-sqs"], template: { Resources: resources } });
}

/** The loads' row names, as BENCH_ONLY matches them. */
export const FAIR_LOAD_NAMES = [
  "fair pipelined reads (br)",
  "fair pipelined reads (identity)",
  "fair 100 MCP clients",
  "fair 8 maximum checks",
] as const;

export interface FairServer {
  readonly label: string;
  readonly api: string;
  readonly pid: number;
}

interface Load {
  readonly name: string;
  readonly path: string;
  readonly connections: number;
  readonly request: Request;
}

export interface FairRow {
  readonly load: string;
  readonly server: string;
  readonly healthAlone: Run;
  readonly staticAlone: Run;
  readonly health: Run;
  readonly static: Run;
  readonly loadRun: Run;
  readonly peakMb: number;
}

function loads(workDir: string): Load[] {
  const checks = join(workDir, "fair-check.jsonl");
  writeFileSync(checks, `${maximumCheck()}\n`);
  const mcp = join(workDir, "fair-mcp.jsonl");
  writeFileSync(mcp, `${MCP_CALLS.map((call) => JSON.stringify(call)).join("\n")}\n`);
  const pipelined = { pipeline: PIPELINED_READS, timeoutSeconds: 30 };
  return [
    { name: "pipelined reads (br)", path: "/", connections: 200, request: pipelined },
    {
      name: "pipelined reads (identity)",
      path: "/",
      connections: 200,
      request: { ...pipelined, headers: { "Accept-Encoding": "identity" } },
    },
    {
      name: "100 MCP clients",
      path: "/mcp",
      connections: 100,
      request: {
        method: "POST",
        bodyFile: mcp,
        xff: true,
        headers: { Accept: "application/json, text/event-stream" },
        timeoutSeconds: 30,
      },
    },
    {
      name: "8 maximum checks",
      path: "/v1/deployments/check",
      connections: 8,
      request: { method: "POST", bodyFile: checks, xff: true, timeoutSeconds: 30 },
    },
  ];
}

/** The probes, health and the static read at once, for `seconds`. */
function probe(server: FairServer, seconds: number): Promise<[Run, Run]> {
  const paced: Request = { delayMs: PROBE_PACE_MS, timeoutSeconds: 30 };
  return Promise.all([
    wrkBeside(`${server.api}/v1/health`, paced, seconds, server.pid, PROBE_CONNECTIONS),
    wrkBeside(`${server.api}/v1/providers`, paced, seconds, server.pid, PROBE_CONNECTIONS),
  ]);
}

async function measure(server: FairServer, load: Load): Promise<FairRow> {
  const [healthAlone, staticAlone] = await probe(server, DURATION);
  let peakMb = rssMB(server.pid);
  const sampling = setInterval(() => (peakMb = Math.max(peakMb, rssMB(server.pid))), 100);
  const probing = probe(server, DURATION + 1);
  await new Promise((resolve) => setTimeout(resolve, LOAD_AFTER_MS));
  const loadRun = await wrkBeside(`${server.api}${load.path}`, load.request, DURATION, server.pid, load.connections);
  const [health, staticRead] = await probing;
  clearInterval(sampling);
  // The server settles before the next measure: the load's queued work drains.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const row = {
    load: load.name,
    server: server.label,
    healthAlone,
    staticAlone,
    health,
    static: staticRead,
    loadRun,
    peakMb,
  };
  console.log(
    `bench: fair ${load.name.padEnd(26)} ${server.label}: health p99 ${healthAlone.p99.toFixed(0)} → ${health.p99.toFixed(0)} ms, static p99 ${staticAlone.p99.toFixed(0)} → ${staticRead.p99.toFixed(0)} ms, peak ${peakMb.toFixed(0)} MB, load ${loadRun.requests} answers (${loadRun.failed} refused or failed)`,
  );
  return row;
}

/** One request of each load and a second of probes, before any is measured. */
async function warm(server: FairServer): Promise<void> {
  const answered = (response: Response) => response.arrayBuffer();
  for (const path of PIPELINED_READS) await fetch(`${server.api}${path}`).then(answered);
  for (const [i, call] of MCP_CALLS.entries())
    await fetch(`${server.api}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": `198.18.0.${i}`,
      },
      body: JSON.stringify(call),
    }).then(answered);
  await fetch(`${server.api}/v1/deployments/check`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.18.1.1" },
    body: maximumCheck(),
  }).then(answered);
  await Promise.all([
    wrkBeside(`${server.api}/v1/health`, { delayMs: PROBE_PACE_MS }, 1, server.pid, PROBE_CONNECTIONS),
    wrkBeside(`${server.api}/v1/providers`, { delayMs: PROBE_PACE_MS }, 1, server.pid, PROBE_CONNECTIONS),
  ]);
}

/** Each load beside the probes on each server, `repeats` times, the servers' order alternating. */
export async function measureFairLoads(
  servers: readonly FairServer[],
  workDir: string,
  only: RegExp,
  repeats = 1,
): Promise<FairRow[]> {
  const rows: FairRow[] = [];
  for (const server of servers) await warm(server);
  for (const load of loads(workDir).filter((candidate) => only.test(`fair ${candidate.name}`)))
    for (let repeat = 0; repeat < repeats; repeat++)
      for (const server of repeat % 2 === 0 ? servers : [...servers].reverse()) rows.push(await measure(server, load));
  return rows;
}

/** The rows as the bench's table. */
export function fairTable(rows: readonly FairRow[]): string[] {
  if (rows.length === 0) return [];
  const ms = (run: Run) => `${run.p50.toFixed(1)} / ${run.p99.toFixed(0)}`;
  const verdict = (ok: boolean) => (ok ? "✓" : "✗");
  return [
    "",
    `Heavy loads beside cheap reads: \`GET /v1/health\` and \`GET /v1/providers\` (built, from memory), each from ${PROBE_CONNECTIONS} kept-alive connections paced at one request per ${PROBE_PACE_MS} ms for ${DURATION} s alone, then while the load runs ${DURATION} s; the node process's peak RSS meanwhile. Targets: p99 ≤ ${P99_TARGET_MS} ms beside each load, RSS ≤ ${RSS_BOUND_MB} MB.`,
    "",
    "| load | server | health p50 / p99 ms alone | beside | static p50 / p99 ms alone | beside | p99 ≤ 1 s | peak RSS MB | load answers (failed), p50 / p99 ms |",
    "|---|---|---:|---:|---:|---:|---|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.load} | ${row.server} | ${ms(row.healthAlone)} | ${ms(row.health)} | ${ms(row.staticAlone)} | ${ms(row.static)} | ${verdict(Math.max(row.health.p99, row.static.p99) <= P99_TARGET_MS)} | ${row.peakMb.toFixed(0)} ${verdict(row.peakMb <= RSS_BOUND_MB)} | ${row.loadRun.requests} (${row.loadRun.failed})${row.loadRun.p99 > 0 ? `, ${ms(row.loadRun)}` : ""} |`,
    ),
    "",
  ];
}
