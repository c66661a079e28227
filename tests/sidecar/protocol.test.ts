/**
 * HTTP/1.1 as clients write it on a socket (decisions.md#bounded-memory): a stalled body gets its 408 in
 * the Error shape before the socket closes, CONNECT gets an answer, pipelined requests are answered
 * in order, and one connection cannot have more than PIPELINE_ACTIVE of them in progress.
 */
import { connect } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { limitPipelining, PIPELINE_ACTIVE, PIPELINE_WAITING } from "../../sidecar/http-limits.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { socketExchange } from "../helpers/raw-http.ts";

const listening: FastifyInstance[] = [];
afterEach(async () => {
  while (listening.length > 0) await listening.pop()!.close();
});

async function listen(app: FastifyInstance): Promise<string> {
  listening.push(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };

async function api(timeouts?: { headersMs: number; requestMs: number; idleMs: number }) {
  return listen(
    await buildApp({
      config: { ...config, ...(timeouts ? { timeouts } : {}) },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
      urls: URLS,
    }),
  );
}

/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

/** Writes `requests` on one socket, reads until the server closes it, and splits the answers. */
function pipeline(base: string, requests: string): Promise<string[]> {
  const socket = connect(Number(new URL(base).port), "127.0.0.1");
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () =>
      resolve(
        Buffer.concat(chunks)
          .toString("utf8")
          .split(/(?=HTTP\/1\.1 \d{3} )/),
      ),
    );
    socket.on("error", reject);
    socket.write(requests);
  });
}

