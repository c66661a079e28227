/**
 * The template readers (sidecar/threads/reader.ts): a process each, reused after a small template,
 * ended after a large one, after a template past a budget (a new spare takes its place) and when the
 * reader closes. Issue 120: a costly template ended the whole server (a thread's heap limit aborts
 * the process on one large allocation, nodejs/node#47224) and a backtracking regex ran on for
 * minutes after its request was answered; here the process ends with the answer, and only it.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { PAST_DEADLINE_DETAILS } from "../../sidecar/deadline.ts";
import { READERS_AT_ONCE, TemplateReader } from "../../sidecar/threads/reader.ts";

const body = (queues: number) =>
  JSON.stringify({
    template: {
      Resources: Object.fromEntries(
        Array.from({ length: queues }, (_, i) => [`Queue${i}`, { Type: "AWS::SQS::Queue", Properties: {} }]),
      ),
    },
  });

/** Whether a process is alive (signal 0 only asks). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until `pid` has gone, `withinMs` at most. */
async function gone(pid: number, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

/**
 * Of `pids`, those gone once one has (a process killed on a loaded machine takes a moment to
 * exit and be reaped), 5 s at most.
 */
async function goneOf(pids: readonly number[]): Promise<number[]> {
  const until = Date.now() + 5000;
  while (Date.now() < until && pids.every(alive)) await new Promise((resolve) => setTimeout(resolve, 20));
  return pids.filter((pid) => !alive(pid));
}

/**
 * Work that never ends: no template makes any since RE2 and the budgets (a backtracking regex took
 * years before), so a test reader process (../fixtures/threads/holding-reader.ts) holds its loop on
 * a template naming HOLD, as that regex did, and reads every other template as read-process.ts does.
 */
const HOLDING_READER = fileURLToPath(new URL("../fixtures/threads/holding-reader.ts", import.meta.url));
const runaway = `# HOLD\nresource "aws_s3_bucket" "b" {}\n`;

describe("the template readers", () => {
  it("reads the next template in a process already started, keeps a spare ready, and ends them on close", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    expect((await reader.read({ body: body(2) })).deployment).toBeDefined();
    const started = reader.pids();
    // The process that read it, and a spare started while it read: READERS_AT_ONCE at most.
    expect(started.length).toBeGreaterThan(0);
    expect(started.length).toBeLessThanOrEqual(READERS_AT_ONCE);
    expect((await reader.read({ body: body(3) })).deployment).toBeDefined();
    expect(reader.pids().sort()).toEqual([...started].sort());
    await reader.close();
    expect(reader.pids()).toEqual([]);
    for (const pid of started) expect(await gone(pid)).toBe(true);
  });

  it("reads the next template in the process that refused the last one", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const started = reader.pids();
    // Not JSON, and then not a template: refusals of the template, not faults of the process.
    await expect(reader.read({ body: "{not json" })).rejects.toMatchObject({ statusCode: 400 });
    expect((await reader.read({ template: "just: a value" })).refusal).toMatchObject({ statusCode: 400 });
    expect(reader.pids().sort()).toEqual([...started].sort());
  });

  it("ends the process after a template over 256 KiB", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const before = reader.pids();
    const large = `Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties: { QueueName: "${"q".repeat(300_000)}" }\n`;
    expect((await reader.read({ template: large })).deployment).toBeDefined();
    expect(await goneOf(before)).toHaveLength(1);
    expect(reader.pids().length).toBeGreaterThan(0);
  });

  it("answers a template past the heap with a 422, ends only its process, and reads the next", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const before = reader.pids();
    // Within 4 MiB and the values budget: 240,000 keys, past the reader's 48 MB.
    const heapBomb = `{${Array.from({ length: 240_000 }, (_, i) => `k${i}: 0`).join(", ")}}`;
    await expect(reader.read({ template: heapBomb })).rejects.toMatchObject({
      statusCode: 422,
      message: "Template too costly",
    });
    expect(await goneOf(before)).toHaveLength(1);
    expect((await reader.read({ body: body(1) })).deployment).toBeDefined();
  });

  it("answers count = 10000000 with a 422 and reads the next template", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    const template = `resource "aws_s3_bucket" "b" {\n  count = 10000000\n}\n`;
    const refused = await reader.read({ template }).then(
      (read) => read.refusal,
      (error: unknown) => error as { statusCode?: number; details?: string },
    );
    // The evaluator's own budget (a refusal) or the reader's: a 422 either way, the server untouched.
    expect(refused).toMatchObject({ statusCode: 422 });
    expect((await reader.read({ body: body(1) })).deployment).toBeDefined();
  });

  it("stops work that never ends at the request's deadline with a 503, its process ended at once", async () => {
    const reader = new TemplateReader({ script: HOLDING_READER });
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const before = reader.pids();
    const started = Date.now();
    const answer = reader.read({ template: runaway }, { deadline: started + 1500 }).then(
      (read) => read.refusal,
      (error: unknown) => error as { statusCode?: number; details?: string },
    );
    const refused = await answer;
    const waited = Date.now() - started;
    expect(refused).toMatchObject({ statusCode: 503, details: PAST_DEADLINE_DETAILS });
    expect(waited).toBeLessThan(1500 + 2000);
    expect(await goneOf(before)).toHaveLength(1);
    expect((await reader.read({ body: body(1) })).deployment).toBeDefined();
  });

  it("reads another client's small template beside one client's runaway ones, not behind them", async () => {
    const reader = new TemplateReader({ script: HOLDING_READER });
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const deadline = Date.now() + 20_000;
    const answered: string[] = [];
    // One client sends three runaway templates: one reads, the others wait their client's turn.
    const costly = Array.from({ length: 3 }, (_, i) =>
      reader
        .read({ template: runaway }, { deadline, client: "10.0.0.1" })
        .catch(() => undefined)
        .finally(() => answered.push(`runaway ${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const cheap = await reader.read({ body: body(1) }, { deadline, client: "10.0.0.2" });
    answered.push("cheap");
    console.log(
      `template reader: a cheap template beside ${costly.length} runaway ones of another client: ${Date.now() - started} ms`,
    );
    expect(cheap.deployment).toBeDefined();
    // The other reader (READERS_AT_ONCE) took it while the first runaway was read.
    expect(READERS_AT_ONCE).toBeGreaterThan(1);
    expect(answered).toEqual(["cheap"]);
    await reader.close();
    await Promise.all(costly);
  }, 30_000);
});
