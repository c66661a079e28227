/**
 * Security properties: hardening headers and a CSP on HTML, CORS/CORP on the API, user text never
 * rendered raw (HTML, Markdown) nor with control characters (ANSI), path traversal answered 404,
 * an oversized q answered promptly, unguessable list ids.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { renderAnsi } from "../../catalogue/format/ansi.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { savedListPage } from "../../catalogue/render/pages.ts";
import { newListId } from "../../catalogue/lists/lists.node.ts";
import { buildTextApp, type TextAppOptions } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";

const XSS = `<script>alert(1)</script><img src=x onerror=alert(2)>[x](javascript:alert(3))`;
const CONTROL = "\u001b[31mred\u001b[0m\u0007\u009b2J";

async function textApp(options: Partial<Pick<TextAppOptions, "store" | "siteHandler">> = {}) {
  return buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: fixtureCatalogue(),
    ...options,
    store: options.store ?? (await tempStore()),
  });
}

describe("security", () => {
  it("sends hardening headers on the API, usable cross-origin", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject("/v1/providers");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    // The test URLs are http: no HSTS (tests/reliability/deployment.test.ts has both cases).
    expect(response.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends a CSP and hardening headers on the text host's HTML", async () => {
    const text = await textApp();
    onTestFinished(() => text.close());
    const response = await text.inject({ url: "/aws", headers: { accept: "text/html" } });
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    expect(response.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(response.headers["x-frame-options"]).toBeDefined();
  });

  it("sends the same headers on the site's on-demand list page", async () => {
    const text = await textApp({
      siteHandler: async (_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end("<p>list</p>");
      },
    });
    onTestFinished(() => text.close());
    const response = await text.inject({ url: "/lists/some-list", headers: { accept: "text/html" } });
    expect(response.body).toBe("<p>list</p>");
    expect(response.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(response.headers["x-frame-options"]).toBeDefined();
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("never renders a list name raw in Markdown or HTML, nor its control characters in ANSI", async () => {
    const catalogue = fixtureCatalogue();
    const list = {
      id: "x",
      slug: null,
      name: `${XSS}${CONTROL}`,
      approvedServiceIds: ["aws-s3"],
      expiresAt: "2027-01-01T00:00:00.000Z",
    };
    const doc = savedListPage(catalogue, list);
    const markdown = renderMarkdown(doc);
    expect(markdown).not.toContain("<script>");
    expect(markdown).not.toContain("<img");
    // Brackets arrive escaped (\[x\]), so no link can form.
    expect(markdown).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(markdown).toContain("&lt;script&gt;");
    for (const color of [true, false]) {
      const ansi = renderAnsi(doc, color);
      // Our own colour codes are SGR sequences we emit; none of the name's may survive.
      expect(ansi).not.toContain("\u001b[31mred");
      expect(ansi).not.toContain("\u0007");
      expect(ansi).not.toContain("\u009b");
    }
  });

  it("escapes a hostile list name on the text host in every rendering", async () => {
    const store = await tempStore();
    const app = await build({ catalogue: fixtureCatalogue(), store });
    const created = await app.inject({
      method: "POST",
      url: "/v1/lists",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ name: `${XSS}${CONTROL}`, approvedServiceIds: ["aws-s3"] }),
    });
    const { id } = created.json() as { id: string };
    const text = await textApp({ store });
    onTestFinished(() => text.close());
    for (const accept of ["text/html", "text/markdown"]) {
      const response = await text.inject({ url: `/lists/${id}`, headers: { accept } });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain("<script>alert(1)");
      expect(response.body).not.toContain("<img src=x");
    }
    // ANSI is plain text (no markup to inject); what matters is that no control character survives.
    for (const url of [`/lists/${id}`, `/lists/${id}?color=never`]) {
      const ansi = (await text.inject({ url, headers: { "user-agent": "curl/8" } })).body;
      expect(ansi).not.toContain("\u001b[31mred");
      expect(ansi).not.toContain("\u0007");
      expect(ansi).not.toContain("\u009b");
    }
  });

  it("answers path traversal on API and text paths with 404", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const text = await textApp();
    onTestFinished(() => text.close());
    for (const url of [
      "/../package.json",
      "/%2e%2e/package.json",
      "/v1/services/..%2f..%2fpackage.json",
      "/v1/services/%2e%2e%2fetc%2fpasswd",
      "/mirror/..%2fpackage.json",
    ]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ status: 404 });
    }
    for (const url of [
      "/../package.json",
      "/%2e%2e/package.json",
      "/aws/..%2f..%2fpackage.json",
      "/_astro/..%2f..%2fpackage.json",
      "/aws%2fs3",
    ]) {
      const response = await text.inject({ url, headers: { "user-agent": "curl/8" } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers["content-type"], url).toBe("text/plain; charset=utf-8");
    }
  });

  it("answers a 5,000-character q by its distinct words: repeats cost nothing, a word that matches nothing ends the search", async () => {
    const app = await build();
    const query = async (q: string) => (await app.inject(`/v1/services?q=${encodeURIComponent(q)}`)).json();
    const once = await query("storage");
    expect(once.pagination.total).toBeGreaterThan(0);
    expect(await query("storage ".repeat(625))).toEqual(once);
    const random = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join("");
    expect((await query(random)).pagination.total).toBe(0);
    const manyWords = Array.from({ length: 1000 }, (_, i) => `zz${i.toString(36)}`).join(" ");
    expect((await query(manyWords)).pagination.total).toBe(0);
  });

  it("issues list ids with at least 120 bits of randomness", () => {
    const ids = [...new Set(Array.from({ length: 10_000 }, () => newListId()))];
    expect(ids).toHaveLength(10_000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    // Every one of the 64 symbols turns up at every position, so each position carries 6 bits: 21 × 6 = 126.
    for (let position = 0; position < 21; position++)
      expect(new Set(ids.map((id) => id[position])).size, `position ${position}`).toBe(64);
  });
});
