// The repeated-parameter rule reads names as URLSearchParams does; the scan that avoids building a
// URLSearchParams per request must find the same first repeat for every query string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedParameter } from "../../sidecar/repeated-params.ts";

/** The rule as first written: URLSearchParams over the whole query. */
function byUrlSearchParams(url: string, repeatable: ReadonlySet<string>): string | undefined {
  const start = url.indexOf("?");
  if (start < 0) return undefined;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (repeatable.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

const piece = fc.constantFrom("a", "b", "q", "%61", "a+b", "a%20b", "%zz", "%", "+", "=", "&", "?", "é", "%C3%A9", "");

describe("repeatedParameter", () => {
  it("names the first repeat as URLSearchParams reads the names", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, withRepeatable) => {
        const url = `/v1/services?${pieces.join("")}`;
        const repeatable = new Set(withRepeatable ? ["b"] : []);
        expect(repeatedParameter(url, repeatable)).toBe(byUrlSearchParams(url, repeatable));
      }),
      { numRuns: 20000 },
    );
  });

  it("finds encoded spellings of one name, and none without a query", () => {
    expect(repeatedParameter("/v1/services?q=a&%71=b")).toBe("q");
    expect(repeatedParameter("/v1/services?a+b=1&a%20b=2")).toBe("a b");
    expect(repeatedParameter("/v1/services?ids=a&ids=b", new Set(["ids"]))).toBeUndefined();
    expect(repeatedParameter("/v1/services")).toBeUndefined();
  });
});
