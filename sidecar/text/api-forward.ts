/**
 * The text host answers /v1/* through the API app, in-process: the site's interactive parts call
 * their API same-origin, so a mirror or a deployment on other hosts needs no baked API URL and no
 * cross-origin setup. The API's own buckets limit it; the text host's limit does not count it.
 */
import type { FastifyInstance } from "fastify";
import { MAX_BODY_BYTES } from "../../catalogue/limits.ts";

export function forwardApi(api: FastifyInstance) {
  return async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY_BYTES + 1 }, (_request, body, done) =>
      done(null, body),
    );
    scope.all("/v1/*", { config: { rateLimit: false } }, async (request, reply) => {
      const headers = { ...request.headers };
      delete headers["content-length"];
      const response = await api.inject({
        method: request.method as "GET",
        url: request.url,
        headers,
        remoteAddress: request.ip,
        ...(request.body ? { payload: request.body as Buffer } : {}),
      });
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined && !["content-length", "transfer-encoding", "connection"].includes(name))
          reply.header(name, value);
      }
      return reply.code(response.statusCode).send(response.rawPayload);
    });
  };
}
