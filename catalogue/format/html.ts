/**
 * Renders a Doc as a small, self-contained HTML page: headings, paragraphs, lists, field lists,
 * tables and notes, every text escaped and every link an http(s) URL or a path on the same host,
 * so data and user input can inject neither markup nor script. For pages the site has no page of
 * its own for (the text host's exit plans).
 */
import { stripControl, type Block, type Doc, type Inline } from "./doc.ts";

/** The one HTML and XML escape (the Atom feeds use it too): control characters go, markup is inert. */
export const escapeHtml = (text: string) => stripControl(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An href that can only navigate: http(s) or a same-host path; anything else becomes "#". */
const safeHref = (href: string) => (/^(https?:\/\/|\/(?!\/))/i.test(href) ? escapeHtml(href) : "#");

function inline(parts: readonly Inline[]): string {
  return parts
    .map((part) => {
      if (typeof part === "string") return escapeHtml(part);
      if ("strong" in part) return `<strong>${escapeHtml(part.strong)}</strong>`;
      return `<a href="${safeHref(part.href)}">${escapeHtml(part.text)}</a>`;
    })
    .join("");
}

function block(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
    case "paragraph":
      return `<p>${inline(b.parts)}</p>`;
    case "note":
      return `<aside class="${b.tone}"${b.tone === "warning" ? ' role="note"' : ""}>${b.tone === "warning" ? "<strong>Warning:</strong> " : ""}${inline(b.parts)}</aside>`;
    case "list":
      return `<ul>${b.items.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>`;
    case "fields":
      return `<dl>${b.rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${inline(value)}</dd>`).join("")}</dl>`;
    case "table":
      return `<div class="table"><table><thead><tr>${b.head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join("")}</tr></thead><tbody>${b.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${inline([cell])}</td>`).join("")}</tr>`)
        .join("")}</tbody></table></div>`;
  }
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#111;background:#fff}" +
  "table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.3rem .5rem;text-align:left;vertical-align:top}" +
  ".table{overflow-x:auto}aside{border-left:4px solid #555;padding:.3rem .8rem;margin:1rem 0;background:#f3f3f3}" +
  "aside.warning{border-color:#a15c00;background:#fff4e0}a{color:#0645ad}" +
  "@media (prefers-color-scheme:dark){body{color:#eee;background:#111}aside{background:#222}aside.warning{background:#3a2a00}a{color:#8ab4f8}}";

export function renderHtml(doc: Doc): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(doc.title)}</title><style>${STYLE}</style></head><body><main>${doc.blocks.map(block).join("\n")}</main></body></html>\n`;
}
