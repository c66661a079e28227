/**
 * The first computed answer after the heavy thread ended for idleness (issue 125), beside warm ones
 * on the same server: each case asks new queries back to back (warm: the median of three), then
 * waits past the thread's IDLE_MS and asks one more new one. Each time is to the whole answer.
 */
import { href } from "../../catalogue/base/urls.ts";
import { IDLE_MS } from "../../sidecar/worker/pool.ts";

export const AFTER_IDLE_NAME = "first page after idle";
/** Past IDLE_MS, as a user coming back after half a minute. */
const IDLE_WAIT_MS = Math.max(30_000, IDLE_MS + 5_000);
const TARGET_MS = 300;
const IDLE_CYCLES = 2;

const ms = (values: readonly number[]): string => values.map((value) => value.toFixed(0)).join(", ");

export interface AfterIdleRow {
  readonly name: string;
  readonly warmMs: number;
  readonly afterIdleMs: readonly number[];
  readonly status: number;
}

interface Case {
  readonly name: string;
  readonly ask: (n: number) => Promise<Response>;
}

async function timed(ask: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await ask();
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

export async function measureAfterIdle(server: {
  readonly api: string;
  readonly text: string;
}): Promise<AfterIdleRow[]> {
  // A run's own words, so that no query was asked before (kept answers would say nothing).
  const run = Date.now().toString(36);
  const cases: Case[] = [
    {
      name: "text host search, Markdown",
      ask: (n) =>
        fetch(`${server.text}${href("search", { q: `object storage ${run}${n}` })}`, {
          headers: { accept: "text/markdown" },
        }),
    },
    {
      name: "site search page, HTML",
      ask: (n) =>
        fetch(`${server.text}${href("search", { q: `queue ${run}${n}` })}`, { headers: { accept: "text/html" } }),
    },
    {
      name: "API exit plan",
      ask: (n) =>
        fetch(`${server.api}/v1/exit-plan`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            approvedServiceIds: ["aws-s3", "aws-sqs", "aws-ec2"],
            to: { sovereignOption: true },
            dataGb: { "aws-s3": n + 1 },
          }),
        }),
    },
  ];
  const rows: AfterIdleRow[] = [];
  let n = 0;
  for (const { name, ask } of cases) {
    await timed(() => ask(n++)); // the thread running
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) warm.push((await timed(() => ask(n++))).ms);
    // Twice: the first answer after idle in the process's life, and one after it.
    const after: { ms: number; status: number }[] = [];
    for (let i = 0; i < IDLE_CYCLES; i++) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
      after.push(await timed(() => ask(n++)));
    }
    rows.push({
      name,
      warmMs: warm.sort((a, b) => a - b)[1]!,
      afterIdleMs: after.map((answer) => answer.ms),
      status: Math.max(...after.map((answer) => answer.status)),
    });
    console.log(
      `bench: ${name}: warm ${rows.at(-1)!.warmMs.toFixed(0)} ms, after ${IDLE_WAIT_MS / 1000} s idle ${ms(rows.at(-1)!.afterIdleMs)} ms`,
    );
  }
  return rows;
}

export function afterIdleTable(rows: readonly AfterIdleRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    `First computed answer after ${IDLE_WAIT_MS / 1000} s idle (the heavy thread ends after ${IDLE_MS / 1000} s), beside a warm one (median of three new queries):`,
    "",
    "| case | warm ms | after idle ms (first, second) | status | target |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.warmMs.toFixed(0)} | ${ms(r.afterIdleMs)} | ${r.status} | ≤ ${TARGET_MS} ms ${Math.max(...r.afterIdleMs) <= TARGET_MS ? "✓" : "✗"} |`,
    ),
    "",
  ];
}
