/**
 * sidecar/json-keys.ts: a key given twice in one object of a request body is found, with its path;
 * JSON with every key once has none (issue 126: such bodies were read for their last key).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicateKey } from "../../sidecar/json-keys.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every object with a key in `value`, by its path. */
function objectsIn(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => objectsIn(item, [...path, index]));
  const inner = Object.entries(value).flatMap(([key, item]) => objectsIn(item, [...path, key]));
  return Object.keys(value).length > 0 ? [path, ...inner] : inner;
}

/** `value` as JSON, the object at `target` writing its first key twice (first with null). */
function withTwice(value: Json, target: readonly (string | number)[], path: (string | number)[] = []): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item, index) => withTwice(item, target, [...path, index])).join(",")}]`;
  const entries = Object.entries(value).map(
    ([key, item]) => `${JSON.stringify(key)}:${withTwice(item, target, [...path, key])}`,
  );
  const here = path.length === target.length && path.every((part, index) => part === target[index]);
  if (here) entries.unshift(`${JSON.stringify(Object.keys(value)[0])}:null`);
  return `{${entries.join(" , ")}}`;
}

describe("a key given twice in a JSON body", () => {
  it("is found in no JSON whose objects give each key once", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateKey(JSON.stringify(value, null, 1))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("is found wherever it is, with the path to it", () => {
    const withObject = fc
      .jsonValue()
      .map((value) => value as Json)
      .filter((value) => objectsIn(value).length > 0);
    fc.assert(
      fc.property(withObject, fc.nat(), (value, pick) => {
        const objects = objectsIn(value);
        const target = objects[pick % objects.length]!;
        const text = withTwice(value, target);
        expect(() => JSON.parse(text) as unknown).not.toThrow();
        const first = Object.keys(
          target.reduce<Json>((inner, part) => (inner as Record<string, Json>)[part]!, value)!,
        )[0]!;
        expect(duplicateKey(text)).toBe([...target, first].join("."));
      }),
      { numRuns: 300 },
    );
  });

  it("reads escaped keys as the keys they spell", () => {
    expect(duplicateKey('{"a\\u0062":1,"ab":2}')).toBe("ab");
    expect(duplicateKey('{"a\\"b":1,"a\\"c":2}')).toBeUndefined();
    expect(duplicateKey('[{"k":1},{"k":2},{"x":{"y":1,"y":2}}]')).toBe("2.x.y");
  });
});
