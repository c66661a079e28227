import { describe, expect, it, onTestFinished } from "vitest";
import type { Feedback } from "../../catalogue/contract/ports.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";
import { buildText } from "../helpers/text-app.ts";

async function textApp() {
  const store = await tempStore();
  const recorded: Feedback[] = [];
  const recordFeedback = store.recordFeedback.bind(store);
  store.recordFeedback = async (feedback) => {
    recorded.push(feedback);
    return recordFeedback(feedback);
  };
  const app = await buildText({ store, perMinute: 10_000, urls: URLS });
  return { app, recorded };
}

const form = (fields: Record<string, string>, accept = "*/*") => ({
  method: "POST" as const,
  url: "/feedback/",
  headers: { "content-type": "application/x-www-form-urlencoded", accept },
  payload: new URLSearchParams(fields).toString(),
});

describe("the text host's /search", () => {
  it("answers curl with the API's ranking as text: the flagship first", async () => {
    const { app } = await textApp();
    const response = await app.inject({ url: "/search?q=s3", headers: { "user-agent": "curl/8", accept: "*/*" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = response.body.split("\n").filter((line) => /Amazon|S3/.test(line));
    expect(lines[0]).toContain("Amazon Simple Storage Service");
  });

  it("answers Markdown with links to the service pages, and filters by provider", async () => {
    const { app } = await textApp();
    const response = await app.inject({
      url: "/search?q=kubernetes&provider=gcp",
      headers: { accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith("# Search: kubernetes")).toBe(true);
    expect(response.body).toContain("[Google Kubernetes Engine](/gcp/gke)");
    expect(response.body).not.toContain("/aws/");
    expect((await app.inject("/search/?format=md")).body).toContain("?q=");
  });
});

describe("the text host's /search, what it understood", () => {
  it("says closest matches and did-you-mean in text (the site's page: tests/site/on-demand.test.ts)", async () => {
    const { app } = await textApp();
    const text = await app.inject({ url: "/search?q=postgers", headers: { accept: "text/markdown" } });
    expect(text.body).toContain("Did you mean [postgres](/search/?q=postgres)?");
    const closest = await app.inject({
      url: "/search?q=kubernetes%20xyzzyqwerty",
      headers: { accept: "text/markdown" },
    });
    expect(closest.body).toContain("No service matches every word; these are the closest.");
    expect(closest.body).toContain("[Amazon Elastic Kubernetes Service](/aws/eks)");
  });
});

describe("the text host's /equivalents", () => {
  it("renders the matrix: rows of kinds, the three largest providers as columns by default", async () => {
    const { app } = await textApp();
    const response = await app.inject({ url: "/equivalents", headers: { accept: "text/markdown" } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("# Equivalent services");
    expect(response.body).toMatch(/\| Kind \| AWS \| Azure \| Google Cloud \|/);
    expect(response.body).toMatch(/\[Object storage\]\(\/equivalents\/object-storage\) \| Amazon S3 \|/);
  });

  it("has one URL for the page in HTML, /equivalents/, and answers text at both", async () => {
    const { app } = await textApp();
    for (const [url, location] of [
      ["/equivalents", "/equivalents/"],
      ["/equivalents?providers=aws,gcp", "/equivalents/?providers=aws,gcp"],
    ]) {
      const moved = await app.inject({ url, headers: { accept: "text/html" } });
      expect(moved.statusCode, url).toBe(301);
      expect(moved.headers.location, url).toBe(location);
    }
    expect((await app.inject({ url: "/equivalents/", headers: { accept: "text/html" } })).statusCode).toBe(200);
    for (const url of ["/equivalents", "/equivalents/"])
      expect((await app.inject({ url, headers: { accept: "text/markdown" } })).statusCode, url).toBe(200);
  });

  it("takes columns and a category from the URL by id or name, refuses an unknown provider, and renders one kind", async () => {
    const { app } = await textApp();
    const chosen = await app.inject({
      url: "/equivalents?providers=OVH&category=Storage",
      headers: { accept: "text/markdown" },
    });
    expect(chosen.body).toMatch(/\| Kind \| OVHcloud \|\n/);
    // Issue 123: an unknown provider is the filters' 400, never a column left out in silence.
    const unknown = await app.inject({
      url: "/equivalents?providers=ovhcloud,nope&category=storage",
      headers: { accept: "text/markdown" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("Unknown provider");
    expect(unknown.body).toContain('"nope"');
    expect(chosen.body).toContain("[Object storage](/equivalents/object-storage)");
    expect(chosen.body).not.toContain("Managed Kubernetes](/equivalents/");
    const one = await app.inject({ url: "/equivalents/object-storage", headers: { accept: "text/markdown" } });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain("## Amazon Web Services");
    expect(one.body).toContain("[Amazon Simple Storage Service](/aws/s3)");
    const missing = await app.inject({ url: "/equivalents/no-such-kind", headers: { accept: "text/plain" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain("No kind of service");
  });
});

describe("the compare form without JavaScript", () => {
  it("answers the comparison of ?ids= as text, and how to ask for one (HTML: tests/site/on-demand.test.ts)", async () => {
    const { app } = await textApp();
    const text = await app.inject({
      url: "/compare?ids=aws-s3,gcp-cloud-storage",
      headers: { accept: "text/markdown" },
    });
    expect(text.body).toContain("## Amazon Simple Storage Service");
    const empty = await app.inject({ url: "/compare/", headers: { accept: "text/markdown" } });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain("/compare/aws-s3,gcp-cloud-storage");
  });
});

describe("the feedback form without JavaScript", () => {
  it("records a form-encoded message with the same operation as POST /v1/feedback", async () => {
    const { app, recorded } = await textApp();
    const response = await app.inject(form({ type: "bug", message: "  The S3 page is wrong.  ", email: "" }));
    expect(response.statusCode).toBe(201);
    expect(response.body).toContain("Thank you");
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ type: "bug", message: "The S3 page is wrong." });
  });

  it("refuses a whitespace-only or too short message and records nothing", async () => {
    const { app, recorded } = await textApp();
    const blank = await app.inject(form({ type: "general", message: "      " }));
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain("empty or only spaces");
    const short = await app.inject(form({ type: "general", message: "hi" }));
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/must be 5 to 5000 characters/);
    const email = await app.inject(form({ message: "A fine message", email: "not-an-address" }));
    expect(email.statusCode).toBe(400);
    expect(recorded).toHaveLength(0);
  });
});

describe("the text host's feedback form and the limits", () => {
  it("counts the form in the feedback (relaxed) bucket it shares with POST /v1/feedback, not in the page limit", async () => {
    const store = await tempStore();
    const catalogue = realCatalogue();
    const config = { LOG_LEVEL: "silent", TRUST_PROXY: undefined } as const;
    const api = await buildApp({ config, catalogue, store, urls: URLS });
    onTestFinished(() => api.close());
    // The text host's own limit: 60 pages a minute.
    const app = await buildTextApp({ config, catalogue, store, api });
    onTestFinished(() => app.close());
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await app.inject(form({ type: "bug", message: `Message number ${i}` }))).statusCode);
    expect(statuses).toEqual([...Array<number>(30).fill(201), 429]);
    const limited = await app.inject(form({ type: "bug", message: "One more message" }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.body).toContain("relaxed bucket");
    // The same bucket as the API's operation, whichever host it comes through.
    const viaApi = await app.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json" },
      payload: { type: "bug", message: "Through the API path" },
    });
    expect(viaApi.statusCode).toBe(429);
    // 32 form posts spent none of the 60 pages.
    for (let i = 0; i < 60; i++) expect((await app.inject({ url: "/aws?format=md" })).statusCode).toBe(200);
  });
});

describe("the 429 page from a build without its server bundle", () => {
  it("is the built page, with the 429 status and not kept by caches", async () => {
    const dist = fakeBuild({ "site/client/429/index.html": "<h1>Too many requests</h1><p>Try again in a minute.</p>" });
    const app = await buildText({
      files: await BuiltFiles.open(dist),
      perMinute: 1,
    });
    await app.inject({ url: "/aws", headers: { accept: "text/markdown" } });
    const over = await app.inject({ url: "/aws", headers: { accept: "text/html" } });
    expect(over.statusCode).toBe(429);
    expect(over.headers["content-type"]).toMatch(/^text\/html/);
    expect(over.headers["cache-control"]).toBe("no-store");
    expect(over.body).toContain("<h1>Too many requests</h1>");
  });
});

describe("the text host's list forms", () => {
  it("name unknown ids as the API does, with the nearest slugs, in a download and the save form", async () => {
    const { app } = await textApp();
    const api = await buildApp({
      config: { LOG_LEVEL: "silent" },
      catalogue: realCatalogue(),
      store: await tempStore(),
      urls: URLS,
    });
    const expected = (
      (
        await api.inject({
          method: "POST",
          url: "/v1/policies/alpha-scp",
          payload: { approvedServiceIds: ["aws-s3", "aws-lambada"] },
        })
      ).json() as { error: string; details: string }
    ).details;
    expect(expected).toMatch(/^Not in the catalogue: aws-lambada \(did you mean aws-lambda/);
    const download = await app.inject({
      url: "/list/files/aws-scp.json?ids=aws-s3,aws-lambada",
      headers: { accept: "text/markdown" },
    });
    const saved = await app.inject({
      method: "POST",
      url: "/lists",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/markdown" },
      payload: new URLSearchParams({ name: "Mine", ids: "aws-s3,aws-lambada" }).toString(),
    });
    for (const response of [download, saved]) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain("Unknown service ids");
      expect(response.body).toContain(expected);
    }
    await Promise.all([app.close(), api.close()]);
  });
});

describe("the text host's .tf downloads", () => {
  it("answer each policy's Terraform configuration as the API's format=terraform does, as an attachment", async () => {
    const { app } = await textApp();
    const api = await buildApp({
      config: { LOG_LEVEL: "silent" },
      catalogue: realCatalogue(),
      store: await tempStore(),
      urls: URLS,
    });
    const cases = [
      ["aws-scp.tf", "alpha-scp", "aws-s3,aws-lambda"],
      ["azure-policy-set.tf", "beta-policy", "azure-blob-storage"],
      ["gcp-org-policy.tf", "gamma-org-policy", "gcp-cloud-storage"],
    ] as const;
    for (const [file, path, ids] of cases) {
      const download = await app.inject({ url: `/list/files/${file}?ids=${ids}` });
      expect(download.statusCode, file).toBe(200);
      expect(download.headers["content-type"]).toBe("text/x-hcl; charset=utf-8");
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="${file}"`);
      const expected = await api.inject({
        method: "POST",
        url: `/v1/policies/${path}?format=terraform`,
        payload: { approvedServiceIds: ids.split(",") },
      });
      expect(download.body, file).toBe(expected.body);
    }
    await Promise.all([app.close(), api.close()]);
  });
});

describe("the text host's forms and other sites", () => {
  it("refuse a post from another site's page with 403, and take the site's own, curl's and the configured origin's", async () => {
    const { app, recorded } = await textApp();
    const post = (url: string, headers: Record<string, string>, fields: Record<string, string>) =>
      app.inject({
        method: "POST",
        url,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "text/plain",
          host: "text.test",
          ...headers,
        },
        payload: new URLSearchParams(fields).toString(),
      });
    const list = { name: "Mine", ids: "aws-s3,aws-lambda" };
    const message = { message: "The S3 page is out of date." };
    const refusedHeaders: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: "http://text.test.evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site", origin: "http://text.test" },
    ];
    for (const headers of refusedHeaders)
      for (const [url, fields] of [
        ["/lists", list],
        ["/feedback", message],
      ] as const) {
        const refused = await post(url, headers, fields);
        expect(refused.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(refused.body).toMatch(/403 Forbidden/);
        expect(refused.body).toMatch(/another site/);
      }
    // DNS rebinding: a page on evil.example whose name now points here posts "same-origin".
    for (const headers of [
      { host: "evil.example", origin: "http://evil.example", "sec-fetch-site": "same-origin" } as Record<
        string,
        string
      >,
      { host: "evil.example", origin: "http://evil.example" },
    ]) {
      const refused = await post("/lists", headers, list);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.body).toMatch(/own host names/);
    }
    expect(recorded).toHaveLength(0);
    const takenHeaders: Record<string, string>[] = [
      {},
      { origin: "http://text.test", "sec-fetch-site": "same-origin" },
      { origin: "https://TEXT.test" },
      { "sec-fetch-site": "none" },
      // Chromium's own post under Referrer-Policy: no-referrer.
      { origin: "null", "sec-fetch-site": "same-origin" },
    ];
    for (const headers of takenHeaders) {
      const saved = await post("/lists", headers, list);
      expect(saved.statusCode, JSON.stringify(headers)).toBe(303);
      expect((await post("/feedback", headers, message)).statusCode).toBeLessThan(400);
    }
    expect(recorded).toHaveLength(5);
  });

  it("save unlisted as the site's form sends it by default, and listed when a custom address is asked", async () => {
    const { app } = await textApp();
    const save = (fields: Record<string, string>) =>
      app.inject({
        method: "POST",
        url: "/lists",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/plain" },
        payload: new URLSearchParams({ ids: "aws-s3", ...fields }).toString(),
      });
    const unlisted = await save({ name: "Team storage", unlisted: "true" });
    expect(unlisted.statusCode).toBe(303);
    expect(unlisted.headers.location).not.toMatch(/team-storage/);
    const custom = await save({ name: "Team storage", unlisted: "true", slug: "team-storage-eu" });
    expect(custom.statusCode).toBe(303);
    expect(custom.headers.location).toMatch(/\/lists\/team-storage-eu$/);
  });
});
