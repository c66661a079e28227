/**
 * The reference of the dynamic rows beside bare hello world: the API host's own plugin stack
 * (sidecar/app.ts apiStack: access log, time limits, Host check, pipelining cap, the Error shape,
 * security headers, CORS, compression) answering GET / with a kept body of about 3 KB in brotli,
 * its ETag and Cache-Control set as a kept answer's are. A row's distance from it is the work of
 * the project's own route (parsing, cache key, ...); its distance from hello world, the stack's.
 * Listens on PORT with `npm start`'s defaults (LOG_LEVEL info: one access line a request).
 */
import { createHash } from "node:crypto";
import { constants as zlib, brotliCompressSync } from "node:zlib";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { apiStack } from "../../sidecar/app.ts";
import { loadConfig } from "../../sidecar/config.ts";
import { etagMatches, etagOf, READ_CACHE_CONTROL } from "../../sidecar/files.ts";

const KEPT_BROTLI_BYTES = 3 * 1024;

/** Services of the catalogue as JSON, as many as make about KEPT_BROTLI_BYTES of brotli. */
function keptBody(): { identity: Buffer; br: Buffer } {
  const services = loadCatalogue().services;
  for (let count = 1; ; count++) {
    const identity = Buffer.from(JSON.stringify({ data: services.slice(0, count) }));
    const br = brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } });
    if (br.length >= KEPT_BROTLI_BYTES || count >= services.length) return { identity, br };
  }
}

const { br, identity } = keptBody();
const etag = etagOf(createHash("sha256").update(identity).digest("hex").slice(0, 32), "br");
const config = loadConfig(process.env);
const app = await apiStack(config, { https: false });
app.get("/", async (request, reply) => {
  reply.type("application/json; charset=utf-8").header("cache-control", READ_CACHE_CONTROL).header("etag", etag);
  if (etagMatches(request.headers["if-none-match"], etag)) return reply.code(304).send();
  return reply.header("content-encoding", "br").header("vary", "Accept-Encoding").send(br);
});
await app.listen({ port: config.PORT, host: "127.0.0.1" });
