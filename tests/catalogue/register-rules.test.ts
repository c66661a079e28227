/**
 * The supervisors' checks as tests: a register the entity has completed passes every check, and
 * each rule, broken once, fails with its id on the row and column broken.
 */
import { describe, expect, it } from "vitest";
import { leiCheckDigits } from "../../catalogue/base/lei.ts";
import { buildRegister } from "../../catalogue/register/build.ts";
import { runChecks } from "../../catalogue/register/rules.ts";
import type { RegisterT, RegisterTemplateT } from "../../catalogue/schema/index.ts";
import { BANK_LEI, BANK_REQUEST } from "../fixtures/register-bank.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** An example LEI per provider: no LOU's prefix, ISO 17442's check digits. */
const exampleLei = (providerId: string) => {
  const prefix = `EXAMPLE${providerId.toUpperCase().replace(/[^A-Z0-9]/g, "")}`.padEnd(18, "0").slice(0, 18);
  return `${prefix}${leiCheckDigits(prefix)}`;
};

/** The bank's register with every cell the entity fills filled, as the bank would before filing. */
function completed(): RegisterT {
  const register = buildRegister(catalogue, {
    ids: BANK_REQUEST.approvedServiceIds,
    allowedLocations: BANK_REQUEST.allowedLocations,
    to: BANK_REQUEST.to,
    entity: {
      ...BANK_REQUEST.entity,
      providerCodes: Object.fromEntries(["aws", "azure", "ovhcloud"].map((id) => [id, exampleLei(id)])),
    },
    exitPlanAt: "POST /v1/exit-plan",
  });
  const values: Record<string, Record<string, (row: RegisterTemplateT["rows"][number]) => string>> = {
    "B_05.01": {
      c0080: () => "eba_GA:IE",
      c0090: () => "eba_CU:EUR",
      c0100: () => "120000",
      c0110: (row) => row.cells.c0010!.value,
      c0120: () => "eba_qCO:qx2000",
    },
    "B_02.02": {
      c0070: () => "2024-01-01",
      c0080: () => "2028-12-31",
      c0100: () => "90",
      c0110: () => "180",
      c0120: () => "eba_GA:IE",
      c0130: () => "eba_GA:IE",
      c0140: () => "eba_BT:x28",
      c0170: () => "eba_ZZ:x793",
      c0180: () => "eba_ZZ:x797",
    },
    "B_05.02": { c0060: (row) => row.cells.c0030!.value, c0070: () => "eba_qCO:qx2000" },
    "B_07.01": {
      c0070: () => "2025-06-30",
      c0090: () => "eba_ZZ:x966",
      c0100: () => "eba_ZZ:x793",
    },
  };
  for (const template of register.templates)
    for (const row of template.rows)
      for (const [code, cell] of Object.entries(row.cells))
        if (cell.basis === "entity") {
          const value = values[template.id]?.[code]?.(row);
          if (value === undefined) throw new Error(`no value for ${template.id} ${code}`);
          (row.cells as Record<string, typeof cell>)[code] = { value, basis: "request" };
        }
  return register;
}

/** The register with one cell changed, and its checks run again. */
function broken(template: string, rowIndex: number, column: string, value: string) {
  const register = completed();
  const row = register.templates.find((entry) => entry.id === template)!.rows[rowIndex]!;
  (row.cells as Record<string, { value: string; basis: "request" }>)[column] = { value, basis: "request" };
  return { register, row, failures: runChecks(register.templates).failures };
}

