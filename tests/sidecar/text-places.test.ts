/**
 * The text host's faces of places (issue 112): /search with region= or country= lists the
 * provider-level services apart and labels the global ones, as the API does; an unknown place is
 * the API's 400 in the text rendering; a service page says its kind of place and the data's date.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";

async function textApp() {
  const app = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store: await tempStore(),
    perMinute: 10_000,
    urls: URLS,
  });
  onTestFinished(() => app.close());
  return app;
}
const markdown = { accept: "text/markdown" };

describe("the text host and places", () => {
  it("lists a place search's provider-level services apart: Hetzner in Singapore", async () => {
    const app = await textApp();
    const response = await app.inject({ url: "/search?q=hetzner&region=sin", headers: markdown });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("## Provider level, listed apart");
    expect(response.body).toMatch(
      /\d+ more services? whose own regions are not known: their provider has a region in sin/,
    );
    expect(response.body).toContain("[Cloud Servers](/hetzner/cloud-servers)");
    expect(response.body).not.toContain("[Object Storage](/hetzner/object-storage)");
  });

  it("labels a global service found for global", async () => {
    const app = await textApp();
    const response = await app.inject({ url: "/search?q=cloudfront&region=global", headers: markdown });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(
      /\[Amazon CloudFront\]\(\/aws\/cloudfront\)[^\n]*; global, answered from its vendor's global endpoint/,
    );
  });

  it("answers an unknown place with the API's 400, naming the nearest", async () => {
    const app = await textApp();
    const response = await app.inject({ url: "/search?q=storage&country=EUX", headers: { "user-agent": "curl/8" } });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('"EUX" (nearest:');
  });

  it("says on a service page which kind of place it is, from where and as of when", async () => {
    const app = await textApp();
    const iam = await app.inject({ url: "/aws/iam", headers: markdown });
    expect(iam.statusCode).toBe(200);
    expect(iam.body).toMatch(
      /Global: answered from AWS's global endpoint, not chosen per region; AWS names us-east-1 for it/,
    );
    const modelarts = await app.inject({ url: "/otc/modelarts", headers: markdown });
    expect(modelarts.body).toMatch(
      /1 region, per service from OTC's regions-and-endpoints tables, by service .*, as of \d{4}-\d{2}-\d{2}/,
    );
  });
});
