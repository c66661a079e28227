/**
 * The checks the supervisors run on these templates, run on every register the catalogue writes:
 * the ESAs' published validation rules of the DORA taxonomy 4.0 that concern them (v8851_m,
 * v8854_m, v8884_m: a row that reports anything reports the name, the country, the
 * substitutability), its keys (each template's primary key, and the references R18, R20, R21, R22
 * between templates), the allowed members of every closed list, and the ITS's formats (LEI check
 * digits, ISO country codes, dates, integers) and conditional columns. Each failure names the rule,
 * the row and what to fill or fix before filing. Rule sources: ../reference/dora/SOURCE.md.
 */
import { isValidLei } from "../base/lei.ts";
import type { RegisterCheckT, RegisterTemplateT } from "../schema/index.ts";
import {
  GA_COUNTRIES,
  LEI_CODE_TYPE,
  REFERENCES_ELSEWHERE,
  SUBSTITUTABILITY,
  TEMPLATES,
  YES,
  type ColumnSpec,
  type TemplateSpec,
} from "./taxonomy.ts";

const TAXONOMY = "EBA DORA taxonomy 4.0";
const ITS = "ITS (EU) 2024/2956 Annex I";

type Rows = RegisterTemplateT["rows"];
type RowT = Rows[number];

const valueOf = (row: RowT, column: string) => row.cells[column]?.value ?? "";
const filled = (row: RowT, column: string) => valueOf(row, column) !== "";

/** The ESAs' "if any of these is reported, that one is" rules (val/vr-*_m.xml). */
const MANDATORY_RULES = [
  {
    rule: "v8851_m",
    template: "B_05.01",
    when: ["c0020", "c0030", "c0040", "c0060", "c0070", "c0080", "c0090", "c0100", "c0110", "c0120"],
    then: "c0050",
  },
  {
    rule: "v8854_m",
    template: "B_05.01",
    when: ["c0020", "c0030", "c0040", "c0050", "c0060", "c0070", "c0090", "c0100", "c0110", "c0120"],
    then: "c0080",
  },
  {
    rule: "v8884_m",
    template: "B_07.01",
    when: ["c0030", "c0060", "c0070", "c0080", "c0090", "c0100", "c0110", "c0120"],
    then: "c0050",
  },
] as const;

/** A failure, worded for the person who fixes it. */
function failure(
  rule: string,
  source: string,
  template: string,
  row: RowT | undefined,
  column: string | undefined,
  message: string,
): RegisterCheckT {
  return {
    rule,
    source,
    template,
    ...(column ? { column } : {}),
    ...(row ? { row: row.label } : {}),
    message,
  };
}

function columnName(spec: TemplateSpec, code: string) {
  return spec.columns.find((column) => column.code === code)?.name ?? code;
}

function mandatory(templates: ReadonlyMap<string, RegisterTemplateT>): RegisterCheckT[] {
  return MANDATORY_RULES.flatMap(({ rule, template, when, then }) => {
    const spec = TEMPLATES.find((entry) => entry.id === template)!;
    return (templates.get(template)?.rows ?? [])
      .filter((row) => when.some((column) => filled(row, column)) && !filled(row, then))
      .map((row) =>
        failure(
          rule,
          `${TAXONOMY}, val/vr-${rule}.xml`,
          template,
          row,
          then,
          `${then} (${columnName(spec, then)}) must be reported: the row reports other columns of ${template}.`,
        ),
      );
  });
}

function primaryKeys(spec: TemplateSpec, rows: Rows): RegisterCheckT[] {
  const rule = `${spec.tableTemplate} primary key`;
  const source = `${TAXONOMY}, tab/${spec.file.replace(".csv", "")}.json tc:keys`;
  const failures: RegisterCheckT[] = [];
  const seen = new Map<string, RowT>();
  for (const row of rows) {
    const empty = spec.primary.filter((column) => !filled(row, column));
    if (empty.length > 0) {
      failures.push(
        failure(
          rule,
          source,
          spec.id,
          row,
          empty.join(", "),
          `The key ${empty.map((column) => `${column} (${columnName(spec, column)})`).join(", ")} must be reported: rows are told apart by ${spec.primary.join(", ")}.`,
        ),
      );
      continue;
    }
    const key = spec.primary.map((column) => valueOf(row, column)).join("\u0000");
    const first = seen.get(key);
    if (first)
      failures.push(
        failure(
          rule,
          source,
          spec.id,
          row,
          spec.primary.join(", "),
          `The same key (${spec.primary.join(", ")}) as the row "${first.label}": give each row its own values, or merge them.`,
        ),
      );
    else seen.set(key, row);
  }
  return failures;
}

