/** buildText(): a text host over a catalogue and a temporary store, closed after the test, as build() is for the API. */
import type { FastifyInstance } from "fastify";
import { onTestFinished } from "vitest";
import { buildTextApp, type TextAppOptions } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "./app.ts";

/** A text host over the real catalogue (or `options.catalogue`) and a temporary store, closed when the test finishes. */
export async function buildText(options: Partial<TextAppOptions> = {}): Promise<FastifyInstance> {
  const text = await buildTextApp({
    ...options,
    config: options.config ?? { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: options.catalogue ?? realCatalogue(),
    store: options.store ?? (await tempStore()),
  });
  onTestFinished(() => text.close());
  return text;
}
