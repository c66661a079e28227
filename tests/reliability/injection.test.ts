/**
 * Control and bidi characters in user text: stripped at input (list names, feedback), so never in
 * store.jsonl, and stripped in every rendering of a list stored before that (ANSI, Markdown, HTML).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue } from "../helpers/app.ts";

const HOSTILE = "Tea\u001b[31m\u0007m\u009b2J \u202eevil\u202c\u2066x\u2069\u200e\u200f\u061c\u0000 list";
// eslint-disable-next-line no-control-regex -- what must never come through
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("control and bidi characters", () => {
  it("are stripped from list names and feedback at input, so never reach store.jsonl", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-inject-"));
    dirs.push(dir);
    const store = await EmbeddedStore.open(dir);
    const app = await build({ store, catalogue: fixtureCatalogue() });
    const list = await app.inject({
      method: "POST",
      url: "/v1/lists",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ name: HOSTILE, approvedServiceIds: ["aws-s3"] }),
    });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { name: string }).name).toBe("Tea[31mm2J evilx list");
    const feedback = await app.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ message: `${HOSTILE}\nsecond line\tand a tab` }),
    });
    expect(feedback.statusCode).toBe(201);
    await app.close();
    await store.close();
    const log = readFileSync(join(dir, "store.jsonl"), "utf8");
    const records = log.split("\n").filter(Boolean);
    expect(records).toHaveLength(2);
    for (const record of records) expect(JSON.parse(record) as unknown).toBeTruthy();
    expect(JSON.stringify(records.map((r) => JSON.parse(r) as unknown))).not.toMatch(FORBIDDEN);
    expect(JSON.parse(records[1]!).feedback.message).toContain("\nsecond line\tand a tab");
  });

  it("are stripped in every rendering of a list stored before names were cleaned", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-inject-"));
    dirs.push(dir);
    const store = await EmbeddedStore.open(dir);
    onTestFinished(() => store.close());
    const now = new Date();
    await store.createList({
      id: "old-hostile-id",
      slug: "old-hostile",
      name: HOSTILE,
      approvedServiceIds: ["aws-s3"],
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
    });
    onTestFinished(() => text.close());
    for (const format of ["ansi", "md", "html", "txt"]) {
      const page = await text.inject(`/lists/old-hostile?format=${format}`);
      expect(page.statusCode).toBe(200);
      // ANSI output has its own SGR codes: remove those before looking.
      // eslint-disable-next-line no-control-regex -- SGR sequences
      const body = format === "ansi" ? page.body.replace(/\u001b\[[0-9;]*m/g, "") : page.body;
      expect(body, format).toContain("evil");
      expect(body, format).not.toMatch(FORBIDDEN);
    }
  });
});
