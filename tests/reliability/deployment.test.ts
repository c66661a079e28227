/**
 * What a deployment must not leak or impose: /mirror/ publishes no server bundle; HSTS and
 * upgrade-insecure-requests only when the public URL is https (over plain http they break a LAN
 * deployment or a mirror).
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";

const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };

describe("deployment", () => {
  it("publishes no server bundle under /mirror/, even one listed in the manifest", async () => {
    const dir = fakeBuild({
      "site/server/entry.mjs": "import '/home/builder/project/x.mjs';",
      "site/server/chunks/page.mjs": "export {}",
      "site/client/favicon.svg": "<svg/>",
    });
    const api = await buildApp({
      config,
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
      urls: { apiUrl: "http://api.test", textUrl: "http://text.test" },
      files: await BuiltFiles.open(dir),
    });
    onTestFinished(() => api.close());
    for (const path of ["site/server/entry.mjs", "site/server/chunks/page.mjs", "site%2Fserver/entry.mjs"]) {
      const response = await api.inject(`/mirror/${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain("/home/builder");
    }
    expect((await api.inject("/mirror/site/client/favicon.svg")).statusCode).toBe(200);
  });

  for (const scheme of ["http", "https"] as const) {
    it(`sends HSTS and upgrade-insecure-requests ${scheme === "https" ? "when" : "only when"} the public URL is https (${scheme})`, async () => {
      const urls = { apiUrl: `${scheme}://api.example`, textUrl: `${scheme}://text.example` };
      const store = await tempStore();
      const api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls });
      onTestFinished(() => api.close());
      const text = await buildTextApp({ config, catalogue: fixtureCatalogue(), store, urls });
      onTestFinished(() => text.close());
      for (const response of [
        await api.inject("/v1/providers"),
        await text.inject({ url: "/aws", headers: { accept: "text/html" } }),
      ]) {
        if (scheme === "https") {
          expect(response.headers["strict-transport-security"]).toMatch(/max-age=/);
          expect(response.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
        } else {
          expect(response.headers["strict-transport-security"]).toBeUndefined();
          expect(response.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
          expect(response.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
        }
      }
    });
  }
});
