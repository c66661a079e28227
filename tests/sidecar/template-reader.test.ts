/**
 * The template reader's thread: reused after a small template, ended after a large one, after a
 * template that exhausts its heap (the next is read in a new thread) and when the reader closes.
 */
import type { Worker } from "node:worker_threads";
import { describe, expect, it, onTestFinished } from "vitest";
import { TemplateReader } from "../../sidecar/threads/reader.ts";

const idleThread = (reader: TemplateReader) => (reader as unknown as { idle?: { worker: Worker } }).idle?.worker;
const body = (queues: number) =>
  JSON.stringify({
    template: {
      Resources: Object.fromEntries(
        Array.from({ length: queues }, (_, i) => [`Queue${i}`, { Type: "AWS::SQS::Queue", Properties: {} }]),
      ),
    },
  });

describe("the template reader's thread", () => {
  it("reads the next template in the thread a small one was read in, and ends it on close", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    expect((await reader.read({ body: body(2) })).deployment).toBeDefined();
    const thread = idleThread(reader);
    expect(thread).toBeDefined();
    expect((await reader.read({ body: body(3) })).deployment).toBeDefined();
    expect(idleThread(reader)).toBe(thread);
    await reader.close();
    expect(idleThread(reader)).toBeUndefined();
  });

  it("ends the thread after a template over 256 KiB", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    const large = `Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties: { QueueName: "${"q".repeat(300_000)}" }\n`;
    expect((await reader.read({ template: large })).deployment).toBeDefined();
    expect(idleThread(reader)).toBeUndefined();
  });

  it("answers a template past the heap with a 422 and reads the next in a new thread", async () => {
    const reader = new TemplateReader();
    onTestFinished(() => reader.close());
    await reader.read({ body: body(1) });
    const before = idleThread(reader);
    // Within 4 MiB and the values budget: 240,000 keys, past the thread's 48 MB.
    const heapBomb = `{${Array.from({ length: 240_000 }, (_, i) => `k${i}: 0`).join(", ")}}`;
    await expect(reader.read({ template: heapBomb })).rejects.toMatchObject({ statusCode: 422 });
    expect(idleThread(reader)).toBeUndefined();
    expect((await reader.read({ body: body(1) })).deployment).toBeDefined();
    expect(idleThread(reader)).toBeDefined();
    expect(idleThread(reader)).not.toBe(before);
  });
});