describe("the checks the supervisors run on the register", () => {
  it("passes every check on the bank's register once the entity has filled its cells", () => {
    const register = completed();
    expect(register.templates[1]!.rows[0]!.cells.c0020!.value).toBe(BANK_LEI);
    expect(runChecks(register.templates).failures).toEqual([]);
  });

  it("names what the catalogue leaves to the entity as failures before it is filled", () => {
    const register = buildRegister(catalogue, {
      ids: BANK_REQUEST.approvedServiceIds,
      allowedLocations: BANK_REQUEST.allowedLocations,
      entity: BANK_REQUEST.entity,
      exitPlanAt: "x",
    });
    const rules = new Set(register.checks.failures.map((failure) => failure.rule));
    // No provider code is known (no GLEIF record in reach), so every key on it fails, and AWS's and
    // Microsoft's entities have no sourced country.
    expect(rules).toEqual(
      new Set(["v8854_m", "B_05-01 primary key", "B_02-02 primary key", "B_05-02 primary key", "B_07-01 primary key"]),
    );
  });

  const cases: [string, string, number, string, string, RegExp][] = [
    ["v8851_m: a provider row with anything reported reports its legal name", "B_05.01", 0, "c0050", "", /c0050/],
    [
      "v8854_m: a provider row with anything reported reports its head-office country",
      "B_05.01",
      1,
      "c0080",
      "",
      /c0080/,
    ],
    ["v8884_m: an assessment row with anything reported reports substitutability", "B_07.01", 0, "c0050", "", /c0050/],
    ["B_05-01 primary key: the provider code is reported", "B_05.01", 2, "c0010", "", /c0010/],
    ["B_02-02 primary key: the storage country is reported", "B_02.02", 0, "c0150", "", /c0150/],
    [
      "R18: the ultimate parent's code names a provider row",
      "B_05.01",
      0,
      "c0110",
      exampleLei("parent"),
      /names no row of B_05\.01/,
    ],
    [
      "R20: a supply chain's provider code names a provider row",
      "B_05.02",
      0,
      "c0030",
      exampleLei("other"),
      /names no row/,
    ],
    [
      "R21: a supply chain's recipient code names a provider row",
      "B_05.02",
      0,
      "c0060",
      exampleLei("other"),
      /names no row/,
    ],
    [
      "R22: an assessment's provider code names a provider row",
      "B_07.01",
      0,
      "c0020",
      exampleLei("other"),
      /names no row/,
    ],
    [
      "allowed values: the type of ICT services is one of S01 to S19",
      "B_02.02",
      0,
      "c0060",
      "eba_TA:S20",
      /closed list/,
    ],
    ["allowed values: substitutability is one of the ITS's four", "B_07.01", 0, "c0050", "eba_ZZ:x958", /closed list/],
    [
      "country code: a country is an ISO 3166-1 code of the GA domain",
      "B_02.02",
      0,
      "c0150",
      "eba_GA:EU",
      /ISO 3166-1/,
    ],
    ["currency code: a currency is an ISO 4217 member", "B_05.01", 0, "c0090", "EUR", /ISO 4217/],
    ["LEI: an LEI has ISO 17442 check digits", "B_02.02", 0, "c0020", `${BANK_LEI.slice(0, 18)}15`, /not a valid LEI/],
    ["date: a date is a real YYYY-MM-DD day", "B_02.02", 0, "c0070", "2026-02-30", /YYYY-MM-DD/],
    ["integer: a notice period is a whole number", "B_02.02", 0, "c0100", "ninety", /whole number/],
    ["code and its type: a code comes with its type", "B_05.02", 0, "c0040", "", /reported together/],
    ["B_07.01 c0120: alternatives identified are named", "B_07.01", 0, "c0120", "", /alternative providers/],
  ];
  for (const [name, template, rowIndex, column, value, message] of cases)
    it(`fails ${name}`, () => {
      const { row, failures } = broken(template, rowIndex, column, value);
      const rule = name.split(":")[0]!;
      const failed = failures.filter((failure) => failure.rule === rule);
      expect(failed.length, JSON.stringify(failures)).toBeGreaterThan(0);
      expect(failed.some((failure) => failure.row === row.label && message.test(failure.message))).toBe(true);
    });

  it("fails B_07.01 c0060: a hard substitutability gives its reason", () => {
    const register = completed();
    const row = register.templates[3]!.rows[0]!;
    const cells = row.cells as Record<string, { value: string; basis: "request" }>;
    cells.c0050 = { value: "eba_ZZ:x959", basis: "request" };
    cells.c0060 = { value: "", basis: "request" };
    const failures = runChecks(register.templates).failures;
    expect(failures.some((failure) => failure.rule === "B_07.01 c0060" && failure.row === row.label)).toBe(true);
  });

  it("fails a primary key given twice, naming the first row", () => {
    const register = completed();
    const rows = register.templates[0]!.rows;
    (rows[1]!.cells as Record<string, { value: string; basis: "request" }>).c0010 = {
      ...rows[0]!.cells.c0010!,
      basis: "request",
    };
    const failures = runChecks(register.templates).failures.filter((failure) => failure.rule === "B_05-01 primary key");
    expect(failures.map((failure) => failure.message)).toEqual([expect.stringContaining(rows[0]!.label)]);
  });
});
