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

/** Text as read for a quote: markup links and emphasis dropped, quotes and white space made plain. */
export function plainForQuote(text: string): string {
  return text
    .replace(/^[ \t]*(?:\/\/+|\*(?!\*))[ \t]?/gm, "") // a code comment's line marker (a proto's //, a JSDoc's *)
    .replace(/`([^`<]*?)\s*<[^>]+>`_{1,2}/g, "$1") // reStructuredText link
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown link
    .replace(/<[^>]*>/g, "") // HTML tags (an SDK's README writes the model's documentation in HTML)
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/[*`]/g, "")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
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
 * Pinned copies backing descriptions whose passages are not excerpted yet (2026-11-29): their
 * quotes are not proven here. Excerpt a copy and take it out; the list may only shrink.
 * opentelekomcloud-docs/cloud-firewall@64ee2ea is not in the index at that commit.
 */
export const UNPROVEN_COPIES: readonly string[] = [
  "https://github.com/CleverCloud/documentation/blob/014486b22c579a757c9408146d3f34fffcf74957/content/doc/addons/materia-kv.md",
  "https://github.com/CleverCloud/documentation/blob/1957d9f587bcbe5401153890742a7fd89d397a5e/content/doc/addons/redis.md",
  "https://github.com/MicrosoftDocs/azure-ai-docs/blob/115296384d87ce71666a8cf2dae5e2e5b9beda30/articles/ai-services/speech-service/overview.md",
  "https://github.com/MicrosoftDocs/azure-databases-docs/blob/01cf974a7404f379784d5ad4ee66b4beed9e74bb/articles/cosmos-db/gremlin/introduction.md",
  "https://github.com/MicrosoftDocs/azure-databases-docs/blob/0200b8f33c43283e8c247f6c6352626cfab38bab/articles/mysql/flexible-server/overview.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/012ad308577ca7a4bcf96132a0e71b2819fa4a98/articles/dms/resource-scenario-status.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/02dd60aa47b9cdc180e3f5c64ffbf4e8ec4316a1/articles/storage/container-storage/container-storage-introduction.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/1a36581d4c4cda9c4be150133aa5f9c42bac61c8/articles/network-watcher/network-watcher-overview.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/30b18cc89240aed0e528e1e34b4a10e5ee0f65a8/articles/cloud-shell/features.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/79ad72deb6fa27f159fce277112659509f31182c/articles/cloud-shell/overview.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/8c1218e598b42f5fc087852924dd70c0b9ac2fbd/articles/app-testing/playwright-workspaces/overview-what-is-microsoft-playwright-workspaces.md",
  "https://github.com/MicrosoftDocs/azure-docs/blob/d83c6cdaf6839a88a2cb30496ce2c1336429779c/articles/communication-services/overview.md",
  "https://github.com/MicrosoftDocs/sql-docs/blob/06eb02c4644d61e95dbb9779553b55c8abc963d9/azure-sql/managed-instance/sql-managed-instance-paas-overview.md",
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
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/stepfunctions/2016-11-23/service-2.json",
  "https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/botocore/data/transfer/2018-11-05/service-2.json",
  "https://github.com/boto/botocore/blob/cd9207757d459bba9c524475b601e59f55760a3a/botocore/data/codecommit/2015-04-13/service-2.json",
  "https://github.com/cloudflare/cloudflare-docs/blob/0077e6d06cfd72882b605d769b2bb54cd0bb925e/src/content/docs/sandbox/index.mdx",
  "https://github.com/cloudflare/cloudflare-docs/blob/0309c8bed23afe438f28fd5026b5a7999e653081/src/content/docs/workers-vpc/index.mdx",
  "https://github.com/cloudflare/cloudflare-docs/blob/225afb5a747f662760f36bceccfe27b690305c96/src/content/docs/pipelines/index.mdx",
  "https://github.com/cloudflare/cloudflare-docs/blob/38f06c8478e46fe1c9f557cfad2d68856a46c2ba/src/content/docs/cloudflare-one/data-loss-prevention/dlp-profiles/index.mdx",
  "https://github.com/cloudflare/cloudflare-docs/blob/598b742cd12dd56825eed279813c06f5949d2cc0/src/content/docs/d1/index.mdx",
  "https://github.com/cloudflare/cloudflare-docs/blob/d359668279769a11e4ddccd2810e10a4d7f8e5bf/src/content/docs/r2-data-catalog/index.mdx",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/datafusion/v1/datafusion_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/dataproc/v1/dataproc_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/gkemulticloud/v1/gkemulticloud_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/ids/v1/ids_v1.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/lifesciences/v2beta/lifesciences_v2beta.yaml",
  "https://github.com/googleapis/googleapis/blob/f8291d2b89f0017ab078a4c7378069bae5686f6f/google/cloud/vmmigration/v1/vmmigration.proto",
  "https://github.com/ibm-cloud-docs/backup-recovery/blob/154f4fdb1dfb483e767f4a1e9bb65c75c164bbdb/about-baas.md",
  "https://github.com/opentelekomcloud-docs/cloud-firewall/blob/64ee2ea784a055ae921fa6f65035420eb1e7b796/umn/source/product_overview/what_is_cfw.rst",
  "https://github.com/scaleway/docs-content/blob/005d8d96d7fdc803c29aafd40824d4c26068c1d9/pages/data-orchestrator/concepts.mdx",
  "https://github.com/scaleway/docs-content/blob/0b62b8ad2dabcd1b54fd9a9ce130f152c55e2b67/pages/data-orchestrator/index.mdx",
  "https://github.com/scaleway/docs-content/blob/14631b0367dba78be6fe4392f49dffce42c08b47/pages/container-registry/faq.mdx",
  "https://github.com/scaleway/docs-content/blob/2d5bbe1d7899024aa441d97ca319e62a9d73125a/pages/webhosting/concepts.mdx",
  "https://github.com/scaleway/docs-content/blob/597523fa7f4198596e87397c190483304f5fe3dc/pages/rabbitmq/faq.mdx",
  "https://github.com/scaleway/docs-content/blob/5f572683c13d3ae4e744f3032e59583ffb052035/changelog/september2026/2026-09-30-data-orchestrator-added-data-orchestrator-is-now-availa.mdx",
  "https://github.com/scaleway/docs-content/blob/7c898f6c42a21336deb2b121cd8f15301f6ff3e5/pages/container-registry/concepts.mdx",
  "https://github.com/scaleway/docs-content/blob/a42e058bc6f8fa2e51896bce5a49826fafa9d33d/pages/rabbitmq/concepts.mdx",
  "https://github.com/scaleway/docs-content/blob/c1720e779c9bb4beb7085e3c5d47e1fba2f9b22e/pages/rabbitmq/index.mdx",
];
