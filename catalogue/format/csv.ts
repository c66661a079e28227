/**
 * The one CSV writer (RFC 4180): the exit plan's CSV answer and the site's table downloads. A field
 * is quoted when it holds a quote, comma or line break; a leading =, +, -, @, tab or carriage return
 * is defused with an apostrophe, since spreadsheets would run it as a formula.
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
export type CsvRow = readonly (string | number | boolean)[];

function csvField(value: string | number | boolean): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each line ended by CRLF. */
export const toCsv = (rows: readonly CsvRow[]): string =>
  `${rows.map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
