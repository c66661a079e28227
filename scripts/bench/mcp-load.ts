/**
 * The bench's MCP load (scripts/bench/api.ts, "mcp load"): GET /v1/health's latency from one
 * connection, alone and beside CONNECTIONS MCP clients calling search_services, paced at the mcp
 * bucket's rate and unpaced, and the table that reports it.
 */
import { BUCKETS } from "../../catalogue/base/limits.ts";
import { CONNECTIONS, DURATION, rps, shapeOf, wrk, wrkBeside, type Request, type Run } from "./wrk-runs.ts";

/** Health probes measured by one connection: alone, and beside CONNECTIONS MCP clients calling search_services. */
export interface McpLoad {
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

export async function measureMcpLoad(server: { readonly api: string; readonly pid: number }): Promise<McpLoad> {
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
  const result: McpLoad = { alone, beside, mcp, pacedBeside: paced.beside, paced: paced.mcp, shape };
  console.log(
    `bench: mcp load: health p99 ${alone.p99.toFixed(2)} ms alone, ${paced.beside.p99.toFixed(2)} ms beside paced clients (${rps(paced.mcp).toFixed(0)} calls/s), ${beside.p99.toFixed(2)} ms beside ${rps(result.mcp).toFixed(0)} MCP calls/s (${result.mcp.requests - result.mcp.failed} answered, ${result.mcp.failed} refused or failed)`,
  );
  return result;
}

/** The MCP load's table: health alone and beside the MCP clients, and what the clients got. */
export function mcpTable(load: McpLoad | undefined): string[] {
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
