/**
 * What caches are told: HEAD carries the GET's Content-Length; the text host varies on Accept and
 * Accept-Encoding only; the site's hashed assets are immutable; a saved list is never cacheable
 * past its expiry.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished } from "vitest";
import { BuiltFiles } from "../../sidecar/files.ts";
import { StoreUnavailableError } from "../../sidecar/store/store.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";

/** A build with a few files, listed in its manifest like scripts/build.ts does. */
const builtFiles = (files: Record<string, string | Buffer>) => BuiltFiles.open(fakeBuild(files));

const script = "console.log('app');\n".repeat(100);

describe("caching", () => {
  it("answers HEAD with the GET's Content-Length, and hashed site assets as immutable", async () => {
    const files = await builtFiles({
      "site/client/_astro/app.Bx1c9Qz3.js": script,
      "site/client/_astro/app.Bx1c9Qz3.js.gz": gzipSync(script),
      "site/client/favicon.svg": "<svg/>",
    });
    const store = await tempStore();
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      files,
    });
    onTestFinished(() => text.close());
    const api = await build({ store, files, catalogue: fixtureCatalogue() });
    for (const [app, url] of [
      [text, "/_astro/app.Bx1c9Qz3.js"],
      [text, "/favicon.svg"],
      [api, "/mirror/site/client/favicon.svg"],
    ] as const) {
      for (const encoding of ["identity", "gzip"]) {
        const get = await app.inject({ url, headers: { "accept-encoding": encoding } });
        const head = await app.inject({ method: "HEAD", url, headers: { "accept-encoding": encoding } });
        expect(get.statusCode).toBe(200);
        expect(head.statusCode).toBe(200);
        expect(head.body).toBe("");
        expect(head.headers["content-length"], `HEAD ${url} ${encoding}`).toBe(String(get.rawPayload.length));
        expect(head.headers["content-length"]).not.toBe("0");
      }
    }
    expect((await text.inject("/_astro/app.Bx1c9Qz3.js")).headers["cache-control"]).toBe(
      "public, max-age=31536000, immutable",
    );
    expect((await text.inject("/favicon.svg")).headers["cache-control"]).toBe("public, max-age=300");
  });

  it("varies text-host answers on Accept, Accept-Encoding and COLUMNS, never User-Agent", async () => {
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
    });
    onTestFinished(() => text.close());
    for (const url of ["/aws", "/aws?format=md", "/nope", "/lists/nope"])
      for (const accept of ["*/*", "text/html", "text/markdown"])
        expect((await text.inject({ url, headers: { accept } })).headers.vary, url).toBe(
          "Accept, Accept-Encoding, COLUMNS",
        );
  });

  it("never lets a saved list be cached past its expiry, nor past the moment a read would renew it", async () => {
    const store = await tempStore();
    // A store that cannot write just now: the read answers, the renewal is left to a later read.
    const readOnly = Object.create(store, {
      renewList: { value: () => Promise.reject(new StoreUnavailableError("read-only")) },
    }) as typeof store;
    let now = new Date();
    const app = await build({ store: readOnly, now: () => now });
    await store.createList({
      id: "soon-gone-id",
      slug: "soon-gone",
      name: null,
      approvedServiceIds: ["aws-s3"],
      createdAt: new Date(now.getTime() - 90 * 86_400_000 + 100_000),
      expiresAt: new Date(now.getTime() + 100_000),
    });
    const first = await app.inject("/v1/lists/soon-gone");
    expect(first.statusCode).toBe(200);
    expect(first.json().expiresAt).toBe(new Date(now.getTime() + 100_000).toISOString());
    expect(first.headers["cache-control"]).toBe("no-store");
    // Renewed by a read on a store that writes: cached 5 minutes, well before its new expiry.
    const renewing = await build({ store, now: () => now });
    const renewed = await renewing.inject("/v1/lists/soon-gone");
    expect(renewed.json().expiresAt).toBe(new Date(now.getTime() + 90 * 86_400_000).toISOString());
    expect(renewed.headers["cache-control"]).toBe("public, max-age=300");
    now = new Date(now.getTime() + 99_500);
    expect((await app.inject("/v1/lists/soon-gone")).statusCode).toBe(200);
  });
});
