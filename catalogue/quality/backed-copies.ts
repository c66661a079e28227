/**
 * "Backed" proven (issue 124): a description is backed by its sources' claims, and a source that
 * cites a pinned repository copy (`via` …/blob/<commit>/…) must hold each of its claims word for
 * word. The copies' passages are vendored in ../reference/copies/excerpts.yaml; a pinned source
 * not excerpted yet is listed in UNPROVEN_COPIES (which may only shrink), so that a new backed
 * description cannot rest on a copy nobody checked.
 */
import { z } from "zod";
import type { Catalogue } from "../load/load.ts";

export const CopyExcerpts = z
  .object({
    copies: z.array(
      z
        .object({
          via: z.string().regex(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\/.+$/),
          read: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          licence: z.string().min(1),
          excerpt: z.string().min(1),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * Text as read for a quote: markup links and emphasis dropped, the HTML tags of API reference
 * documentation (botocore's service models) dropped, quotes, hyphens and white space made plain.
 */
export function plainForQuote(text: string): string {
  return text
    .replace(/`([^`<]*?)\s*<[^>]+>`_{1,2}/g, "$1") // reStructuredText link
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown link
    .replace(/<\/?(?:p|i|b|a|code|ul|ol|li|fullname|note|important|br)(?:\s[^>]*)?\/?>/g, "") // HTML tag
    .replace(/[*`]/g, "")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[\u2010\u2011]/g, "-") // hyphen, non-breaking hyphen
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Whether a claim is in the copy: its words in that order (an elision "…" may skip text). */
export function quoteFound(claim: string, copy: string): boolean {
  const text = plainForQuote(copy);
  let from = 0;
  for (const part of claim
    .split(/\s*(?:…|\.\.\.)\s*/)
    .map(plainForQuote)
    .filter(Boolean)) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** Every claim of a backed description's source that cites a pinned copy: slug, copy and claim. */
export function pinnedBackedClaims(catalogue: Catalogue): { slug: string; via: string; claim: string }[] {
  const out: { slug: string; via: string; claim: string }[] = [];
  for (const service of catalogue.services) {
    if (!service.descriptionBacked) continue;
    for (const source of catalogue.bySlug.get(service.slug)!.sources) {
      if (!source.backs.includes("description") || !source.via || !/\/blob\/[0-9a-f]{7,40}\//.test(source.via))
        continue;
      for (const claim of source.claims ?? []) out.push({ slug: service.slug, via: source.via, claim });
    }
  }
  return out;
}

/**
 * Pinned copies backing descriptions whose passages are not excerpted yet: their quotes would not
 * be proven here. Empty since 2026-11-29, when every cited copy was excerpted; it stays so (a new
 * pinned source comes with its excerpt), and exists so that a copy that cannot be read at once
 * can be named rather than skipped.
 */
export const UNPROVEN_COPIES: readonly string[] = [];
