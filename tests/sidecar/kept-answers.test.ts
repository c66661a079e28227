import { describe, expect, it } from "vitest";
import { keptAnswers, RESPONSE_CACHE_BYTES, type Prepared } from "../../sidecar/routes/api.ts";

const answer = (bytes: number): Prepared<Buffer> => ({
  until: Number.POSITIVE_INFINITY,
  status: 200,
  contentType: "application/json",
  disposition: undefined,
  body: Buffer.alloc(bytes, 0x20),
  hash: undefined,
  encoded: {},
});

describe("the API's kept answers", () => {
  it("keeps an answer too large for the cache of small ones, so that a second request does not compute it", () => {
    // As the 24 MB catalogue dump is while `npm start` serves from the sources.
    const { kept } = keptAnswers();
    const dump = answer(RESPONSE_CACHE_BYTES + 1);
    kept.set("getCatalogueDump\0{}", dump);
    expect(kept.get("getCatalogueDump\0{}")).toBe(dump);
    const small = answer(1024);
    kept.set("listProviders\0{}", small);
    expect(kept.get("listProviders\0{}")).toBe(small);
  });

  it("keeps only the last two large answers, and small ones within the cache's bytes", () => {
    const { kept } = keptAnswers();
    for (const key of ["a", "b", "c"]) kept.set(key, answer(RESPONSE_CACHE_BYTES + 1));
    expect(["a", "b", "c"].map((key) => kept.get(key) !== undefined)).toEqual([false, true, true]);
    const quarter = Math.floor(RESPONSE_CACHE_BYTES / 4);
    for (const key of ["d", "e", "f"]) kept.set(key, answer(quarter));
    // Each counts 1.5 times its body (room for its compressed forms): two fit, not three.
    expect(["d", "e", "f"].map((key) => kept.get(key) !== undefined)).toEqual([false, true, true]);
  });
});
