/**
 * Issue 109: every request gets an answer. Eight parallel 4 MiB checks waited for the one reader
 * with their bodies unread, and node's request limit answered them 408 "did not arrive in time";
 * heavy requests queued past the socket's idle limit were closed with no answer at all. Now each
 * wait ends at the request's deadline (sidecar/deadline.ts) with a 503 and Retry-After, in the
 * host's shape, and a socket left idle with a request unanswered gets that 503 before it closes.
 * The limits are shortened here (http-limits.ts `timeouts`) so that the waits pass them in a test.
 */
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { endpoint, type Endpoint } from "../../catalogue/contract/endpoint.ts";
import { buildApp } from "../../sidecar/app.ts";
import { PAST_DEADLINE_DETAILS } from "../../sidecar/deadline.ts";
import type { HttpTimeouts } from "../../sidecar/http-limits.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { Slots } from "../../sidecar/threads/slots.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { realCatalogue, tempStore, URLS, workerCatalogueSource } from "../helpers/app.ts";
import { rawRequest } from "../helpers/raw-http.ts";

/** Answers of the held row wait for this (each test releases what it held). */
const holding: (() => void)[] = [];
/** A heavy row (counted in a bucket, computed) whose answer waits until the test lets it go. */
const held = endpoint({
  operationId: "heldForTest",
  method: "GET",
  path: "/v1/held-for-test",
  summary: "Held",
  description: "A computation that ends when the test says so.",
  tag: "Operations",
  bucket: "relaxed",
  pure: true,
  response: { status: 200, schema: z.object({ held: z.boolean() }), contentType: "application/json" },
  errors: [503],
  cache: "no-store",
  example: { request: "GET /v1/held-for-test" },
  handler: () =>
    new Promise<{ body: { held: boolean } }>((resolve) => holding.push(() => resolve({ body: { held: true } }))),
});

const listening: FastifyInstance[] = [];
afterEach(async () => {
  for (const release of holding.splice(0)) release();
  while (listening.length > 0) await listening.pop()!.close();
});

/** The API host; `table` the contract's with the held row, or the contract's own run in the heavy thread as `npm start` runs it. */
async function api(timeouts: Partial<HttpTimeouts>, table: readonly Endpoint[] = [...ENDPOINTS, held]) {
  const app = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined, timeouts },
    catalogue: realCatalogue(),
    store: await tempStore(),
    urls: URLS,
    table,
    ...(table === ENDPOINTS ? { catalogueSource: workerCatalogueSource() } : {}),
  });
  listening.push(app);
  return app;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** A CloudFormation template of about `bytes` as JSON: queues with a long description each. */
function largeTemplate(bytes: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i * 2400 < bytes; i++)
    resources[`Q${i}`] = { Type: "AWS::SQS::Queue", Properties: { Tags: [{ Key: "d", Value: "x".repeat(2300) }] } };
  return { Resources: resources };
}

const MIB = 1024 * 1024;

/** What each of `answers` was: its status, and Retry-After beside a 503; a reset reads "reset". */
async function outcomes(answers: Promise<Response>[]): Promise<string[]> {
  return Promise.all(
    answers.map(async (pending) => {
      try {
        const answer = await pending;
        const body = await answer.text();
        if (answer.status === 503) {
          expect(JSON.parse(body)).toMatchObject({ status: 503, error: "Service unavailable" });
          return `503 retry-after ${answer.headers.get("retry-after")}`;
        }
        return String(answer.status);
      } catch (error) {
        return `reset (${String((error as { cause?: unknown }).cause ?? error)})`;
      }
    }),
  );
}

