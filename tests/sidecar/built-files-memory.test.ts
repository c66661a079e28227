import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { BuiltFiles, MEMORY_FILE_BYTES } from "../../sidecar/files.ts";

const BUILT_URL = "http://localhost:8080";
const dir = mkdtempSync(join(tmpdir(), "csc-built-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** dist/<path> and its .br sibling written, with the manifest's hashes and sizes of both. */
function write(files: Record<string, string>) {
  const hashes = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const [path, text] of Object.entries(files))
    for (const [name, bytes] of [
      [path, Buffer.from(text)],
      [`${path}.br`, brotliCompressSync(text)],
    ] as const) {
      writeFileSync(join(dir, name), bytes);
      hashes.set(name, createHash("sha256").update(bytes).digest("hex").slice(0, 32));
      sizes.set(name, bytes.length);
    }
  return { hashes, sizes };
}

describe("the cache of small built files, served at other URLs than the build's", () => {
  it("holds a large file's small compressed sibling, never its identity text, once it names none of the URLs", async () => {
    // Like catalogue.json: megabytes of JSON naming none of the build's URLs, compressing well.
    const large = JSON.stringify({ services: Array.from({ length: 60_000 }, (_, i) => ({ slug: `service-${i}` })) });
    const small = JSON.stringify({ self: `${BUILT_URL}/v1/providers` });
    const { hashes, sizes } = write({ "large.json": large, "small.json": small });
    expect(sizes.get("large.json")).toBeGreaterThan(MEMORY_FILE_BYTES);
    expect(sizes.get("large.json.br")).toBeLessThan(MEMORY_FILE_BYTES);
    const files = new BuiltFiles(dir, hashes, [[BUILT_URL, "http://localhost:18080"]], sizes);
    const app = Fastify();
    await files.register(app);
    app.get<{ Params: { "*": string } }>("/*", async (request, reply) => {
      await files.send(request, reply, request.params["*"]);
      return reply;
    });

    const largeBr = await app.inject({ url: "/large.json", headers: { "accept-encoding": "br" } });
    expect(largeBr.statusCode).toBe(200);
    expect(largeBr.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(largeBr.rawPayload).toString()).toBe(large);
    expect(files.heldBytes).toBeLessThan(MEMORY_FILE_BYTES);
    // The small sibling itself is held: gone from disk, it is still answered.
    rmSync(join(dir, "large.json.br"));
    const again = await app.inject({ url: "/large.json", headers: { "accept-encoding": "br" } });
    expect(again.rawPayload.equals(largeBr.rawPayload)).toBe(true);

    // A small file naming the build's URL is still held, rewritten, and compressed from that text.
    const smallBr = await app.inject({ url: "/small.json", headers: { "accept-encoding": "br" } });
    expect(brotliDecompressSync(smallBr.rawPayload).toString()).toBe(
      small.replace(BUILT_URL, "http://localhost:18080"),
    );
    expect(files.heldBytes).toBeGreaterThan(0);
    await app.close();
  });
});
