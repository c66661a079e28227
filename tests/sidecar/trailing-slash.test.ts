/**
 * Issue 101: `GET /v1/services/` with a trailing slash, refused or documented? Documented
 * (docs/api.md, "Requests the hosts refuse before routing"): it answers as the path without it,
 * the same body, ETag and caching, so a cache or client holding either gets one answer.
 */
import { describe, expect, it } from "vitest";
import { build } from "../helpers/app.ts";

describe("a trailing slash", () => {
  for (const path of ["/v1/services", "/v1/services/aws-s3", "/v1/providers", "/v1/services?page=2"])
    it(`answers ${path.replace(/(\?|$)/, "/$1")} as ${path}`, async () => {
      const app = await build();
      const plain = await app.inject(path);
      const slashed = await app.inject(path.replace(/(\?|$)/, "/$1"));
      expect(plain.statusCode).toBe(200);
      expect(slashed.statusCode).toBe(200);
      expect(slashed.headers.etag).toBe(plain.headers.etag);
      expect(slashed.headers["cache-control"]).toBe(plain.headers["cache-control"]);
      expect(slashed.body).toBe(plain.body);
    });
});
