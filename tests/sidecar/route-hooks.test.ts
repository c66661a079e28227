import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { onRequestOfRoutes } from "../../sidecar/route-hooks.ts";

describe("a hook put on some routes alone", () => {
  it("runs on the routes it applies to, before their own onRequest hooks, and on no other", async () => {
    const app = Fastify();
    const ran: string[] = [];
    onRequestOfRoutes(
      app,
      (route) => route.url === "/guarded",
      (request, _reply, done) => {
        ran.push(`guard ${request.url}`);
        done();
      },
    );
    const own = (_request: unknown, _reply: unknown, done: () => void) => {
      ran.push("own");
      done();
    };
    app.get("/guarded", { onRequest: own }, () => "guarded");
    app.get("/open", { onRequest: own }, () => "open");
    await app.register(async (child) => {
      child.get("/guarded/child", () => "child");
    });

    expect((await app.inject({ url: "/guarded" })).body).toBe("guarded");
    expect((await app.inject({ url: "/open" })).body).toBe("open");
    expect((await app.inject({ url: "/guarded/child" })).body).toBe("child");
    expect((await app.inject({ url: "/missing" })).statusCode).toBe(404);
    expect(ran).toEqual(["guard /guarded", "own", "own"]);
  });

  it("can refuse a request before the route's handler runs", async () => {
    const app = Fastify();
    onRequestOfRoutes(
      app,
      (route) => route.url === "/mcp",
      (_request, reply) => void reply.code(403).send({ error: "Forbidden", status: 403 }),
    );
    let handled = 0;
    app.post("/mcp", () => ++handled);
    app.get("/v1/health", () => ({ ok: true }));
    expect((await app.inject({ method: "POST", url: "/mcp" })).statusCode).toBe(403);
    expect((await app.inject({ url: "/v1/health" })).statusCode).toBe(200);
    expect(handled).toBe(0);
  });
});
