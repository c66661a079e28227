/**
 * Renders a Doc for a terminal: 80 columns, colour only through SGR escape codes, none at all when
 * `color` is false (?color=never, NO_COLOR). Text is stripped of control characters first, so data
 * and user input can never emit escape sequences of their own.
 */
import { inlineText, stripControl, type Block, type Doc, type Inline } from "./doc.ts";

export const TERMINAL_WIDTH = 80;

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

function block(b: Block, style: Style): string[] {
  switch (b.kind) {
    case "heading": {
      const text = clean(b.text);
      if (b.level === 1)
        return [style.bold(style.accent(text)), style.accent("═".repeat(Math.min(text.length, TERMINAL_WIDTH)))];
      return [style.bold(b.level === 2 ? text.toUpperCase() : text)];
    }
    case "paragraph":
      return wrap(plainInline(b.parts), TERMINAL_WIDTH);
    case "note": {
      const lines = wrap(plainInline(b.parts), TERMINAL_WIDTH - 2, "");
      const mark = b.tone === "warning" ? style.warn("!") : style.accent("i");
      return lines.map((line, i) => `${i === 0 ? mark : " "} ${b.tone === "warning" ? style.warn(line) : line}`);
    }
    case "list":
      return b.items.flatMap((item) =>
        wrap(plainInline(item), TERMINAL_WIDTH, "  ").map((line, i) => (i === 0 ? `•${line.slice(1)}` : line)),
      );
    case "fields": {
      // Up to 32 columns of label: "Provider-wide (Tencent Cloud):" fits whole.
      const labelWidth = Math.min(32, Math.max(...b.rows.map(([label]) => label.length)) + 1);
      return b.rows.flatMap(([label, value]) => {
        const lines = wrap(plainInline(value), TERMINAL_WIDTH - labelWidth - 1);
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
      while (widths.reduce((sum, w) => sum + w, 0) + gaps > TERMINAL_WIDTH) {
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

export function renderAnsi(doc: Doc, color: boolean): string {
  const style = color ? COLOUR : PLAIN;
  return `${doc.blocks.map((b) => block(b, style).join("\n")).join("\n\n")}\n`;
}
