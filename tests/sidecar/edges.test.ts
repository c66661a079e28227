/**
 * The edges of both hosts (decisions.md#error-shape): every request answers, in its shape, in time.
 */
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { HTTP_TIMEOUTS } from "../../sidecar/http-limits.ts";
import { buildTextApp, type SiteHandler, type TextAppOptions } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { rawRequest, socketExchange } from "../helpers/raw-http.ts";

const listening: FastifyInstance[] = [];
afterEach(async () => {
  while (listening.length > 0) await listening.pop()!.close();
});

async function listen(app: FastifyInstance): Promise<string> {
  listening.push(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

/** Like @astrojs/node: renders /lists/{id} for ids it knows and hands anything else to next(). */
const astroLike: SiteHandler = (request, response, next) => {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  if (path === "/lists/known") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<p>list</p>");
    return;
  }
  next();
};

async function textApp(options: Partial<TextAppOptions> = {}) {
  return buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: fixtureCatalogue(),
    store: await tempStore(),
    perMinute: 10_000,
    ...options,
  });
}

describe("no request hangs", () => {
  it("answers dot segments and pages the site does not know with a 404 page, GET and HEAD", async () => {
    const base = await listen(await textApp({ siteHandler: astroLike }));
    for (const path of ["/lists/..", "/lists/.", "/lists/%2e", "/lists/%2e%2e", "/lists/%2E%2e", "/lists/unknown"]) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await rawRequest(base, { method, path, headers: { accept: "text/html" }, timeoutMs: 3000 });
        expect(answer, `${method} ${path}`).not.toBe("hang");
        if (answer === "hang") continue;
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.headers["content-type"]).toMatch(/^text\/html/);
        if (method === "GET") expect(answer.body).toContain("404");
      }
    }
    const known = await rawRequest(base, { path: "/lists/known", headers: { accept: "text/html" } });
    expect(known !== "hang" && known.body).toBe("<p>list</p>");
  });

  it("answers a site handler that throws or passes an error to next() with 500", async () => {
    const base = await listen(
      await textApp({
        siteHandler: (request, _response, next) => {
          if (request.url === "/lists/throws") throw new Error("boom");
          next(new Error("failed"));
        },
      }),
    );
    for (const path of ["/lists/throws", "/lists/next-error"]) {
      const answer = await rawRequest(base, { path, headers: { accept: "text/html" }, timeoutMs: 3000 });
      expect(answer !== "hang" && answer.status, path).toBe(500);
    }
  });

  it("sets header, request, idle and keep-alive limits on both hosts", async () => {
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
    const store = await tempStore();
    const api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls: URLS });
    const text = await textApp({ store });
    listening.push(api, text);
    for (const app of [api, text]) {
      await app.ready();
      expect(app.server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
      expect(app.server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
      expect(app.server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAliveMs);
      expect(app.server.timeout).toBe(HTTP_TIMEOUTS.idleMs);
    }
  });

  it("closes a request whose headers or body never finish arriving", async () => {
    const config = {
      LOG_LEVEL: "silent" as const,
      TRUST_PROXY: undefined,
      timeouts: { headersMs: 500, requestMs: 1000, idleMs: 5000 },
    };
    const base = await listen(
      await buildApp({ config, catalogue: fixtureCatalogue(), store: await tempStore(), urls: URLS }),
    );
    const slowHeaders = await socketExchange(base, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ", 6000);
    expect(slowHeaders.closedAfterMs).not.toBe("open");
    expect(slowHeaders.closedAfterMs as number).toBeLessThan(3000);
    const slowBody = await socketExchange(
      base,
      'POST /v1/lists HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"approvedServiceIds":',
      6000,
    );
    expect(slowBody.closedAfterMs).not.toBe("open");
    expect(slowBody.closedAfterMs as number).toBeLessThan(3000);
    expect(slowBody.answer).toMatch(/^HTTP\/1\.1 408/);
    console.log(
      `edges: slow headers closed after ${Math.round(slowHeaders.closedAfterMs as number)} ms (limit 500), slow body 408 after ${Math.round(slowBody.closedAfterMs as number)} ms (limit 1000)`,
    );
  });
});
