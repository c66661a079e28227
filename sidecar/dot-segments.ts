/**
 * Dot segments ("." and ".."), refused on both hosts before any handler runs. A URL parser resolves
 * them (`/v1/%2e%2e/catalogue.json` is `/catalogue.json` to WHATWG's URL and to nginx), so a path
 * that names one place under /v1/ could be served from another. Browsers and curl resolve them
 * before sending; a request that still has one was written to climb, and gets a 404 (nothing is
 * at such a path), saying why.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { splitRequestUrl } from "./files.ts";

export const DOT_SEGMENT_DETAILS =
  'Nothing is served at a path with a "." or ".." segment (percent-encoded or not); ask for the resource at its own path.';

/** `%2e`, `%2f`, `%5c` and `%25` decoded, again while that changes the path (a double encoding). */
function decodedSeparatorsAndDots(path: string): string {
  let decoded = path;
  for (let round = 0; round < 4; round++) {
    const next = decoded.replace(/%(2e|2f|5c|25)/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

/** Whether a request URL's path has a dot segment, encoded or not, with / or \ (also encoded) as separators. */
export function hasDotSegment(url: string): boolean {
  const { pathname } = splitRequestUrl(url);
  if (!/\.|%2e/i.test(pathname)) return false;
  return decodedSeparatorsAndDots(pathname)
    .split(/[/\\]/)
    .some((segment) => segment === "." || segment === "..");
}

/** Refuses a request whose path has a dot segment; `reject` answers it in the host's error format. */
export function refuseDotSegments(
  app: FastifyInstance,
  reject: (request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    if (!hasDotSegment(request.raw.url ?? "")) return done();
    void reject(request, reply);
  });
}