describe("the queue of jobs (Slots)", () => {
  it("refuses a job still waiting at its deadline with a 503 and Retry-After, and keeps a job running past it in its slot until it ends", async () => {
    const slots = new Slots(1, 4, () => new Error("busy"));
    let finish!: () => void;
    const running = slots.run(() => new Promise<string>((resolve) => (finish = () => resolve("done"))), {
      deadline: Date.now() + 200,
    });
    const waiting = slots.run(() => "second", { deadline: Date.now() + 50 });
    await expect(waiting).rejects.toMatchObject({ statusCode: 503, retryAfter: 5, details: PAST_DEADLINE_DETAILS });
    await expect(running).rejects.toMatchObject({ statusCode: 503, retryAfter: 5 });
    // The first job still holds the slot: the next one starts only when it ends.
    let started = false;
    const next = slots.run(() => (started = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(false);
    finish();
    await next;
    expect(started).toBe(true);
  });
});

describe("a request past its deadline", () => {
  it("is answered 503 in the Error shape with Retry-After, CORS and security headers, waiting or computing", async () => {
    const app = await api({ deadlineMs: 300 });
    // The first computes (and never ends in time), the second waits for it.
    const [computing, waiting] = await Promise.all([
      app.inject({ url: "/v1/held-for-test", headers: { origin: "https://elsewhere.example" } }),
      app.inject({ url: "/v1/held-for-test?", headers: { origin: "https://elsewhere.example" } }),
    ]);
    for (const answer of [computing, waiting]) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ error: "Service unavailable", status: 503, details: PAST_DEADLINE_DETAILS });
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("gets a 503 before its socket is closed idle, never a bare close, on both hosts", async () => {
    // A deadline past the idle limit: the socket's own net answers.
    const timeouts = { headersMs: 200, requestMs: 200, idleMs: 600, keepAliveMs: 100, deadlineMs: 60_000 };
    const apiApp = await api(timeouts);
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined, timeouts },
      catalogue: realCatalogue(),
      store: await tempStore(),
      api: apiApp,
    });
    listening.push(text);
    for (const base of [await listen(apiApp), await listen(text)]) {
      const answer = await rawRequest(base, { path: "/v1/held-for-test", timeoutMs: 10_000 });
      expect(answer, base).not.toBe("hang");
      if (answer === "hang") continue;
      expect(answer.status, base).toBe(503);
      expect(answer.headers["retry-after"], base).toBe("5");
      expect(JSON.parse(answer.body), base).toEqual({
        error: "Service unavailable",
        status: 503,
        details: PAST_DEADLINE_DETAILS,
      });
    }
  });
});

describe("eight 4 MiB uploads at once, straight to a sidecar", () => {
  // Node's request limit shortened to 6 s: an upload may wait 4 s for its turn, not 20 s, and its
  // body then has 2 s to be read (10 s at the default limit).
  const timeouts = { requestMs: 6000 };

  it("are each answered 200 or 503 with Retry-After on the API host, never 408", async () => {
    const base = await listen(await api(timeouts, ENDPOINTS));
    const body = JSON.stringify({ approvedServiceIds: ["aws-sqs"], template: largeTemplate(4 * MIB - 64 * 1024) });
    expect(body.length).toBeGreaterThan(3.9 * MIB);
    const answers = await outcomes(
      Array.from({ length: 8 }, () =>
        fetch(`${base}/v1/deployments/check`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      ),
    );
    console.log(`deadline: 8 × 4 MiB to the API host, request limit 6 s: ${answers.join(", ")}`);
    expect(answers.filter((answer) => answer === "200").length, answers.join(", ")).toBeGreaterThan(0);
    for (const answer of answers) expect(answer, answers.join(", ")).toMatch(/^(200|503 retry-after 5)$/);
  }, 60_000);

  it("are each answered 200 or 503 with Retry-After on the text host, never 408", async () => {
    const store = await tempStore();
    // The checks run in the heavy thread, as npm start runs them: on this thread they held the event
    // loop past node's 6 s limit on a loaded machine, and the waiting uploads' 503s came after its 408s.
    const pages = new HeavyWorker(workerCatalogueSource(), URLS, store);
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined, timeouts },
      catalogue: realCatalogue(),
      store,
      perMinute: 10_000,
      pageWorker: pages,
    });
    text.addHook("onClose", () => pages.close());
    listening.push(text);
    const base = await listen(text);
    const template = JSON.stringify(largeTemplate(4 * MIB - 64 * 1024));
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answer = await fetch(`${base}/deployments/check?ids=aws-sqs&color=never`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/plain" },
          body: template,
        }).catch((error: unknown) => `reset (${String((error as { cause?: unknown }).cause ?? error)})`);
        if (typeof answer === "string") return answer;
        const said = await answer.text();
        if (answer.status !== 503) return String(answer.status);
        // The text host's rendering of the same refusal.
        expect(said).toMatch(/^503 Service unavailable/);
        return `503 retry-after ${answer.headers.get("retry-after")}`;
      }),
    );
    console.log(`deadline: 8 × 4 MiB to the text host, request limit 6 s: ${answers.join(", ")}`);
    expect(answers.filter((answer) => answer === "200").length, answers.join(", ")).toBeGreaterThan(0);
    for (const answer of answers) expect(answer, answers.join(", ")).toMatch(/^(200|503 retry-after 5)$/);
  }, 60_000);
});
