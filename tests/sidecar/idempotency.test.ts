/**
 * POST /v1/lists with an Idempotency-Key: a retry returns the list the first request saved (not a
 * second list, not a 409), also after a restart; a malformed key is refused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { build } from "../helpers/app.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const post = (body: object, key?: string) => ({
  method: "POST" as const,
  url: "/v1/lists",
  headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
  payload: JSON.stringify(body),
});

describe("Idempotency-Key on POST /v1/lists", () => {
  it("answers a retry with the first result instead of 409 or a second list, across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-idem-"));
    dirs.push(dir);
    const store = await EmbeddedStore.open(dir);
    const app = await build({ store });
    const body = { slug: "team-baseline", approvedServiceIds: ["aws-s3"] };
    const first = await app.inject(post(body, "0b6f3c1e-7d7e-4a8c-9c55-1f0c1d1f9a10"));
    expect(first.statusCode).toBe(200);
    expect(first.json()).not.toHaveProperty("idempotencyKey");
    const retries = await Promise.all(
      Array.from({ length: 5 }, () => app.inject(post(body, "0b6f3c1e-7d7e-4a8c-9c55-1f0c1d1f9a10"))),
    );
    for (const retry of retries) {
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toEqual(first.json());
    }
    // Without the key, the slug is taken.
    expect((await app.inject(post(body))).statusCode).toBe(409);
    // Derived slugs: the retry does not make "-2".
    const named = await app.inject(post({ name: "Data team", approvedServiceIds: ["aws-s3"] }, "key:2"));
    const again = await app.inject(post({ name: "Data team", approvedServiceIds: ["aws-s3"] }, "key:2"));
    expect(again.json()).toEqual(named.json());
    expect((again.json() as { slug: string }).slug).toBe("data-team");
    await app.close();
    await store.close();

    const reopened = await EmbeddedStore.open(dir);
    const restarted = await build({ store: reopened });
    const after = await restarted.inject(post(body, "0b6f3c1e-7d7e-4a8c-9c55-1f0c1d1f9a10"));
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(first.json());
    await restarted.close();
    await reopened.close();
  });

  it("refuses a key that is too long or has other characters, in the Error shape", async () => {
    const app = await build();
    for (const key of ["x".repeat(129), "has space", "semi;colon", "é"]) {
      const response = await app.inject(post({ approvedServiceIds: ["aws-s3"] }, key));
      expect(response.statusCode, key).toBe(400);
      expect(response.json(), key).toMatchObject({ status: 400, error: "Invalid headers" });
    }
    expect((await app.inject(post({ approvedServiceIds: ["aws-s3"] }, "x".repeat(128)))).statusCode).toBe(200);
  });
});
