/**
 * The report package read back by independent parsers — yauzl (a zip reader) and csv-parse (a CSV
 * parser) — against the rules of Report Package 1.0, xBRL-CSV 1.0 and the DORA module's table
 * templates (vendored in catalogue/reference/dora/). No full xBRL processor is in reach: Arelle,
 * the reference processor the ESAs' own checks build on, is Python, and PyPI is not reachable here;
 * no npm package reads xBRL-CSV (docs/register.md, "Reading the package back").
 */
import { readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import { buildRegister } from "../../catalogue/register/build.ts";
import { reportPackage, templateCsv } from "../../catalogue/register/package.ts";
import { BANK_REQUEST } from "../fixtures/register-bank.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const vendored = JSON.parse(
  readFileSync(new URL("../../catalogue/reference/dora/eba-dora-4.0-tables.json", import.meta.url), "utf8"),
) as {
  module: { entryPoint: string; tables: Record<string, { template: string; url: string }> };
  qCO: string[];
  TA: string[];
  tableTemplates: Record<
    string,
    { columns: Record<string, { type: string; allowed?: string | string[]; domain?: string }> }
  >;
};
const gaMembers = new Set(
  readFileSync(new URL("../../catalogue/reference/dora/eba-ga-members.txt", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("eba_GA:")),
);

/** Every entry of a zip, by name, as yauzl reads it. */
function unzip(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, strictFileNames: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

const readCsv = (buffer: Buffer) => parseCsv(buffer, { relax_column_count: false, bom: false }) as string[][];

/** The structural errors of a report package, by the specifications' rules; [] when it is well formed. */
async function structuralErrors(bytes: Uint8Array): Promise<string[]> {
  const errors: string[] = [];
  const files = await unzip(bytes);
  const names = [...files.keys()];
  // Report Package 1.0: one top-level directory holding META-INF/reportPackage.json and reports/.
  const tops = new Set(names.map((name) => name.split("/")[0]));
  if (tops.size !== 1) errors.push(`${tops.size} top-level directories`);
  const top = [...tops][0]!;
  const meta = files.get(`${top}/META-INF/reportPackage.json`);
  if (!meta) errors.push("no META-INF/reportPackage.json");
  else if (JSON.parse(meta.toString("utf8")).documentInfo?.documentType !== "https://xbrl.org/report-package/2023")
    errors.push("reportPackage.json: not a report package 2023 document type");
  const reports = names.filter((name) => name.startsWith(`${top}/reports/`));
  const jsons = reports.filter((name) => name.endsWith(".json"));
  // An unconstrained (.zip) package's reports/ holds one report: its JSON metadata file at the top of reports/.
  if (jsons.length !== 1 || jsons[0] !== `${top}/reports/report.json`)
    errors.push(`reports/ holds ${jsons.join(", ")}`);
  const report = JSON.parse(files.get(`${top}/reports/report.json`)!.toString("utf8")) as {
    documentInfo: { documentType: string; extends: string[] };
  };
  if (report.documentInfo.documentType !== "https://xbrl.org/2021/xbrl-csv") errors.push("report.json: not xBRL-CSV");
  if (JSON.stringify(report.documentInfo.extends) !== JSON.stringify([vendored.module.entryPoint]))
    errors.push("report.json does not extend the DORA module");
  for (const name of reports) {
    const text = files.get(name)!;
    // xBRL-CSV: CSV files are UTF-8 (no byte order mark required); every line has the header's fields.
    if (text[0] === 0xef) errors.push(`${name}: byte order mark`);
    if (!name.endsWith(".csv")) continue;
    const rows = readCsv(text);
    const file = name.slice(`${top}/reports/`.length);
    if (file === "parameters.csv") {
      if (JSON.stringify(rows[0]) !== JSON.stringify(["name", "value"])) errors.push("parameters.csv header");
      const parameters = new Map(rows.slice(1).map(([key, value]) => [key!, value!]));
      if (parameters.size !== rows.length - 1) errors.push("parameters.csv: a name twice");
      // What the module and its tables refer to as $parameter.
      for (const needed of ["entityID", "refPeriod", "baseCurrency", "decimalsInteger", "decimalsMonetary"])
        if (!parameters.has(needed)) errors.push(`parameters.csv: no ${needed}`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(parameters.get("refPeriod") ?? "")) errors.push("refPeriod is not a date");
      if (!/^iso4217:[A-Z]{3}$/.test(parameters.get("baseCurrency") ?? "")) errors.push("baseCurrency");
      if (!/^rs:[A-Z0-9]{20}\.(IND|CON)$/.test(parameters.get("entityID") ?? "")) errors.push("entityID");
      continue;
    }
    if (file === "FilingIndicators.csv") {
      if (JSON.stringify(rows[0]) !== JSON.stringify(["templateID", "reported"]))
        errors.push("FilingIndicators header");
      for (const [template, reported] of rows.slice(1))
        if (!/^B_\d{2}\.\d{2}$/.test(template!) || !["true", "false"].includes(reported!))
          errors.push(`FilingIndicators: ${template},${reported}`);
      continue;
    }
    const table = Object.values(vendored.module.tables).find((entry) => entry.url === file);
    if (!table) {
      errors.push(`${file} is no table of the module`);
      continue;
    }
    const columns = vendored.tableTemplates[table.template]!.columns;
    const header = rows[0]!;
    for (const column of header)
      if (!(column in columns)) errors.push(`${file}: column ${column} not in ${table.template}`);
    for (const row of rows.slice(1))
      header.forEach((column, index) => {
        const value = row[index]!;
        if (value === "") return;
        const spec = columns[column]!;
        const allowed =
          spec.allowed === "qCO"
            ? vendored.qCO
            : spec.allowed === "TA"
              ? vendored.TA
              : Array.isArray(spec.allowed)
                ? spec.allowed
                : undefined;
        if (allowed && !allowed.includes(value)) errors.push(`${file} ${column}: ${value} not allowed`);
        if (spec.domain === "GA" && !gaMembers.has(value)) errors.push(`${file} ${column}: ${value} not a GA member`);
        if (spec.type === "d" && !/^\d{4}-\d{2}-\d{2}$/.test(value))
          errors.push(`${file} ${column}: ${value} not xs:date`);
        if (spec.type === "i" && !/^-?\d+$/.test(value)) errors.push(`${file} ${column}: ${value} not an integer`);
      });
  }
  return errors;
}

const bank = () =>
  buildRegister(catalogue, {
    ids: BANK_REQUEST.approvedServiceIds,
    allowedLocations: BANK_REQUEST.allowedLocations,
    to: BANK_REQUEST.to,
    entity: BANK_REQUEST.entity,
    exitPlanAt: "POST /v1/exit-plan",
  });

describe("the register's xBRL-CSV report package", () => {
  it("reads back with 0 structural errors", async () => {
    expect(await structuralErrors(reportPackage(bank()))).toEqual([]);
  });

  it("holds the four tables with the register's values, cell for cell", async () => {
    const register = bank();
    const files = await unzip(reportPackage(register));
    for (const template of register.templates) {
      const [name] = [...files.keys()].filter((entry) => entry.endsWith(`/reports/${template.file}`));
      const rows = readCsv(files.get(name!)!);
      expect(rows[0]).toEqual(template.columns.map((column) => column.code));
      expect(rows.slice(1)).toEqual(
        template.rows.map((row) => template.columns.map((column) => row.cells[column.code]!.value)),
      );
      expect(files.get(name!)!.toString("utf8")).toBe(templateCsv(template));
    }
  });

  it("is the same bytes for the same register, whenever it is made", () => {
    expect(Buffer.from(reportPackage(bank())).equals(Buffer.from(reportPackage(bank())))).toBe(true);
  });

  it("is found broken when a file or a value breaks the rules (the reader is no rubber stamp)", async () => {
    const register = bank();
    const cell = register.templates[1]!.rows[0]!.cells.c0060!;
    (register.templates[1]!.rows[0]!.cells as Record<string, typeof cell>).c0060 = { ...cell, value: "eba_TA:S20" };
    expect(await structuralErrors(reportPackage(register))).toEqual(["b_02.02.csv c0060: eba_TA:S20 not allowed"]);
  });
});
