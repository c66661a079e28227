/**
 * The source gate of `npm run check:data` (decisions.md#facts-carry-sources): every service cites the
 * vendor's own page that backs it, or is listed below with what was searched for it, so that no
 * service is left bare without anyone saying why. `check:data` prints the list as known gaps and
 * fails on a service with no source that is not on it, on a listed service that has gained one, and
 * on a listed slug the catalogue no longer holds.
 */
import type { Catalogue } from "../load/load.ts";
import { serviceFileOf } from "../load/load-services.ts";

const SEARCHED = "searched 2026-11-26 in the pages and docs corpora";

/** Services with no vendor source, and what was tried (2026-11-26; the rest searched again 2026-11-27). */
export const SERVICES_WITHOUT_VENDOR_SOURCE: Readonly<Record<string, string>> = {
  "hetzner-dedicated-root-servers": `cited the Load Balancers FAQ until 2026-11-27 (issue 89: a page naming another product); searched 2026-11-27 (pages: "Hetzner Docs Volumes overview", docs: "Hetzner dedicated root server"): no docs.hetzner.com page in the stored copies, and the hcloud Terraform provider does not cover Robot servers`,
  "infomaniak-block-storage": `${SEARCHED}: no Infomaniak page returned; again 2026-11-27 (docs, pages: "Infomaniak Public Cloud block storage volumes"): only an infomaniak.com FAQ on asset withdrawal that lists volumes, snapshots and backups among Public Cloud resources without naming the product`,
  "naver-gpu-server": `${SEARCHED} for the sample audit: no vendor page returned; again 2026-11-27 (pages: "ncloud GPU Server VPC NVIDIA server-gpuserver"; docs: "GPU server create guide.ncloud-docs"): only CLOVA NSML GPU-code API pages and other vendors' pages`,
  "ionos-backup-service": `cited the NAT Gateway overview until 2026-11-27 (issue 89: a page naming another product); searched 2026-11-27 (docs: "IONOS Cloud Backup Service overview Acronis backup unit"): only the Pulumi registry's BackupUnit pages, no docs.ionos.com page`,
  "s3ns-cloud-interconnect": `${SEARCHED}: the one S3NS page says the beta interconnectAttachments methods are "not available in Cloud de Confiance"; the service may not be offered; again 2026-11-27 (pages: "S3NS Cloud de Confiance Cloud Interconnect"): only the general Cloud de Confiance differences page`,
  "s3ns-hyperdisk": `${SEARCHED}: only generic disk-type API pages and a beta regionDiskTypes page whose methods are not available in Cloud de Confiance; again 2026-11-27 (pages: "documentation.s3ns.fr Hyperdisk Balanced"): no documentation.s3ns.fr Hyperdisk page returned`,
  "upcloud-gpu-servers": `${SEARCHED}: no upcloud.com page returned; again 2026-11-27 (docs: "UpCloud GPU servers NVIDIA configurations"): no upcloud.com page, only UpCloud's Hugging Face profile naming GPUs`,
  "vultr-cloud-gpu": `${SEARCHED}: docs.vultr.com returned only platform and third-party pages; again 2026-11-27 (docs: "How to Provision Vultr Cloud GPU instances", "Vultr Cloud GPU fractional GPU"): no docs.vultr.com GPU page returned`,
};

/** One line per problem: an unsourced service off the list, a listed one that has a source, a stale slug. */
export function unsourcedProblems(
  catalogue: Catalogue,
  listed: Readonly<Record<string, string>> = SERVICES_WITHOUT_VENDOR_SOURCE,
): string[] {
  const problems: string[] = [];
  for (const service of catalogue.services) {
    const sourced = catalogue.bySlug.get(service.slug)!.sources.length > 0;
    const at = serviceFileOf(service.providerId, service.slug);
    if (!sourced && !Object.hasOwn(listed, service.slug))
      problems.push(
        `${at}: field sources: none; cite the vendor's page, or list the service in catalogue/quality/unsourced.ts with what was searched`,
      );
    if (sourced && Object.hasOwn(listed, service.slug))
      problems.push(`${at}: has a source now; take it out of catalogue/quality/unsourced.ts`);
  }
  for (const slug of Object.keys(listed))
    if (!catalogue.bySlug.has(slug))
      problems.push(`SERVICES_WITHOUT_VENDOR_SOURCE: ${slug} is not in the catalogue; take it out of the list`);
  return problems;
}

/** The known gaps as check:data prints them: slug and what was searched. */
export function unsourcedLines(listed: Readonly<Record<string, string>> = SERVICES_WITHOUT_VENDOR_SOURCE): string[] {
  return Object.entries(listed).map(([slug, searched]) => `${slug}: ${searched}`);
}
