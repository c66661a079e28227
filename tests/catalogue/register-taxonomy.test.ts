import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidLei, leiCheckDigits } from "../../catalogue/base/lei.ts";
import {
  GA_COUNTRIES,
  MEMBER_LABELS,
  SERVICE_TYPE_NAMES,
  TAXONOMY_ENTRY_POINT,
  TEMPLATES,
} from "../../catalogue/register/taxonomy.ts";
import { realCatalogue } from "../helpers/app.ts";

const reference = (file: string) => new URL(`../../catalogue/reference/dora/${file}`, import.meta.url);
const tables = JSON.parse(readFileSync(reference("eba-dora-4.0-tables.json"), "utf8")) as {
  module: { entryPoint: string; tables: Record<string, { template: string; url: string }> };
  qCO: string[];
  TA: string[];
  tableTemplates: Record<
    string,
    {
      columns: Record<string, { type: string; allowed?: string | string[]; domain?: string }>;
      primary: string[];
      reference: { columns: string[]; tableTemplate: string; name: string }[];
    }
  >;
};
const its = parseYaml(readFileSync(reference("its-2024-2956.yaml"), "utf8")) as {
  templates: Record<string, { name: string; columns: Record<string, string> }>;
  lists: Record<string, Record<string, string>>;
  serviceTypes: Record<string, string>;
};
const gaMembers = readFileSync(reference("eba-ga-members.txt"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("eba_GA:"));

describe("the register's templates are the taxonomy's and the ITS's", () => {
  it("each template has the ITS's name and columns, in order, with the taxonomy's types and members", () => {
    for (const spec of TEMPLATES) {
      const table = tables.tableTemplates[spec.tableTemplate]!;
      expect(spec.name).toBe(its.templates[spec.id]!.name);
      expect(spec.columns.map((column) => column.code)).toEqual(Object.keys(table.columns));
      expect(spec.columns.map((column) => column.name)).toEqual(Object.values(its.templates[spec.id]!.columns));
      for (const column of spec.columns) {
        const vendored = table.columns[column.code]!;
        expect(column.type, `${spec.id} ${column.code}`).toBe(vendored.type);
        const allowed =
          vendored.allowed === "qCO"
            ? tables.qCO
            : vendored.allowed === "TA"
              ? tables.TA
              : (vendored.allowed ?? vendored.domain);
        expect(column.allowed ?? undefined, `${spec.id} ${column.code}`).toEqual(allowed);
      }
    }
  });

  it("each template's primary key, references and CSV file are the taxonomy's", () => {
    for (const spec of TEMPLATES) {
      const table = tables.tableTemplates[spec.tableTemplate]!;
      expect(spec.primary).toEqual(table.primary);
      const tableEntry = Object.values(tables.module.tables).find((entry) => entry.template === spec.tableTemplate)!;
      expect(spec.file).toBe(tableEntry.url);
      // References into the templates the register writes are checked; the others are named as not run.
      const written = new Set(TEMPLATES.map((template) => template.tableTemplate));
      const checked = table.reference.filter((entry) => written.has(entry.tableTemplate));
      expect(spec.references.map((entry) => entry.columns)).toEqual(checked.map((entry) => entry.columns));
      expect(spec.references.map((entry) => entry.name.split(" ")[0])).toEqual(
        checked.map((entry) => entry.name.split(" ")[0]),
      );
    }
    expect(TAXONOMY_ENTRY_POINT).toBe(tables.module.entryPoint);
  });

  it("the member labels and service types are the ITS's words, and the countries the GA domain's", () => {
    for (const [memberId, label] of MEMBER_LABELS) {
      const listed = Object.values(its.lists).find((list) => memberId in list);
      expect(listed?.[memberId], memberId).toBe(label);
    }
    expect(Object.fromEntries(SERVICE_TYPE_NAMES)).toEqual(its.serviceTypes);
    expect([...GA_COUNTRIES].map((code) => `eba_GA:${code}`)).toEqual(
      gaMembers.filter((member) => member !== "eba_GA:x28"),
    );
  });

  it("every category of the catalogue has an ICT service type", () => {
    const catalogue = realCatalogue();
    const typed = new Set(catalogue.source.register!.serviceTypes.map((row) => row.category));
    expect(catalogue.categories.filter((category) => !typed.has(category.id))).toEqual([]);
  });
});

describe("LEIs (ISO 17442)", () => {
  it("accepts an LEI whose check digits are right and refuses every other pair", () => {
    expect(isValidLei("9695001J8OSOVX4TP939")).toBe(true);
    for (let digits = 0; digits < 100; digits += 1) {
      const candidate = `9695001J8OSOVX4TP9${String(digits).padStart(2, "0")}`;
      expect(isValidLei(candidate), candidate).toBe(digits === 39);
    }
  });

  it("the check digits computed for any prefix make a valid LEI, and one changed character breaks it", () => {
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { minLength: 18, maxLength: 18 }), fc.nat(17), (chars, at) => {
        const prefix = chars.join("");
        const lei = `${prefix}${leiCheckDigits(prefix)}`;
        expect(isValidLei(lei)).toBe(true);
        const other = alphabet[(alphabet.indexOf(prefix[at]!) + 1) % alphabet.length]!;
        expect(isValidLei(`${prefix.slice(0, at)}${other}${prefix.slice(at + 1)}${leiCheckDigits(prefix)}`)).toBe(
          false,
        );
      }),
    );
  });

  it("every LEI the register data stores passes", () => {
    const entities = realCatalogue().source.register!.entities;
    const leis = entities.flatMap((entry) => [entry.contractingEntity.lei, entry.parent?.lei]).filter(Boolean);
    expect(leis.length).toBeGreaterThan(0);
    for (const lei of leis) expect(isValidLei(lei!), lei).toBe(true);
  });
});
