/**
 * Replay trusts nothing: every record of the embedded store's log is checked against its schema;
 * bad ones are skipped, counted, named in the start log and in /v1/status — never a crash, never
 * a 500 later.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { Config } from "../../sidecar/config.ts";
import { openStore } from "../../sidecar/server.ts";
import type { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const dirs: string[] = [];
const stores: EmbeddedStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
const now = new Date().toISOString();
const good = {
  id: "good-id",
  slug: "good",
  name: "Good",
  approvedServiceIds: ["aws-s3"],
  createdAt: now,
  expiresAt: future,
};

describe("replaying the embedded store's log", () => {
  it("skips and counts records that do not match their schema, and reports them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-replay-"));
    dirs.push(dir);
    const lines = [
      { t: "list", list: good },
      { t: "list", list: null },
      { t: "list", list: { ...good, id: "no-ids", slug: "no-ids", approvedServiceIds: undefined } },
      {
        t: "list",
        list: { id: "before-slugs", name: null, approvedServiceIds: ["aws-s3"], createdAt: now, expiresAt: future },
      },
      { t: "feedback", feedback: { type: "general", message: "hello there", receivedAt: now } },
      { t: "mystery" },
      null,
      [],
    ].map((record) => JSON.stringify(record));
    writeFileSync(join(dir, "store.jsonl"), `${lines.join("\n")}\n{"t":"li`);
    const log: string[] = [];
    const config = Config.parse({ DATA_DIR: dir });
    const store = (await openStore(config, (line) => log.push(line))) as EmbeddedStore;
    stores.push(store);
    expect(store.skipped.count).toBe(6);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/store: .*store\.jsonl: 6 unreadable record\(s\) skipped at start; first: line 2: list/);

    const app = await build({ store });
    const status = (await app.inject("/v1/status")).json() as { components: Record<string, unknown>[] };
    const component = status.components.find((c) => c.component === "store")!;
    expect(component.skippedRecords).toBe(6);
    expect(component.message).toMatch(/6 unreadable record/);

    expect((await app.inject("/v1/lists/good")).statusCode).toBe(200);
    expect((await app.inject("/v1/lists/no-ids")).statusCode).toBe(404);
    const old = await app.inject("/v1/lists/before-slugs");
    expect(old.statusCode).toBe(200);
    expect(old.json()).toMatchObject({ id: "before-slugs", slug: null, url: "http://text.test/lists/before-slugs" });

    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store,
    });
    onTestFinished(() => text.close());
    for (const format of ["ansi", "md", "html"]) {
      expect((await text.inject(`/lists/no-ids?format=${format}`)).statusCode).toBe(404);
      expect((await text.inject(`/lists/good?format=${format}`)).statusCode).toBe(200);
    }
  });
});
