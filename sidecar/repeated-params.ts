/**
 * One rule for a query parameter given more than once, on both hosts: it is a 400 naming it
 * ("given more than once"), whichever endpoint or page was asked — before, the API took the first
 * value on some endpoints and answered "NaN" or "received array" on others. The only exceptions are
 * the text host's list parameters that its HTML forms send once per ticked checkbox (`repeatable`),
 * whose values are joined as if comma-separated.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** The first parameter of the URL's query named more than once (not one of `repeatable`), if any. */
export function repeatedParameter(url: string, repeatable: ReadonlySet<string> = new Set()): string | undefined {
  const start = url.indexOf("?");
  if (start < 0) return undefined;
  const seen = new Set<string>();
  // URLSearchParams drops one leading "?" of the query ("??a" names a).
  const query = url.slice(url[start + 1] === "?" ? start + 2 : start + 1);
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const raw = equals < 0 ? pair : pair.slice(0, equals);
    // Only an encoded name needs URLSearchParams' decoding (and its leniency with bad escapes); the
    // "&" keeps it from dropping a leading "?" as it does at the start of a query.
    const name = raw.includes("%") || raw.includes("+") ? [...new URLSearchParams(`&${raw}=`).keys()][0]! : raw;
    if (repeatable.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

export const repeatedDetails = (name: string) =>
  `The query parameter "${name.slice(0, 40)}" is given more than once; give each parameter once (a list as one comma-separated value, e.g. ?ids=a,b).`;

/** Refuses a request whose query repeats a parameter, through `reject` (the host's error format). */
export function refuseRepeatedParameters(
  app: FastifyInstance,
  reject: (request: FastifyRequest, reply: FastifyReply, details: string) => unknown,
  repeatable?: ReadonlySet<string>,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    const name = request.url.includes("?") ? repeatedParameter(request.url, repeatable) : undefined;
    if (name === undefined) return done();
    void reject(request, reply, repeatedDetails(name));
  });
}
