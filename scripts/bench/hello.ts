/**
 * The benchmark baseline: a bare Fastify hello world on PORT (GET /). POST /post is the bound of
 * the POST rows: what Fastify itself costs for such a request — a JSON body parsed, the client
 * found behind a trusted proxy as the POST rows' server finds it — answered with 1 KiB of JSON.
 */
import Fastify from "fastify";

const POST_ANSWER = Buffer.from(JSON.stringify({ answer: "x".repeat(1013) }));

const app = Fastify({ trustProxy: ["127.0.0.1"] });
app.get("/", async () => ({ hello: "world" }));
app.post("/post", async (request, reply) => {
  if (!request.ip || typeof request.body !== "object") return reply.code(400).send();
  return reply.type("application/json; charset=utf-8").send(POST_ANSWER);
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
