/**
 * Issue 120: seven 10-second checks a minute from one address (within its rate limit) made other
 * clients' 50 ms checks wait 10–20 s behind them, in one first-come queue. The queues
 * (sidecar/threads/slots.ts) now serve waiting clients in turn, cap the slots one client holds and
 * the jobs it has waiting.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Slots } from "../../sidecar/threads/slots.ts";

const busy = () => Object.assign(new Error("busy"), { statusCode: 503 });
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A job that runs until told: its start is recorded, `finish` ends it. */
function heldJob(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: () => {
      started.push(name);
      return done;
    },
    finish: () => finish(),
  };
}

/** Round robin over clients in the order of their first job: each client's jobs in their own order. */
function roundRobin(clients: readonly number[]): string[] {
  const queues = new Map<number, string[]>();
  clients.forEach((client, i) => queues.set(client, [...(queues.get(client) ?? []), `${client}:${i}`]));
  const order: string[] = [];
  while (queues.size > 0)
    for (const [client, queue] of queues) {
      order.push(queue.shift()!);
      if (queue.length === 0) queues.delete(client);
    }
  return order;
}

describe("fair turns in the queues of jobs", () => {
  it("starts another client's job before the second of a client that queued first", async () => {
    const slots = new Slots(1, 16, busy);
    const started: string[] = [];
    const jobs = ["a1", "a2", "a3", "b1"].map((name) => heldJob(started, name));
    const runs = jobs.map((job, i) => slots.run(job.run, { client: i < 3 ? "a" : "b" }));
    await tick();
    for (const job of jobs) {
      job.finish();
      await tick();
      await tick();
    }
    await Promise.all(runs);
    expect(started).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("leaves a slot to another client while one client holds its share", async () => {
    const slots = new Slots(2, 16, busy, { perClient: 1 });
    const started: string[] = [];
    const a1 = heldJob(started, "a1");
    const a2 = heldJob(started, "a2");
    const runs = [slots.run(a1.run, { client: "a" }), slots.run(a2.run, { client: "a" })];
    await tick();
    await tick();
    // a2 waits for a's slot; b's job takes the other at once.
    const b = await slots.run(() => "b answered", { client: "b" });
    expect(b).toBe("b answered");
    expect(started).toEqual(["a1"]);
    a1.finish();
    await tick();
    await tick();
    expect(started).toEqual(["a1", "a2"]);
    a2.finish();
    await Promise.all(runs);
  });

  it("refuses a client's job past its share of the waiting queue, and not another client's", async () => {
    const slots = new Slots(1, 16, busy, { perClientWaiting: 2 });
    const holder = heldJob([], "holder");
    const running = slots.run(holder.run, { client: "a" });
    await tick();
    const waiting = [slots.run(() => 1, { client: "a" }), slots.run(() => 2, { client: "a" })];
    await expect(slots.run(() => 3, { client: "a" })).rejects.toMatchObject({ message: "busy" });
    const other = slots.run(() => 4, { client: "b" });
    holder.finish();
    await running;
    expect(await Promise.all([...waiting, other])).toEqual([1, 2, 4]);
  });

  it("starts jobs queued behind one slot in turns of their clients (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 30 }), async (clients) => {
        const slots = new Slots(1, 64, busy);
        const started: string[] = [];
        const holder = heldJob(started, "holder");
        const running = slots.run(holder.run, { client: "holder" });
        await tick();
        const runs = clients.map((client, i) =>
          slots.run(() => void started.push(`${client}:${i}`), { client: String(client) }),
        );
        holder.finish();
        await Promise.all([running, ...runs]);
        expect(started).toEqual(["holder", ...roundRobin(clients)]);
      }),
      { numRuns: 200 },
    );
  });

  it("never runs more than its slots, nor more than a client's share (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 40,
        }),
        async (slotCount, perClient, jobs) => {
          const slots = new Slots(slotCount, 64, busy, { perClient });
          const running = new Map<string, number>();
          let total = 0;
          let peak = 0;
          await Promise.all(
            jobs.map(([client, ticks]) =>
              slots.run(
                async () => {
                  const key = String(client);
                  running.set(key, (running.get(key) ?? 0) + 1);
                  total++;
                  peak = Math.max(peak, total);
                  expect(running.get(key)).toBeLessThanOrEqual(perClient);
                  for (let i = 0; i < ticks; i++) await tick();
                  running.set(key, running.get(key)! - 1);
                  total--;
                },
                { client: String(client) },
              ),
            ),
          );
          expect(peak).toBeLessThanOrEqual(slotCount);
          expect(total).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
