/**
 * POST /v1/lists with an Idempotency-Key: a retry returns the list the first request saved (not a
 * second list, not a 409), also after a restart; the key is the client's own (another client's
 * same key is another list) and bound to the body (another body → 422); a malformed key is refused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { build } from "../helpers/app.ts";
import { rawRequest, type RawAnswer } from "../helpers/raw-http.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const post = (body: object, key?: string, remoteAddress?: string) => ({
  method: "POST" as const,
  url: "/v1/lists",
  headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
  payload: JSON.stringify(body),
  ...(remoteAddress ? { remoteAddress } : {}),
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
    onTestFinished(() => reopened.close());
    const restarted = await build({ store: reopened });
    onTestFinished(() => restarted.close());
    const after = await restarted.inject(post(body, "0b6f3c1e-7d7e-4a8c-9c55-1f0c1d1f9a10"));
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(first.json());
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

  it("keeps one client's key from another client: the same key elsewhere saves a list of its own", async () => {
    const app = await build();
    const body = { name: "Shared name", approvedServiceIds: ["aws-s3"] };
    const mine = await app.inject(post(body, "test", "198.51.100.1"));
    expect(mine.statusCode).toBe(200);
    const theirs = await app.inject(post({ ...body, approvedServiceIds: ["aws-ec2"] }, "test", "198.51.100.2"));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.json()).toMatchObject({ slug: "shared-name-2", approvedServiceIds: ["aws-ec2"] });
    // Even with the first client's very body, another client gets a new list, never the first one.
    const same = await app.inject(post(body, "test", "198.51.100.3"));
    expect(same.statusCode).toBe(200);
    expect(same.json().id).not.toBe(mine.json().id);
    expect(same.body).not.toContain(mine.json().id as string);
    // Each client's retry still finds its own list.
    expect((await app.inject(post(body, "test", "198.51.100.1"))).json()).toEqual(mine.json());
    expect((await app.inject(post(body, "test", "198.51.100.3"))).json()).toEqual(same.json());
  });

  it("answers the same key with another body 422 in the Error shape, and saves nothing", async () => {
    const app = await build();
    const first = await app.inject(post({ name: "List A", approvedServiceIds: ["aws-s3"] }, "k-422"));
    expect(first.statusCode).toBe(200);
    for (const other of [
      { name: "List B", approvedServiceIds: ["aws-s3"] },
      { name: "List A", approvedServiceIds: ["aws-s3", "aws-ec2"] },
      { name: "List A", approvedServiceIds: ["aws-s3"], slug: "list-a-explicit" },
    ]) {
      const reused = await app.inject(post(other, "k-422"));
      expect(reused.statusCode, JSON.stringify(other)).toBe(422);
      expect(reused.headers["content-type"]).toMatch(/^application\/json/);
      expect(reused.json()).toEqual({
        error: "Idempotency-Key reused",
        status: 422,
        details: expect.stringMatching(/different request body/),
      });
    }
    expect((await app.inject("/v1/lists/list-b")).statusCode).toBe(404);
    expect((await app.inject("/v1/lists/list-a-explicit")).statusCode).toBe(404);
    // The first body again is a retry.
    expect((await app.inject(post({ name: "List A", approvedServiceIds: ["aws-s3"] }, "k-422"))).json()).toEqual(
      first.json(),
    );
  });

  it("refuses an empty key and one over 128 characters sent over HTTP, in the Error shape", async () => {
    const app = await build();
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address() as { port: number };
    const send = async (key: string) =>
      (await rawRequest(`http://127.0.0.1:${address.port}`, {
        method: "POST",
        path: "/v1/lists",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      })) as RawAnswer;
    for (const key of ["", "x".repeat(129)]) {
      const answer = await send(key);
      expect(answer.status, JSON.stringify(key)).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 400, error: "Invalid headers" });
    }
    expect((await send("x".repeat(128))).status).toBe(200);
  });
});
