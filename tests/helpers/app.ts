/** One build() helper: an API app (and its store) over a catalogue, closed after the test. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterEach, expect } from "vitest";
import { loadCatalogue, type Catalogue } from "../../catalogue/load/load.ts";
import { realCatalogue, workerCatalogueSource } from "./catalogue.ts";
import { buildApp, type AppOptions } from "../../sidecar/app.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { contractProblems } from "./contract.ts";
import type { Store } from "../../sidecar/store/store.ts";
import { URLS } from "./urls.ts";

/** Re-exported: most suites take the URLs and the real catalogue from here with build(). */
export { realCatalogue, workerCatalogueSource, URLS };

export const FIXTURE_DIR = new URL("../fixtures/catalogue/", import.meta.url).pathname;

let fixture: Catalogue | undefined;
export function fixtureCatalogue(): Catalogue {
  return (fixture ??= loadCatalogue(FIXTURE_DIR));
}

const open: (() => Promise<void>)[] = [];
const violations: string[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
  expect(violations.splice(0), "responses that break the OpenAPI contract").toEqual([]);
});

export async function tempStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), "csc-store-"));
  const store = await EmbeddedStore.open(dir);
  open.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

export async function build(options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined, ...options.config },
    catalogue: options.catalogue ?? realCatalogue(),
    store: options.store ?? (await tempStore()),
    urls: URLS,
    ...(options.files ? { files: options.files } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.catalogueSource ? { catalogueSource: options.catalogueSource } : {}),
    ...(options.heavyWorker ? { heavyWorker: options.heavyWorker } : {}),
  });
  // Every response a test sees is checked against the OpenAPI document.
  app.addHook("onSend", async (request, reply, payload) => {
    if (typeof payload === "string" || payload === null || payload === undefined) {
      const problems = contractProblems(
        request.method,
        request.url,
        reply.statusCode,
        reply.getHeader("content-type") as string | undefined,
        payload ?? "",
      );
      violations.push(...problems);
    }
    return payload;
  });
  open.push(() => app.close());
  return app;
}

/** An inject() request POSTing `body` as JSON; a string is sent as it is (to send what is not JSON). */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST" as const,
  url,
  headers: { "content-type": "application/json", ...headers },
  payload: typeof body === "string" ? body : JSON.stringify(body),
});

/** POSTs `body` as JSON to `url` on a new build() app: the status and the parsed body. */
export async function postToNewApp(url: string, body: unknown) {
  const app = await build();
  const response = await app.inject(postJson(url, body));
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

/** Asserts an answer is the contract's Error with this status (its title a string), and returns its body. */
export function expectError(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as { error: unknown; status: unknown };
  expect(typeof body.error).toBe("string");
  expect(body.status).toBe(status);
  return body as { error: string; status: number; details?: string };
}
