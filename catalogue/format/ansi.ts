/**
 * Renders a Doc for a terminal: 80 columns unless asked for another width (TEXT_WIDTH), colour only
 * through SGR escape codes, none at all when `color` is false (?color=never, NO_COLOR). Text is
 * stripped of control characters first, so data and user input can never emit escape sequences of
 * their own.
 */
import { TEXT_WIDTH } from "../base/limits.ts";
import { inlineText, stripControl, type Block, type Doc, type Inline } from "./doc.ts";

export const TERMINAL_WIDTH = TEXT_WIDTH.default;

interface Style {
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
  warn(text: string): string;
  link(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const COLOUR: Style = { bold: sgr(1, 22), dim: sgr(2, 22), accent: sgr(36, 39), warn: sgr(33, 39), link: sgr(4, 24) };
const PLAIN: Style = { bold: (t) => t, dim: (t) => t, accent: (t) => t, warn: (t) => t, link: (t) => t };

/** Wraps text to a width, breaking words longer than the width. */
export function wrap(text: string, width: number, indent = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > width - indent.length) {
      if (line) {
        lines.push(line);
        line = "";
      }
      lines.push(indent + word.slice(0, width - indent.length));
      word = word.slice(width - indent.length);
    }
    if (!word) continue;
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line} ${word}` : indent + word;
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [indent];
}

const clean = (text: string) => stripControl(text).replace(/\s+/g, " ");

function plainInline(parts: readonly Inline[]): string {
  return parts
    .map((part) =>
      typeof part !== "string" && "href" in part && part.text !== part.href
        ? `${clean(part.text)} <${clean(part.href)}>`
        : clean(inlineText(part)),
    )
    .join("");
}

function block(b: Block, style: Style, width: number): string[] {
  switch (b.kind) {
    case "heading": {
      const text = clean(b.text);
      if (b.level === 1)
        return [
          ...wrap(text, width).map((line) => style.bold(style.accent(line))),
          style.accent("═".repeat(Math.min(text.length, width))),
        ];
      return wrap(b.level === 2 ? text.toUpperCase() : text, width).map((line) => style.bold(line));
    }
    case "paragraph":
      return wrap(plainInline(b.parts), width);
    case "note": {
      const lines = wrap(plainInline(b.parts), width - 2, "");
      const mark = b.tone === "warning" ? style.warn("!") : style.accent("i");
      return lines.map((line, i) => `${i === 0 ? mark : " "} ${b.tone === "warning" ? style.warn(line) : line}`);
    }
    case "list":
      return b.items.flatMap((item) =>
        wrap(plainInline(item), width, "  ").map((line, i) => (i === 0 ? `•${line.slice(1)}` : line)),
      );
    case "fields": {
      // Up to 32 columns of label ("Provider-wide (Tencent Cloud):" fits whole), at most 40% of a narrow terminal.
      const labelWidth = Math.min(32, Math.floor(width * 0.4), Math.max(...b.rows.map(([label]) => label.length)) + 1);
      const column = width - labelWidth - 1;
      return b.rows.flatMap(([label, value]) => {
        // A URL or path too long for the value column follows the row on a line of its own, whole.
        const words = plainInline(value).split(" ");
        const long = words.filter((word) => word.length > column && isAddress(word));
        const lines = wrap(words.filter((word) => !long.includes(word)).join(" "), column);
        // A label longer than its column wraps too ("Provider-wide (Google Cloud):").
        const labels = wrap(`${clean(label)}:`, labelWidth);
        return Array.from({ length: Math.max(lines.length, labels.length) }, (_, i) => {
          const labelLine = (labels[i] ?? "").padEnd(labelWidth);
          return `${labels[i] ? style.dim(labelLine) : labelLine} ${lines[i] ?? ""}`.trimEnd();
        }).concat(long.map((word) => style.link(word)));
      });
    }
    case "table":
      return table(b, style, width);
  }
}

/** A URL or a path as plainInline writes it (`<…>`, `…://…`). */
const isAddress = (word: string) => /^<\S+>$|^\S+:\/\/\S+$/.test(word);

const longestWord = (text: string) => Math.max(0, ...text.split(/\s+/).map((word) => word.length));

/**
 * Column widths that fit `width`: the widest columns shrink, none below 6 nor (when `whole`) below
 * its longest word; undefined when `whole` asks for more room than there is.
 */
function columnWidths(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  whole: boolean,
): number[] | undefined {
  const widths = head.map((label, column) => Math.max(label.length, ...rows.map((row) => (row[column] ?? "").length)));
  const floors = head.map((label, column) =>
    whole ? Math.max(6, longestWord(label), ...rows.map((row) => longestWord(row[column] ?? ""))) : 6,
  );
  const gaps = 2 * (widths.length - 1);
  while (widths.reduce((sum, w) => sum + w, 0) + gaps > width) {
    const shrinkable = widths.map((w, column) => (w > floors[column]! ? w : -1));
    const widest = shrinkable.indexOf(Math.max(...shrinkable));
    if (shrinkable[widest]! < 0) return whole ? undefined : widths;
    widths[widest]!--;
  }
  return widths;
}

/**
 * A table as columns: the widest columns shrink until it fits, and a cell that does not fit its
 * column wraps within it at spaces. A URL or path is never cut: when a link's target is too long
 * for its column, the row's cells keep the links' text and the targets follow the row, each on a
 * line of its own. Rows that wrap are set apart by a blank line, so a row's lines read together.
 */
function table(b: Extract<Block, { kind: "table" }>, style: Style, width: number): string[] {
  const inline = b.rows.map((cells) => cells.map((cell) => plainInline([cell])));
  let rows = inline;
  let targets: string[][] = rows.map(() => []);
  let widths = columnWidths(b.head, rows, width, true);
  if (!widths) {
    const isLink = (cell: Inline): cell is { text: string; href: string } => typeof cell !== "string" && "href" in cell;
    // A bare URL's cell points down to it.
    rows = b.rows.map((cells) =>
      cells.map((cell) => (!isLink(cell) ? plainInline([cell]) : cell.text === cell.href ? "↓" : clean(cell.text))),
    );
    // Each target under its row, named by its text where the line has room for both.
    const targetLine = (cell: { text: string; href: string }) => {
      const label = cell.text === cell.href ? "" : `${clean(cell.text)}: `;
      const target = `<${clean(cell.href)}>`;
      const indented =
        2 + label.length + target.length <= width ? `  ${label}` : 2 + target.length <= width ? "  " : "";
      // A target longer than the terminal is still whole: the terminal folds it, a copy keeps it.
      return `${indented}${style.link(target)}`;
    };
    targets = b.rows.map((cells) => cells.filter(isLink).map(targetLine));
    // Still too narrow for a word of the links' text: cut it as a last resort, never a URL.
    widths = columnWidths(b.head, rows, width, true) ?? columnWidths(b.head, rows, width, false)!;
  }
  const lines = (cells: readonly string[]): string[] => {
    const wrapped = widths.map((w, column) => (cells[column] ? wrap(cells[column], w) : [""]));
    const height = Math.max(...wrapped.map((cell) => cell.length));
    return Array.from({ length: height }, (_, at) =>
      wrapped
        .map((cell, column) => (cell[at] ?? "").padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    );
  };
  const body = rows.map((cells, row) => [...lines(cells), ...targets[row]!]);
  const apart = body.some((row) => row.length > 1);
  return [
    ...lines(b.head).map((line) => style.bold(line)),
    style.dim(widths.map((w) => "─".repeat(w)).join("  ")),
    ...body.flatMap((row, i) => (apart && i > 0 ? ["", ...row] : row)),
  ];
}

/** `width` is the terminal's columns (TEXT_WIDTH.min to TEXT_WIDTH.max; 80 by default). */
export function renderAnsi(doc: Doc, color: boolean, width: number = TERMINAL_WIDTH): string {
  const style = color ? COLOUR : PLAIN;
  return `${doc.blocks.map((b) => block(b, style, width).join("\n")).join("\n\n")}\n`;
}
