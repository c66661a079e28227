/** Renders a Doc as CommonMark. Every text is escaped, so data and user input cannot inject markup. */
import { stripControl, type Block, type Doc, type Inline } from "./doc.ts";

/** Escapes Markdown punctuation and HTML so text renders literally. */
export function escapeMarkdown(text: string): string {
  return stripControl(text)
    .replace(/\r?\n/g, " ")
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/^([#+-]|\d+[.)])/, "\\$1");
}

/**
 * Link text escaped with backslashes alone (CommonMark's escapes of ASCII punctuation): an entity
 * such as &amp; inside a link reads as itself in a plain-text viewer and in some renderers.
 */
function escapeLinkText(text: string): string {
  return stripControl(text)
    .replace(/\r?\n/g, " ")
    .replace(/[\\`*_[\]|~&<>]/g, (c) => `\\${c}`);
}

const escapeUrl = (url: string) => url.replace(/[()\s<>]/g, (c) => encodeURIComponent(c));

function inline(parts: readonly Inline[]): string {
  return parts
    .map((part) => {
      if (typeof part === "string") return escapeMarkdown(part);
      if ("strong" in part) return `**${escapeMarkdown(part.strong)}**`;
      return `[${escapeLinkText(part.text)}](${escapeUrl(part.href)})`;
    })
    .join("");
}

function block(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(b.level)} ${escapeMarkdown(b.text)}`;
    case "paragraph":
      return inline(b.parts);
    case "note":
      return `> ${b.tone === "warning" ? "**Warning:** " : ""}${inline(b.parts)}`;
    case "list":
      return b.items.map((item) => `- ${inline(item)}`).join("\n");
    case "fields":
      return b.rows.map(([label, value]) => `- **${escapeMarkdown(label)}:** ${inline(value)}`).join("\n");
    case "table": {
      const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
      return [
        row(b.head.map(escapeMarkdown)),
        row(b.head.map(() => "---")),
        ...b.rows.map((cells) => row(cells.map((cell) => inline([cell])))),
      ].join("\n");
    }
  }
}

export function renderMarkdown(doc: Doc): string {
  return `${doc.blocks.map(block).join("\n\n")}\n`;
}