function references(spec: TemplateSpec, templates: ReadonlyMap<string, RegisterTemplateT>): RegisterCheckT[] {
  return spec.references.flatMap(({ columns, to, toColumns, name }) => {
    const targets = new Set(
      (templates.get(to)?.rows ?? []).map((row) => toColumns.map((column) => valueOf(row, column)).join("\u0000")),
    );
    const rule = name.split(" ")[0]!;
    return (templates.get(spec.id)?.rows ?? [])
      .filter((row) => columns.every((column) => filled(row, column)))
      .filter((row) => !targets.has(columns.map((column) => valueOf(row, column)).join("\u0000")))
      .map((row) =>
        failure(
          rule,
          `${TAXONOMY} tc:keys "${name}"`,
          spec.id,
          row,
          columns.join(", "),
          `${columns.join(", ")} (${columns.map((column) => valueOf(row, column)).join(", ")}) names no row of ${to} (${toColumns.join(", ")}): add that provider to ${to} or correct the code.`,
        ),
      );
  });
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A closed list's members, the format of dates, integers and LEIs, column by column. */
function formats(spec: TemplateSpec, rows: Rows): RegisterCheckT[] {
  const failures: RegisterCheckT[] = [];
  for (const row of rows)
    for (const column of spec.columns) {
      const value = valueOf(row, column.code);
      if (value === "") continue;
      const problem = formatProblem(spec, column, value, row);
      if (problem) failures.push(failure(problem.rule, problem.source, spec.id, row, column.code, problem.message));
    }
  return failures;
}

function formatProblem(spec: TemplateSpec, column: ColumnSpec, value: string, row: RowT) {
  const named = `${column.code} (${column.name})`;
  if (column.allowed === "GA") {
    const code = value.startsWith("eba_GA:") ? value.slice(7) : "";
    if (!GA_COUNTRIES.has(code))
      return {
        rule: "country code",
        source: `${ITS}: ISO 3166-1 alpha-2; ${TAXONOMY} GA domain`,
        message: `${named} holds "${value}": write the country as the taxonomy's member of its ISO 3166-1 alpha-2 code, e.g. eba_GA:DE.`,
      };
    return undefined;
  }
  if (column.allowed === "CU")
    return /^eba_CU:[A-Z]{3}$/.test(value)
      ? undefined
      : {
          rule: "currency code",
          source: `${ITS}: ISO 4217; ${TAXONOMY} CU domain`,
          message: `${named} holds "${value}": write the currency as eba_CU: and its ISO 4217 code, e.g. eba_CU:EUR.`,
        };
  if (Array.isArray(column.allowed) && !column.allowed.includes(value))
    return {
      rule: "allowed values",
      source: `${TAXONOMY}, ${spec.file.replace(".csv", ".json")} AllowedValue`,
      message: `${named} holds "${value}", which is not one of its closed list (${column.allowed.join(", ")}).`,
    };
  if (column.type === "d" && !isIsoDate(value))
    return {
      rule: "date",
      source: `${ITS}: dates in ISO 8601 (YYYY-MM-DD)`,
      message: `${named} holds "${value}": write a date as YYYY-MM-DD.`,
    };
  if (column.type === "i" && !/^-?\d+$/.test(value))
    return {
      rule: "integer",
      source: `${TAXONOMY}: type i`,
      message: `${named} holds "${value}": write a whole number.`,
    };
  const isLei =
    (column.codeTypeIn && valueOf(row, column.codeTypeIn) === LEI_CODE_TYPE) ||
    (spec.id === "B_02.02" && column.code === "c0020");
  if (isLei && !isValidLei(value))
    return {
      rule: "LEI",
      source: `${ITS}: LEI in ISO 17442 format`,
      message: `${named} holds "${value}", which is not a valid LEI (20 characters with ISO 17442 check digits): correct it from the GLEIF record.`,
    };
  return undefined;
}

/** The ITS's conditional columns: a code with its type, a reason for hard substitutability, the alternatives named. */
function conditionals(spec: TemplateSpec, rows: Rows): RegisterCheckT[] {
  const failures: RegisterCheckT[] = [];
  for (const row of rows) {
    for (const column of spec.columns)
      if (column.codeTypeIn && filled(row, column.code) !== filled(row, column.codeTypeIn))
        failures.push(
          failure(
            "code and its type",
            ITS,
            spec.id,
            row,
            filled(row, column.code) ? column.codeTypeIn : column.code,
            `${column.code} (${column.name}) and ${column.codeTypeIn} (its type) are reported together: fill the one missing.`,
          ),
        );
    if (spec.id !== "B_07.01") continue;
    const substitutability = valueOf(row, "c0050");
    if (
      (substitutability === SUBSTITUTABILITY.not || substitutability === SUBSTITUTABILITY.highlyComplex) &&
      !filled(row, "c0060")
    )
      failures.push(
        failure(
          "B_07.01 c0060",
          ITS,
          spec.id,
          row,
          "c0060",
          "c0060 (the reason) is mandatory when c0050 is not substitutable or highly complex substitutability.",
        ),
      );
    if (valueOf(row, "c0110") === YES && !filled(row, "c0120"))
      failures.push(
        failure(
          "B_07.01 c0120",
          ITS,
          spec.id,
          row,
          "c0120",
          "c0120 (the alternative providers) is to be reported when c0110 says alternatives are identified.",
        ),
      );
  }
  return failures;
}

/** Every check, run on the register's four templates (the request's LEI is B_02.02 c0020's, checked there). */
export function runChecks(templates: readonly RegisterTemplateT[]) {
  const byId = new Map(templates.map((template) => [template.id, template]));
  const failures: RegisterCheckT[] = [...mandatory(byId)];
  for (const spec of TEMPLATES) {
    const rows = byId.get(spec.id)?.rows ?? [];
    failures.push(
      ...primaryKeys(spec, rows),
      ...references(spec, byId),
      ...formats(spec, rows),
      ...conditionals(spec, rows),
    );
  }
  return {
    failures,
    run: [
      ...MANDATORY_RULES.map(({ rule }) => rule),
      ...TEMPLATES.map((spec) => `${spec.tableTemplate} primary key`),
      ...TEMPLATES.flatMap((spec) => spec.references.map(({ name }) => name.split(" ")[0]!)),
      "allowed values",
      "country code",
      "currency code",
      "LEI",
      "date",
      "integer",
      "code and its type",
      "B_07.01 c0060",
      "B_07.01 c0120",
    ],
    notRun: [
      ...REFERENCES_ELSEWHERE.map((reference) => `${reference}: not in this package`),
      "The LEI's status in GLEIF (issued, not lapsed): the ESAs look it up after submission; no GLEIF data is in reach here.",
    ],
  };
}
