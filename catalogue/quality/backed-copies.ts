/**
 * "Backed" proven (issue 124): a description is backed by its sources' claims, and a source that
 * cites a pinned copy must hold each of its claims word for word. A pinned copy is a repository
 * file at a commit (`via` https://github.com/<owner>/<repo>/blob/<40 hex>/<path>) or a file of a
 * vendor's package at a version as the npm registry publishes it (`via`
 * https://unpkg.com/<package>@<version>/<path>: an SDK's README carries the service model's own
 * introduction, as botocore's service-2.json does). The copies' passages are vendored in
 * ../reference/copies/*.yaml (copies.node.ts reads them); a pinned source not excerpted yet is
 * listed in UNPROVEN_COPIES (which may only shrink), so that a new backed description cannot rest
 * on a copy nobody checked.
 */
import { z } from "zod";
import type { Catalogue } from "../load/load.ts";

/** A repository file pinned to its commit. */
const GITHUB_PINNED = /^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\/.+$/;
/** A published package's file at an exact version (npm versions are immutable). */
const NPM_PINNED = /^https:\/\/unpkg\.com\/(?:@[a-z0-9._~-]+\/)?[a-z0-9._~-]+@\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\/.+$/;

/** Whether a source's `via` names one exact copy whose words can be checked. */
export const isPinnedCopy = (via: string): boolean => GITHUB_PINNED.test(via) || NPM_PINNED.test(via);

export const CopyExcerpts = z
  .object({
    copies: z.array(
      z
        .object({
          via: z
            .string()
            .refine(isPinnedCopy, "a GitHub blob at a 40-hex commit or an unpkg.com package@x.y.z/file URL"),
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
  return (
    text
      .replace(/^[ \t]*(?:\/\/+|\*(?!\*))[ \t]?/gm, "") // a code comment's line marker (a proto's //, a JSDoc's *)
      .replace(/`([^`<]*?)\s*<[^>]+>`_{1,2}/g, "$1") // reStructuredText link
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown link
      .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1") // Markdown escapes (AWS's docs repositories write "\(Amazon S3\)\.")
      // HTML formatting tags (an SDK's README and botocore write the model's documentation in HTML);
      // a component's tag (MDX's <Feature header="Sinks">) stays, its attributes being the page's words.
      .replace(
        /<\/?(?:p|i|b|a|em|strong|code|pre|ul|ol|li|dl|dt|dd|div|span|h[1-6]|fullname|note|important|br)(?:\s[^>]*)?\/?>/g,
        "",
      )
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/[*`]/g, "")
      .replace(/[‘’]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/[\u2010\u2011]/g, "-") // hyphen, non-breaking hyphen
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase()
  );
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

/** A pinned copy, or a repository file cited at an abbreviated commit (listed until excerpted). */
const isPinnedCopyOrShortCommit = (via: string): boolean => isPinnedCopy(via) || /\/blob\/[0-9a-f]{7,40}\//.test(via);

/** Every claim of a backed description's source that cites a pinned copy: slug, copy and claim. */
export function pinnedBackedClaims(catalogue: Catalogue): { slug: string; via: string; claim: string }[] {
  const out: { slug: string; via: string; claim: string }[] = [];
  for (const service of catalogue.services) {
    if (!service.descriptionBacked) continue;
    for (const source of catalogue.bySlug.get(service.slug)!.sources) {
      if (!source.backs.includes("description") || !source.via || !isPinnedCopyOrShortCommit(source.via)) continue;
      for (const claim of source.claims ?? []) out.push({ slug: service.slug, via: source.via, claim });
    }
  }
  return out;
}

/**
 * Pinned copies backing descriptions whose passages are not excerpted yet: their quotes are not
 * proven here. Excerpt a copy (or cite another that is) and take it out; the list may only shrink.
 * These were read on 2026-11-29 in fetched snapshots of their repositories, the index holding no
 * copy at the cited commit; the project commits nothing a fetch brings, so their passages wait for
 * the index's read_file or a copy a package publishes.
 */
export const UNPROVEN_COPIES: readonly string[] = [
  "https://github.com/CleverCloud/documentation/blob/1957d9f587bcbe5401153890742a7fd89d397a5e/content/doc/addons/redis.md",
  "https://github.com/CleverCloud/documentation/blob/1957d9f587bcbe5401153890742a7fd89d397a5e/shared/db-backup.md",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/gkemulticloud/v1/gkemulticloud_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/lifesciences/v2beta/lifesciences_v2beta.yaml",
  "https://github.com/opentelekomcloud-docs/cloud-firewall/blob/64ee2ea784a055ae921fa6f65035420eb1e7b796/umn/source/product_overview/what_is_cfw.rst",
];
