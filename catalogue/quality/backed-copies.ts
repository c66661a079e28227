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

/** Text as read for a quote: markup links and emphasis dropped, quotes, hyphens and white space made plain. */
export function plainForQuote(text: string): string {
  return text
    .replace(/`([^`<]*?)\s*<[^>]+>`_{1,2}/g, "$1") // reStructuredText link
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown link
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
 * Pinned copies backing descriptions whose passages are not excerpted yet (2026-11-29): their
 * quotes are not proven here. Excerpt a copy and take it out; the list may only shrink.
 * opentelekomcloud-docs/cloud-firewall@64ee2ea is not in the index at that commit.
 */
export const UNPROVEN_COPIES: readonly string[] = [
  "https://github.com/CleverCloud/documentation/blob/1957d9f587bcbe5401153890742a7fd89d397a5e/content/doc/addons/redis.md",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/amp/2020-08-01/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/apigateway/2015-07-09/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/arc-region-switch/2022-07-26/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/arc-zonal-shift/2022-10-30/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/chime-sdk-meetings/2021-07-15/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/chime-sdk-messaging/2021-05-15/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/chime-sdk-voice/2022-08-03/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/gamelift/2015-10-01/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/groundstation/2019-05-23/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/rds/2014-10-31/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/route53-recovery-cluster/2019-12-02/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/sqs/2012-11-05/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/stepfunctions/2016-11-23/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/transfer/2018-11-05/service-2.json",
  "https://github.com/boto/botocore/blob/cd9207757d459bba9c524475b601e59f55760a3a/botocore/data/codecommit/2015-04-13/service-2.json",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/datafusion/v1/datafusion_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/dataproc/v1/dataproc_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/gkemulticloud/v1/gkemulticloud_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/ids/v1/ids_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/lifesciences/v2beta/lifesciences_v2beta.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/vmmigration/v1/vmmigration.proto",
  "https://github.com/ibm-cloud-docs/backup-recovery/blob/154f4fdb1dfb483e767f4a1e9bb65c75c164bbdb/about-baas.md",
  "https://github.com/opentelekomcloud-docs/cloud-firewall/blob/64ee2ea784a055ae921fa6f65035420eb1e7b796/umn/source/product_overview/what_is_cfw.rst",
];
