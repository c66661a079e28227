/**
 * Renders a Doc for a terminal: 80 columns unless asked for another width (TEXT_WIDTH), colour only
 * through SGR escape codes, none at all when `color` is false (?color=never, NO_COLOR). Text is
 * stripped of control characters first, so data and user input can never emit escape sequences of
 * their own.
 */
import { TEXT_WIDTH } from "../limits.ts";
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

function truncate(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, Math.max(0, width - 1))}…`;
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
      return b.rows.flatMap(([label, value]) => {
        const lines = wrap(plainInline(value), width - labelWidth - 1);
        return lines.map(
          (line, i) =>
            `${i === 0 ? style.dim(truncate(`${clean(label)}:`, labelWidth)) : " ".repeat(labelWidth)} ${line}`,
        );
      });
    }
    case "table": {
      const rows = b.rows.map((cells) => cells.map((cell) => plainInline([cell])));
      const widths = b.head.map((head, column) =>
        Math.max(head.length, ...rows.map((row) => (row[column] ?? "").length)),
      );
      // Shrink the widest columns until the table fits in the terminal.
      const gaps = 2 * (widths.length - 1);
      while (widths.reduce((sum, w) => sum + w, 0) + gaps > width) {
        const widest = widths.indexOf(Math.max(...widths));
        if (widths[widest]! <= 6) break;
        widths[widest]!--;
      }
      const line = (cells: readonly string[]) =>
        cells
          .map((cell, column) => truncate(cell, widths[column]!))
          .join("  ")
          .trimEnd();
      return [style.bold(line(b.head)), style.dim(widths.map((w) => "─".repeat(w)).join("  ")), ...rows.map(line)];
    }
  }
}

/** `width` is the terminal's columns (TEXT_WIDTH.min to TEXT_WIDTH.max; 80 by default). */
export function renderAnsi(doc: Doc, color: boolean, width: number = TERMINAL_WIDTH): string {
  const style = color ? COLOUR : PLAIN;
  return `${doc.blocks.map((b) => block(b, style, width).join("\n")).join("\n\n")}\n`;
}
