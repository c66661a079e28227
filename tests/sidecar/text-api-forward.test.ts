/**
 * The text host's /v1/ is the API host's: the request goes unread to the API app's own handler, so
 * it is counted in the API's buckets (one count per client whichever host it came through, the
 * client read from X-Forwarded-For under TRUST_PROXY as the API reads it) and answered with the
 * API's compression and headers, not built whole and copied (an inject did that).
 */
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { BUCKETS } from "../../catalogue/base/limits.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";

const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

describe("the text host's /v1/", () => {
  let text: FastifyInstance | undefined;
  afterEach(async () => {
    await text?.close();
    text = undefined;
  });

  async function hosts() {
    const store = await tempStore();
    const catalogue = fixtureCatalogue();
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: ["127.0.0.1"] };
    const api = await build({ catalogue, store, config });
    text = await buildTextApp({ config, catalogue, store, api, perMinute: 10_000 });
    await api.listen({ port: 0, host: "127.0.0.1" });
    await text.listen({ port: 0, host: "127.0.0.1" });
    return { api: base(api), text: base(text) };
  }

  it("counts in the API's buckets, per client as the API reads it, whichever host the request came through", async () => {
    const { api, text } = await hosts();
    const exportFrom = (host: string, client: string) =>
      fetch(`${host}/v1/export/markdown`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": client },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      });
    const statuses: number[] = [];
    // Half through each host: one strict bucket of ten.
    for (let i = 0; i < BUCKETS.strict.max; i++)
      statuses.push((await exportFrom(i % 2 === 0 ? text : api, "198.51.100.7")).status);
    expect(statuses).toEqual(Array<number>(BUCKETS.strict.max).fill(200));
    const limited = await exportFrom(text, "198.51.100.7");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ status: 429, error: "Too many requests" });
    expect((await exportFrom(api, "198.51.100.7")).status).toBe(429);
    // Another client has its own ten, on the text host too.
    expect((await exportFrom(text, "198.51.100.8")).status).toBe(200);
  });

  it("reads the path decoded, as the router does: a percent-encoded spelling is the same path and bucket", async () => {
    const { api, text } = await hosts();
    for (const host of [api, text]) {
      const encoded = await fetch(`${host}/%761/provid%65rs`);
      expect(encoded.status, host).toBe(200);
      expect(encoded.headers.get("content-type")).toMatch(/^application\/json/);
      // Paths are case-sensitive: /V1/ is no path of either host.
      expect((await fetch(`${host}/V1/providers`)).status, host).toBe(404);
    }
    const exportAs = (host: string, path: string) =>
      fetch(`${host}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.9" },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      });
    const spellings = ["/v1/export/markdown", "/%761/export/markdown", "/v1/%65xport/markdown", "/v1/export/markdown/"];
    const statuses: number[] = [];
    for (let i = 0; i < BUCKETS.strict.max; i++)
      statuses.push((await exportAs(i % 2 === 0 ? text : api, spellings[i % spellings.length]!)).status);
    expect(statuses).toEqual(Array<number>(BUCKETS.strict.max).fill(200));
    for (const spelling of spellings) expect((await exportAs(text, spelling)).status, spelling).toBe(429);
  });

  it("answers with the API's own headers and compression", async () => {
    const { api, text } = await hosts();
    const headers = { "accept-encoding": "br" };
    const [fromApi, fromText] = [
      await fetch(`${api}/v1/services?limit=50`, { headers }),
      await fetch(`${text}/v1/services?limit=50`, { headers }),
    ];
    expect(fromText.status).toBe(200);
    for (const name of ["content-type", "content-encoding", "etag", "cache-control", "vary", "x-ratelimit-limit"])
      expect(fromText.headers.get(name), name).toBe(fromApi.headers.get(name));
    expect(fromText.headers.get("content-encoding")).toBe("br");
    expect(await fromText.text()).toBe(await fromApi.text());
  });
});
