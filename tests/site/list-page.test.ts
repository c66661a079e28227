/**
 * The site's on-demand list page as the text host serves it: the standard status line, the API
 * link of the running deployment (not the build machine's default), a hostile name stripped of
 * control and bidi characters in its title and heading, and the read renewing the list.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { fixtureCatalogue } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";
import { rawRequest } from "../helpers/raw-http.ts";

const PUBLIC_API = "https://api.catalogue.example";
// eslint-disable-next-line no-control-regex -- what must never come through
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("the site's list page on the text host", () => {
  let dist: string;
  let data: string;
  let store: EmbeddedStore;
  let text: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), "csc-list-page-data-"));
    // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
    dist = await fixtureBuild({ apiUrl: "http://127.0.0.1:1", textUrl: "http://127.0.0.1:2" });
    store = await EmbeddedStore.open(data);
    const now = new Date();
    await store.createList({
      id: "hostile-list-id",
      slug: "hostile",
      name: "Tea\u001b[31m\u0007 \u202eevil\u202c\u2066x\u2069\u009b list",
      approvedServiceIds: ["aws-s3"],
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const siteHandler = await loadSiteHandler(dist);
    text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      urls: { apiUrl: PUBLIC_API, textUrl: "http://127.0.0.1:2" },
      ...(siteHandler ? { siteHandler } : {}),
    });
    await text.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(text.server.address() as { port: number }).port}`;
  }, 240_000);
  afterAll(async () => {
    await text?.close();
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("answers an unknown list with 404 Not Found, not 404 OK", async () => {
    const answer = await rawRequest(base, { path: "/lists/no-such-list", headers: { accept: "text/html" } });
    if (answer === "hang") throw new Error("hang");
    expect(answer.status).toBe(404);
    expect(answer.statusMessage).toBe("Not Found");
  });

  it("links the deployment's public API URL and strips control characters from the name", async () => {
    const answer = await rawRequest(base, { path: "/lists/hostile", headers: { accept: "text/html" } });
    if (answer === "hang") throw new Error("hang");
    expect(answer.status).toBe(200);
    expect(answer.statusMessage).toBe("OK");
    expect(answer.body).toContain(`href="${PUBLIC_API}/openapi.json"`);
    expect(answer.body).not.toContain("127.0.0.1:8080");
    expect(answer.body).toMatch(/<title>[^<]*evil/);
    expect(answer.body).toMatch(/<h1[^>]*>[^<]*evil/);
    expect(answer.body).not.toMatch(FORBIDDEN);
  });

  it("renews the list it shows (decisions.md#list-renewal) and shows the new expiry", async () => {
    const before = Date.now();
    const answer = await rawRequest(base, { path: "/lists/hostile", headers: { accept: "text/html" } });
    if (answer === "hang") throw new Error("hang");
    expect(answer.status).toBe(200);
    const expiresAt = (await store.getList("hostile", new Date()))!.expiresAt;
    // Saved with a day to live; read here (and by the test before), it lives 90 days from the first read.
    expect(Date.parse(expiresAt)).toBeGreaterThan(before + 89 * 86_400_000);
    expect(answer.body).toContain(`expires ${expiresAt.slice(0, 10)} (90 days after it is last read)`);
  });
});