describe("a request body that stops arriving", () => {
  it("gets 408 in the Error shape before the socket closes, with the idle limit no longer than the request limit", async () => {
    // The defaults had both at 30 s, and the idle limit closed the socket first, unanswered.
    const base = await api({ headersMs: 500, requestMs: 1000, idleMs: 1000 });
    const stalled = await socketExchange(
      base,
      'POST /v1/lists HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"approvedServiceIds":',
      8000,
    );
    expect(stalled.closedAfterMs).not.toBe("open");
    expect(stalled.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(stalled.answer).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(bodyOf(stalled.answer)).toEqual({
      error: "Request timeout",
      status: 408,
      details: expect.any(String) as string,
    });
  });
});

describe("CONNECT", () => {
  it("is answered 405 with Allow, in the Error shape on the API host and as text on the text host", async () => {
    const head = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n";
    const fromApi = await socketExchange(await api(), head, 3000);
    expect(fromApi.closedAfterMs).not.toBe("open");
    expect(fromApi.answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(fromApi.answer).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);
    expect(bodyOf(fromApi.answer)).toMatchObject({ error: "Method not allowed", status: 405 });
    const text = await listen(await buildTextApp({ config, catalogue: fixtureCatalogue(), store: await tempStore() }));
    const fromText = await socketExchange(text, head, 3000);
    expect(fromText.answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(fromText.answer).toMatch(/\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
    expect(fromText.answer).toContain("405 Method not allowed");
    // The API's paths on the text host: the API's Error shape.
    const onApiPath = await socketExchange(text, "CONNECT /v1/providers HTTP/1.1\r\nHost: x\r\n\r\n", 3000);
    expect(onApiPath.answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(bodyOf(onApiPath.answer)).toMatchObject({ error: "Method not allowed", status: 405 });
  });
});

describe("pipelined requests", () => {
  it("are answered in the order they were sent", async () => {
    const base = await api();
    const slug = fixtureCatalogue().services[1]!.slug;
    const paths = [`/v1/services/${slug}`, "/v1/providers", "/v1/nowhere", `/v1/services/${slug}`];
    const answers = await pipeline(
      base,
      paths
        .map(
          (path, i) =>
            `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? "Connection: close\r\n" : ""}\r\n`,
        )
        .join(""),
    );
    expect(answers.map((answer) => Number(answer.slice(9, 12)))).toEqual([200, 200, 404, 200]);
    expect(answers[0]).toContain(`"slug":"${slug}"`);
    expect(answers[1]).toContain(`"id":"${fixtureCatalogue().providers[0]!.id}"`);
    expect(answers[2]).toContain("/v1/nowhere");
  });

  it(`run ${PIPELINE_ACTIVE} at a time on one connection, ${PIPELINE_WAITING} more wait, and any beyond get 503 and the connection closes`, async () => {
    const app = Fastify();
    limitPipelining(app, (_request, reply) => reply.code(503).send({ error: "Service unavailable", status: 503 }));
    let inProgress = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get("/slow", async () => {
      most = Math.max(most, ++inProgress);
      await gate;
      inProgress--;
      return { ok: true };
    });
    const base = await listen(app);
    const beyond = 20;
    const sent = PIPELINE_ACTIVE + PIPELINE_WAITING + beyond;
    const answering = pipeline(base, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".repeat(sent));
    // Every request is read and handed over before the gate opens.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inProgress).toBe(PIPELINE_ACTIVE);
    release();
    const answers = await answering;
    expect(most).toBe(PIPELINE_ACTIVE);
    const statuses = answers.map((answer) => Number(answer.slice(9, 12)));
    // In order: those in progress or waiting, then the first one past the cap, which closes the connection.
    expect(statuses).toEqual([...Array<number>(PIPELINE_ACTIVE + PIPELINE_WAITING).fill(200), 503]);
    expect(answers.at(-1)).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(answers.at(-1)!)).toMatchObject({ status: 503 });
  });
});

describe("past the pipelining cap (decisions.md#bounded-memory)", () => {
  it("a client that reads gets every answer and the 503 in the Error shape, then the close, never a reset", async () => {
    // 4,000 pipelined /v1/health used to get 114 answers, then ECONNRESET: the server closed with
    // requests unread, so the kernel reset the connection and dropped the answers already sent.
    const base = await api();
    const socket = connect(Number(new URL(base).port), "127.0.0.1");
    const chunks: Buffer[] = [];
    const ended = new Promise<string | undefined>((resolve) => {
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code));
      socket.on("close", () => resolve(undefined));
    });
    socket.write("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".repeat(4000));
    const error = await ended;
    const answers = Buffer.concat(chunks)
      .toString("utf8")
      .split(/(?=HTTP\/1\.1 \d{3} )/);
    const statuses = answers.map((answer) => Number(answer.slice(9, 12)));
    expect(error).toBeUndefined();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(
      PIPELINE_ACTIVE + PIPELINE_WAITING,
    );
    expect(statuses.at(-1)).toBe(503);
    expect(statuses.filter((status) => status !== 200)).toEqual([503]);
    expect(answers.at(-1)).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(answers.at(-1)!)).toMatchObject({ error: "Service unavailable", status: 503 });
  });
});

describe("requests that arrived and wait their turn (decisions.md#bounded-memory)", () => {
  // 200 answers of 235 KB read back through one socket: 12 s on a busy machine, over 30 s under CI's load.
  it(
    "are not cut off by the header limit while the client is slow to read the answers before them",
    { timeout: 90_000 },
    async () => {
      // A client that pipelined reads and read nothing got a 408 after the header limit, though its
      // requests had all arrived: node counts the one it has begun to parse while answers are pending.
      const base = await api({ headersMs: 500, requestMs: 1000, idleMs: 4000 });
      const socket = connect(Number(new URL(base).port), "127.0.0.1");
      socket.on("error", () => undefined);
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.pause();
      const reads = 200;
      socket.write("GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(reads) + "GET /v1/health HTTP/1.1\r\nHo");
      // Past the header and request limits, reading nothing.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await new Promise((resolve) => socket.once("close", resolve));
      const statuses = [
        ...Buffer.concat(chunks)
          .toString("latin1")
          .matchAll(/HTTP\/1\.1 (\d{3}) /g),
      ].map((m) => Number(m[1]));
      expect(statuses.slice(0, reads)).toEqual(Array<number>(reads).fill(200));
    },
  );
});
