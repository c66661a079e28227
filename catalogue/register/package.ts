/**
 * The register as files: one CSV per template as the xBRL-CSV table (a header of column codes, one
 * line a row, a taxonomy member or value per cell, empty for no fact), and the report package the
 * ESAs take — a zip holding one top-level folder with META-INF/reportPackage.json (Report Package
 * 1.0, type https://xbrl.org/report-package/2023) and reports/: report.json (xBRL-CSV 1.0, extending
 * the DORA module's entry point), parameters.csv, FilingIndicators.csv and the four tables. The
 * bytes depend only on the register (fixed file times), so the same register is the same package.
 */
import { zipSync, strToU8 } from "fflate";
import { toCsv } from "../format/csv.ts";
import type { RegisterT, RegisterTemplateT } from "../schema/index.ts";
import { REPORT_PACKAGE_TYPE, TAXONOMY_ENTRY_POINT, XBRL_CSV_TYPE } from "./taxonomy.ts";

/** One template as its xBRL-CSV table. */
export const templateCsv = (template: RegisterTemplateT): string =>
  toCsv([
    template.columns.map((column) => column.code),
    ...template.rows.map((row) => template.columns.map((column) => row.cells[column.code]?.value ?? "")),
  ]);

/** The package's name: the register's reference date, so a re-filing is told apart. */
export const packageName = (register: RegisterT) => `dora-register-${register.parameters.refPeriod}`;

/** The package's files, by path inside the zip (the top-level folder first). */
export function packageFiles(register: RegisterT): Record<string, string> {
  const top = packageName(register);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: Record<string, string> = {
    [`${top}/META-INF/reportPackage.json`]: json({ documentInfo: { documentType: REPORT_PACKAGE_TYPE } }),
    [`${top}/reports/report.json`]: json({
      documentInfo: { documentType: XBRL_CSV_TYPE, extends: [TAXONOMY_ENTRY_POINT] },
    }),
    [`${top}/reports/parameters.csv`]: toCsv([["name", "value"], ...Object.entries(register.parameters)]),
    [`${top}/reports/FilingIndicators.csv`]: toCsv([
      ["templateID", "reported"],
      ...register.templates.map((template) => [template.id, "true"]),
    ]),
  };
  for (const template of register.templates) files[`${top}/reports/${template.file}`] = templateCsv(template);
  return files;
}

/** 1980-01-01, the earliest time a zip entry holds: no clock goes into the package. */
const FIXED_TIME = new Date(Date.UTC(1980, 0, 1));

/** The report package's bytes. */
export function reportPackage(register: RegisterT): Uint8Array {
  const files = packageFiles(register);
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([path, text]) => [path, [strToU8(text), { mtime: FIXED_TIME }]])),
    { level: 6 },
  );
}
