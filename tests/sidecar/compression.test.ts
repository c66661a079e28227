/**
 * Computed answers compressed by @fastify/compress: the same bytes for the same query, each
 * encoding its own strong ETag (so a 304 never answers for another encoding), small answers as they are.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { build } from "../helpers/app.ts";

const compare = "/v1/compare?ids=aws-s3,gcp-cloud-storage,azure-blob-storage";

describe("compressed computed answers", () => {
  it("answers a repeated query in brotli with the same bytes, its own ETag and a 304 on it", async () => {
    const app = await build();
    const plain = await app.inject(compare);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const first = await app.inject({ url: compare, headers: { "accept-encoding": "gzip, br" } });
    const second = await app.inject({ url: compare, headers: { "accept-encoding": "br" } });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-encoding"]).toBe("br");
    expect(first.headers.vary).toMatch(/Accept-Encoding/i);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(brotliDecompressSync(first.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(first.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);
    const revalidated = await app.inject({
      url: compare,
      headers: { "accept-encoding": "br", "if-none-match": String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    // The plain answer's ETag does not revalidate the brotli one, nor the reverse.
    const other = await app.inject({
      url: compare,
      headers: { "accept-encoding": "br", "if-none-match": String(plain.headers.etag) },
    });
    expect(other.statusCode).toBe(200);
  });

  it("answers gzip when brotli is refused, and small answers as they are", async () => {
    const app = await build();
    const gz = await app.inject({ url: compare, headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString("utf8"))).toEqual((await app.inject(compare)).json());
    const small = await app.inject({
      url: "/v1/services?q=nothing-matches-this",
      headers: { "accept-encoding": "br" },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });
});
