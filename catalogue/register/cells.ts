/**
 * A register cell by where its value comes from (RegisterCell.basis), and the list of what the
 * entity is left to fill, made from the cells themselves so that no empty cell goes unnamed.
 */
import type { RegisterCellT, RegisterTemplateT } from "../schema/index.ts";
import { MEMBER_LABELS } from "./taxonomy.ts";

export interface Row {
  readonly label: string;
  readonly services: string[];
  readonly cells: Readonly<Record<string, RegisterCellT>>;
}

/** A sourced fact of the catalogue. */
export const fact = (value: string, source: string): RegisterCellT => ({ value, basis: "catalogue", source });

/** A value the request gave. */
export const fromRequest = (value: string): RegisterCellT => ({ value, basis: "request", source: "the request" });

/** A taxonomy member, with the ITS's words for it. */
export function member(value: string, basis: RegisterCellT["basis"], source?: string): RegisterCellT {
  const label = MEMBER_LABELS.get(value);
  return { value, basis, ...(label ? { label } : {}), ...(source ? { source } : {}) };
}

/** Only the entity knows it: empty, with what to enter. */
export const entityCell = (note: string): RegisterCellT => ({ value: "", basis: "entity", note });

/** A value (or an empty cell) the ITS fixes for this row. */
export const ruleCell = (value: string, note?: string): RegisterCellT => ({
  value,
  basis: "rule",
  ...(note ? { note } : {}),
});

/** Every column with an entity cell, in template and column order, with the rows it is empty in. */
export function toFillOf(templates: readonly RegisterTemplateT[]) {
  return templates.flatMap((template) =>
    template.columns.flatMap(({ code, name }) => {
      const rows = template.rows.filter((row) => row.cells[code]?.basis === "entity");
      if (rows.length === 0) return [];
      const why = rows[0]!.cells[code]!.note ?? "Only the entity knows it.";
      return [{ template: template.id, column: code, name, rows: rows.map((row) => row.label), why }];
    }),
  );
}
