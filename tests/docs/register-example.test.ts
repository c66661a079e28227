/**
 * docs/register.md's worked example is what the code makes: every cell of the bank's register, with
 * where it comes from, cell for cell (the doc's tables as Prettier pads them, compared cell by cell).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildRegister } from "../../catalogue/register/build.ts";
import { BANK_REQUEST, workedExample } from "../fixtures/register-bank.ts";
import { realCatalogue } from "../helpers/app.ts";

const START = "<!-- register example: tests/docs/register-example.test.ts checks this section -->";
const END = "<!-- end of the register example -->";

/** Each line with its table cells trimmed, blank lines and table rules dropped. */
const normalised = (text: string) =>
  text
    .split("\n")
    .map((line) =>
      line.startsWith("|")
        ? line
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim())
            .join("|")
        : line.trim(),
    )
    .filter((line) => line !== "" && !/^\|[-| ]+\|$/.test(line));

describe("docs/register.md", () => {
  it("holds the bank's register as the code makes it, every cell traced", () => {
    const doc = readFileSync(new URL("../../docs/register.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END));
    const register = buildRegister(realCatalogue(), {
      ids: BANK_REQUEST.approvedServiceIds,
      allowedLocations: BANK_REQUEST.allowedLocations,
      to: BANK_REQUEST.to,
      entity: BANK_REQUEST.entity,
      exitPlanAt: "POST /v1/exit-plan",
    });
    expect(normalised(section)).toEqual(normalised(workedExample(register)));
  });
});
