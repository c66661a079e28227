/**
 * The one id-list rule (catalogue/schema/requests.ts): the pattern OpenAPI shows accepts exactly the
 * lists the server reads as 1 to `max` ids, so a client validating against the document and the
 * server never disagree on ?ids= (compare, exposure, lifecycle).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idListItems, idListPattern } from "../../catalogue/schema/requests.ts";

// The characters that matter to the rule: separators, white space JavaScript trims, id letters.
const LIST_CHARS = [",", " ", "\t", "\n", "\u00a0", "\ufeff", "\u2028", "a", "-", "3"];

describe("the id-list rule", () => {
  it("reads items trimmed, blank ones dropped, duplicates kept", () => {
    expect(idListItems(" aws-s3 ,,aws-s3,\tgcp-gcs , ")).toEqual(["aws-s3", "aws-s3", "gcp-gcs"]);
    expect(idListItems(" , ")).toEqual([]);
  });

  it("has a pattern that accepts a list exactly when it reads as 1 to max ids", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...LIST_CHARS), maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (raw, max) => {
          const count = idListItems(raw).length;
          expect(new RegExp(idListPattern(max)).test(raw), JSON.stringify(raw)).toBe(count >= 1 && count <= max);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
