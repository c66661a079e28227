/**
 * Issue 120: one slow uploader (a 4 MB body at 2 KB/s) held the one upload slot of a sidecar reached
 * directly, and a 100-byte check and an 835 KB check from other clients answered 503 after 20 s.
 * Now a small body is read at once, and a large one takes one of UPLOADS_AT_ONCE slots, one per
 * client, until its answer (sidecar/upload-gate.ts).
 */
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { buildApp } from "../../sidecar/app.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { UPLOADS_AT_ONCE } from "../../sidecar/upload-gate.ts";
import { PAST_DEADLINE_DETAILS } from "../../sidecar/deadline.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";

const listening: FastifyInstance[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  while (listening.length > 0) await listening.pop()!.close();
});

/** Node's request limit cut to 12 s: an upload waits 8 s at most for its turn (the slow body outlasts the test). */
const timeouts = { requestMs: 12_000 };
const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: ["127.0.0.1"], timeouts };

async function listen(app: FastifyInstance): Promise<{ host: string; port: number; base: string }> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  return { host: "127.0.0.1", port, base: `http://127.0.0.1:${port}` };
}

/**
 * A client that says it sends `length` bytes and sends them at `bytesPerSecond`, from `client`
 * (X-Forwarded-For, the server trusting loopback): the slow uploader.
 */
function slowUpload(
  port: number,
  path: string,
  client: string,
  length: number,
  bytesPerSecond: number,
): { readonly answered: () => boolean } {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  socket.on("error", () => undefined);
  let answered = false;
  socket.once("data", () => (answered = true));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nX-Forwarded-For: ${client}\r\n\r\n{"template":"`,
  );
  const chunk = "a".repeat(Math.max(1, Math.floor(bytesPerSecond / 10)));
  const timer = setInterval(() => socket.write(chunk), 100);
  socket.on("close", () => clearInterval(timer));
  return { answered: () => answered };
}

/** A CloudFormation template of about `bytes` as JSON: queues with a long description each. */
function template(bytes: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i * 2400 < Math.max(bytes, 1); i++)
    resources[`Q${i}`] = { Type: "AWS::SQS::Queue", Properties: { Tags: [{ Key: "d", Value: "x".repeat(2300) }] } };
  return { Resources: resources };
}

const small = JSON.stringify({
  template: { Resources: { Q: { Type: "AWS::SQS::Queue" } } },
  approvedServiceIds: ["aws-sqs"],
});

async function timed(send: () => Promise<Response>): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const answer = await send();
  const body = await answer.text();
  return { status: answer.status, ms: Math.round(performance.now() - started), body };
}

describe("uploads beside a slow uploader, straight to a sidecar", () => {
  it("answers another client's 100-byte and 835 KB checks at once on the API host, and holds the slow client to one slot", async () => {
    const app = await buildApp({
      config,
      catalogue: realCatalogue(),
      store: await tempStore(),
      urls: URLS,
      table: ENDPOINTS,
    });
    listening.push(app);
    const { port, base } = await listen(app);
    const check = (body: string, client: string) =>
      timed(() =>
        fetch(`${base}/v1/deployments/check`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": client },
          body,
        }),
      );
    // A first check starts a reader and indexes the catalogue's templates: not what is timed.
    expect((await check(small, "10.120.0.9")).status).toBe(200);
    // The slow uploader: 4 MB at 2 KB/s, from one address.
    const slow = slowUpload(port, "/v1/deployments/check", "10.120.0.1", 4_000_000, 2048);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(small.length).toBeLessThan(120);
    const tiny = await check(small, "10.120.0.2");
    const large = await check(
      JSON.stringify({ template: template(835_000), approvedServiceIds: ["aws-sqs"] }),
      "10.120.0.3",
    );
    // The slow client's second large upload waits for its own first: 503 after its wait (8 s here).
    const second = await check(
      JSON.stringify({ template: template(100_000), approvedServiceIds: ["aws-sqs"] }),
      "10.120.0.1",
    );
    console.log(
      `upload gate: beside a 4 MB body at 2 KB/s, a ${small.length}-byte check ${tiny.status} in ${tiny.ms} ms, an 835 KB check ${large.status} in ${large.ms} ms; the slow client's second upload ${second.status} in ${second.ms} ms`,
    );
    expect(tiny.status, tiny.body).toBe(200);
    expect(large.status, large.body).toBe(200);
    // Both answered while the slow body still arrives (holding its slot), not after it.
    expect(slow.answered()).toBe(false);
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body)).toEqual({
      status: 503,
      error: "Service unavailable",
      details: PAST_DEADLINE_DETAILS,
    });
  }, 60_000);

  it("serves a large check while slow uploaders from other addresses hold every other slot, on the text host", async () => {
    const text = await buildTextApp({
      config,
      catalogue: realCatalogue(),
      store: await tempStore(),
      urls: URLS,
      perMinute: 10_000,
    });
    listening.push(text);
    const { port, base } = await listen(text);
    const slow = Array.from({ length: UPLOADS_AT_ONCE - 1 }, (_, i) =>
      slowUpload(port, "/deployments/check?ids=aws-sqs", `10.120.1.${i + 1}`, 4_000_000, 2048),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const large = await timed(() =>
      fetch(`${base}/deployments/check?ids=aws-sqs&color=never`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/plain", "x-forwarded-for": "10.120.1.200" },
        body: JSON.stringify(template(835_000)),
      }),
    );
    console.log(
      `upload gate: text host, ${UPLOADS_AT_ONCE - 1} slow uploader(s) holding slots, an 835 KB check ${large.status} in ${large.ms} ms`,
    );
    expect(large.status, large.body.slice(0, 300)).toBe(200);
    expect(slow.some((upload) => upload.answered())).toBe(false);
  }, 60_000);
});
