/**
 * Contract details: feedback with `type: null` is refused (issue 126), a body with a key twice too;
 * the text host compares ten services
 * with long slugs. (A list saved before slugs existed answering `"slug": null` is in
 * store-replay.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, realCatalogue, tempStore } from "../helpers/app.ts";

describe("contract details", () => {
  it("refuses feedback with type null, records it as general when the type is omitted or unrecognised", async () => {
    // Issue 126: type null was accepted (as general); the contract's type is a string, or absent.
    const dir = mkdtempSync(join(tmpdir(), "csc-feedback-"));
    const store = await EmbeddedStore.open(dir);
    const app = await build({ store });
    const post = (body: object) =>
      app.inject({
        method: "POST",
        url: "/v1/feedback",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
    const refused = await post({ type: null, message: "The list page is great" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ status: 400, error: "Invalid body" });
    expect(refused.json().details).toMatch(/^type: /);
    expect((await post({ message: "The list page is great" })).statusCode).toBe(201);
    expect((await post({ type: "praise", message: "The list page is great" })).statusCode).toBe(201);
    await app.close();
    await store.close();
    const records = readFileSync(join(dir, "store.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { feedback: { type: string } }).feedback.type);
    expect(records).toEqual(["general", "general"]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a JSON body with a key twice, naming the key's path (issue 126: the last one was taken)", async () => {
    const app = await build();
    onTestFinished(() => app.close());
    const post = (url: string, payload: string) =>
      app.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload });
    for (const [url, payload, path] of [
      ["/v1/lists", '{"approvedServiceIds":["aws-s3"],"approvedServiceIds":["aws-lambda"]}', "approvedServiceIds"],
      [
        "/v1/exit-plan",
        '{"approvedServiceIds":["aws-s3"],"target":{"sovereignOption":true,"sovereignOption":false}}',
        "target.sovereignOption",
      ],
      ["/v1/feedback", '{"message":"hello there","message":"hello again"}', "message"],
      [
        "/v1/policies/alpha-scp",
        '{"approvedServiceIds":["aws-s3"],"exemptPrincipalArns":[{"a":1,"a":2}]}',
        "exemptPrincipalArns.0.a",
      ],
    ] as const) {
      const answer = await post(url, payload);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toMatchObject({ status: 400, error: "Invalid body" });
      expect(answer.json().details, url).toMatch(new RegExp(`^body\\.${path.replace(/\./g, "\\.")}: given twice`));
    }
    // A key that only looks alike (escaped the same, in another object) is no duplicate.
    const fine = await post("/v1/export/markdown", '{"approvedServiceIds":["aws-s3"],"x\\u0079":1}');
    expect(fine.json().details ?? "").not.toMatch(/given twice/);
  });

  it("says '1 service matches' of a search with one result on the text host, and 'services match' of more", async () => {
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
    });
    onTestFinished(() => text.close());
    const one = await text.inject("/search?q=cloud9&format=md");
    expect(one.statusCode).toBe(200);
    expect(one.body).toMatch(/^1 service matches\.$/m);
    const more = await text.inject("/search?q=object+storage&format=md");
    expect(more.body).toMatch(/^\d+ services match\.$/m);
  });

  it("compares ten services with the longest slugs on the text host", async () => {
    const catalogue = realCatalogue();
    const longest = [...catalogue.services]
      .map((s) => s.slug)
      .sort((a, b) => b.length - a.length)
      .slice(0, 10);
    const path = `/compare/${longest.join(",")}`;
    expect(path.length).toBeGreaterThan(300);
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store: await tempStore(),
    });
    onTestFinished(() => text.close());
    const response = await text.inject(`${path}?format=md`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Showing the first 8 of 10 services");
  });
});
