/**
 * A small document model that the text host's pages and the Markdown export are written in, so that
 * one page description renders to Markdown, ANSI and plain text alike.
 */
export type Inline = string | { readonly text: string; readonly href: string } | { readonly strong: string };

export type Block =
  | { readonly kind: "heading"; readonly level: 1 | 2 | 3; readonly text: string }
  | { readonly kind: "paragraph"; readonly parts: readonly Inline[] }
  | { readonly kind: "list"; readonly items: readonly (readonly Inline[])[] }
  | { readonly kind: "fields"; readonly rows: readonly (readonly [string, readonly Inline[]])[] }
  | { readonly kind: "table"; readonly head: readonly string[]; readonly rows: readonly (readonly Inline[])[] }
  | { readonly kind: "note"; readonly tone: "info" | "warning"; readonly parts: readonly Inline[] };

export interface Doc {
  readonly title: string;
  readonly blocks: readonly Block[];
}

export const heading = (level: 1 | 2 | 3, text: string): Block => ({ kind: "heading", level, text });
export const paragraph = (...parts: Inline[]): Block => ({ kind: "paragraph", parts });
export const link = (text: string, href: string): Inline => ({ text, href });
export const strong = (text: string): Inline => ({ strong: text });

export function inlineText(part: Inline): string {
  if (typeof part === "string") return part;
  return "strong" in part ? part.strong : part.text;
}

/**
 * Removes C0 controls but tab and newline, DEL and C1 controls, and the bidirectional formatting
 * characters that reorder what follows them (embeddings and overrides U+202A–202E, isolates
 * U+2066–2069, marks U+200E/200F and U+061C): user text can then neither drive a terminal nor
 * disguise itself (docs/design.md "Decisions on what the contract leaves open": stripped in every rendering, and at input).
 */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
}
