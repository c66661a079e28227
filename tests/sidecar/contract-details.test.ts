/**
 * Contract details: feedback with `type: null` is `general`; the text host compares ten services
 * with long slugs. (A list saved before slugs existed answering `"slug": null` is in
 * store-replay.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue, tempStore } from "../helpers/app.ts";

describe("contract details", () => {
  it("records feedback with type null as general", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-feedback-"));
    const store = await EmbeddedStore.open(dir);
    const app = await build({ store });
    const response = await app.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ type: null, message: "The list page is great" }),
    });
    expect(response.statusCode).toBe(201);
    await app.close();
    await store.close();
    const record = JSON.parse(readFileSync(join(dir, "store.jsonl"), "utf8").split("\n")[0]!) as {
      feedback: { type: string };
    };
    expect(record.feedback.type).toBe("general");
    rmSync(dir, { recursive: true, force: true });
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
