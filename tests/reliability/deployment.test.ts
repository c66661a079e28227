/**
 * What a deployment must not leak or impose: /mirror/ publishes no server bundle; HSTS and
 * upgrade-insecure-requests only when the public URL is https (over plain http they break a LAN
 * deployment or a mirror).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { buildTextApp } from "../../sidecar/text.ts";
import { fixtureCatalogue, tempStore } from "../helpers/app.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };

describe("deployment", () => {
  it("publishes no server bundle under /mirror/, even one listed in the manifest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-dist-"));
    dirs.push(dir);
    const files: Record<string, string> = {
      "site/server/entry.mjs": "import '/home/builder/project/x.mjs';",
      "site/server/chunks/page.mjs": "export {}",
      "site/client/favicon.svg": "<svg/>",
    };
    const listed = Object.entries(files).map(([path, body]) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), body);
      return { path, sha256: createHash("sha256").update(body).digest("hex"), size: body.length };
    });
    mkdirSync(join(dir, "api"), { recursive: true });
    writeFileSync(join(dir, "api", "manifest.json"), JSON.stringify({ version: 1, files: listed }));
    const api = await buildApp({
      config,
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
      urls: { apiUrl: "http://api.test", textUrl: "http://text.test" },
      files: await BuiltFiles.open(dir),
    });
    for (const path of ["site/server/entry.mjs", "site/server/chunks/page.mjs", "site%2Fserver/entry.mjs"]) {
      const response = await api.inject(`/mirror/${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain("/home/builder");
    }
    expect((await api.inject("/mirror/site/client/favicon.svg")).statusCode).toBe(200);
    await api.close();
  });

  for (const scheme of ["http", "https"] as const) {
    it(`sends HSTS and upgrade-insecure-requests ${scheme === "https" ? "when" : "only when"} the public URL is https (${scheme})`, async () => {
      const urls = { apiUrl: `${scheme}://api.example`, textUrl: `${scheme}://text.example` };
      const store = await tempStore();
      const api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls });
      const text = await buildTextApp({ config, catalogue: fixtureCatalogue(), store, urls });
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
      await api.close();
      await text.close();
    });
  }
});
