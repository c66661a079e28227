/**
 * Renders a Doc as a small, self-contained HTML page: headings, paragraphs, lists, field lists,
 * tables and notes, every text escaped and every link an http(s) URL or a path on the same host,
 * so data and user input can inject neither markup nor script. For pages the site has no page of
 * its own for (the text host's exit plans), and every page while there is no built site (`npm
 * start`'s first minute, from the sources): in the site's frame, its header, navigation and search
 * (site/src/layouts/Layout.astro), so a page looks like the site's before the site is built.
 */
import { href } from "../base/urls.ts";
import { stripControl, type Block, type Doc, type Inline } from "./doc.ts";

/** The one HTML and XML escape (the Atom feeds use it too): control characters go, markup is inert. */
export const escapeHtml = (text: string) => stripControl(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An href that can only navigate: http(s), webcal (a calendar subscription) or a same-host path; anything else becomes "#". */
const safeHref = (href: string) => (/^(https?:\/\/|webcal:\/\/|\/(?!\/))/i.test(href) ? escapeHtml(href) : "#");

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
  ".skip{position:absolute;left:-999px}.skip:focus{left:1rem}" +
  "header.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;border-bottom:1px solid #999;padding-bottom:.5rem;margin-bottom:1rem}" +
  "header.site .brand{font-weight:700;text-decoration:none;color:inherit}header.site ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}" +
  "label.block{display:block}fieldset{margin:1rem 0}textarea,input[type=text]{width:100%;max-width:40rem}" +
  "@media (prefers-color-scheme:dark){body{color:#eee;background:#111}aside{background:#222}aside.warning{background:#3a2a00}a{color:#8ab4f8}}";

export function renderHtml(doc: Doc): string {
  return renderPage(doc.title, doc.blocks.map(block).join("\n"));
}

/** The site's navigation (Layout.astro's), by page id. */
const NAVIGATION = [
  ["Lifecycle", href("lifecycle")],
  ["Compare", href("compare")],
  ["Equivalents", href("equivalents")],
  ["Exposure", href("exposure")],
  ["My list", href("list-builder")],
  ["Feedback", href("feedback")],
] as const;

/** The site's header: its name home, the navigation and the search box (a plain GET form). */
const HEADER =
  `<a class="skip" href="#main">Skip to content</a><header class="site"><a class="brand" href="${href("home")}">Cloud Services Catalogue</a>` +
  `<nav aria-label="Main"><ul>${NAVIGATION.map(([text, path]) => `<li><a href="${path}">${text}</a></li>`).join("")}</ul></nav>` +
  `<form action="${href("search")}" method="get" role="search" aria-label="Site search"><label for="site-search">Search services</label> ` +
  `<input id="site-search" name="q" type="search"> <button type="submit">Search</button></form></header>`;

/**
 * A page in the site's frame: `main` is trusted markup (a Doc's blocks, or the text host's own forms,
 * sidecar/text/plain-pages.ts), the title escaped here.
 */
export function renderPage(title: string, main: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${HEADER}<main id="main">${main}</main></body></html>\n`;
}
