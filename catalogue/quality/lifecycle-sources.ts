/**
 * The lifecycle gate of `npm run check:data` (decisions.md#facts-carry-sources): a service in preview, deprecated, sunset or
 * retired lists a source that backs lifecycle, the vendor's announcement or the notice on its own
 * documentation, read on `retrieved`. The loader already keeps every source on the provider's official
 * domains; this gate also refuses tooling references (a CLI or CDK page restates a notice, it is not one).
 *
 * Where no vendor page could be read, the entry stays (its status is still the vendor's, as far as
 * anyone can tell) and is listed below with what was searched: `check:data` prints it as a known gap.
 */
import type { Catalogue } from "../load/load.ts";
import { serviceFileOf } from "../load/load-services.ts";

/**
 * Non-active entries whose vendor announcement was searched for and not found in the corpora the
 * project reads (2026-11-26). An entry here that gains a lifecycle source, or is no longer non-active,
 * fails the gate: take it out of the list.
 */
export const LIFECYCLE_WITHOUT_VENDOR_SOURCE: Readonly<Record<string, string>> = {
  "aws-deeplens":
    "docs.aws.amazon.com/deeplens/latest/dg/deeplens-end-of-life.html not in the corpora; awsdocs/aws-deeplens-user-guide was archived before the notice; only third-party pages cite it",
  "aws-deepcomposer":
    "AWS's blog post 'Support for AWS DeepComposer ending soon' not in the corpora; the DeepComposer guide pages read carry no banner; only third-party lists cite it",
  "digitalocean-managed-caching":
    "no DigitalOcean release note or docs notice of the end of Managed Caching found in the corpora",
  "heroku-enterprise":
    "heroku.com/blog/an-update-on-heroku not in the corpora; only third-party summaries of it; Heroku's help article on ending Enterprise contracts does not state the change",
  "ibm-data-engine":
    "cloud.ibm.com/docs/sql-query?topic=sql-query-deprecation not in the corpora; IBM's terraform-ibm-modules README (GitHub, not an IBM domain) states the same dates",
};

/** A CLI or CDK reference page: it repeats a notice; the announcement is elsewhere. */
const TOOLING_REFERENCE = /^https:\/\/[^/]+\/(?:[a-z]{2}_[a-z]{2}\/)?(?:cli|cdk)\//;

/** One line per problem, in the catalogue's service order. */
export function lifecycleSourceProblems(
  catalogue: Catalogue,
  gaps: Readonly<Record<string, string>> = LIFECYCLE_WITHOUT_VENDOR_SOURCE,
): string[] {
  const problems: string[] = [];
  for (const service of catalogue.services) {
    const at = serviceFileOf(service.providerId, service.slug);
    const backing = catalogue.bySlug.get(service.slug)!.sources.filter((source) => source.backs.includes("lifecycle"));
    const listed = Object.hasOwn(gaps, service.slug);
    if (!service.lifecycle) {
      if (listed) problems.push(`${at}: listed in LIFECYCLE_WITHOUT_VENDOR_SOURCE but active; take it out of the list`);
      continue;
    }
    const announcement = service.lifecycle.announcementUrl;
    if (announcement && TOOLING_REFERENCE.test(announcement))
      problems.push(
        `${at}: field lifecycle.announcementUrl: ${announcement} is a CLI or CDK reference, not the vendor's announcement`,
      );
    for (const source of backing)
      if (TOOLING_REFERENCE.test(source.url))
        problems.push(
          `${at}: field sources: ${source.url} is a CLI or CDK reference, not the vendor's announcement; cite the notice itself`,
        );
    if (backing.length > 0 && listed)
      problems.push(
        `${at}: listed in LIFECYCLE_WITHOUT_VENDOR_SOURCE but has a source that backs lifecycle; take it out of the list`,
      );
    if (backing.length === 0 && !listed)
      problems.push(
        `${at}: field sources: a ${service.lifecycle.status} service needs a source that backs lifecycle (the vendor's announcement or the notice on its documentation)`,
      );
  }
  return problems;
}

/** Listed slugs the catalogue does not hold (renamed or removed): check:data runs this on the real data. */
export function staleLifecycleGaps(
  catalogue: Catalogue,
  gaps: Readonly<Record<string, string>> = LIFECYCLE_WITHOUT_VENDOR_SOURCE,
): string[] {
  return Object.keys(gaps)
    .filter((slug) => !catalogue.bySlug.has(slug))
    .map((slug) => `LIFECYCLE_WITHOUT_VENDOR_SOURCE: ${slug} is not in the catalogue; take it out of the list`);
}

/** The known gaps as check:data prints them: slug and what was searched. */
export function lifecycleGapLines(gaps: Readonly<Record<string, string>> = LIFECYCLE_WITHOUT_VENDOR_SOURCE): string[] {
  return Object.entries(gaps).map(([slug, searched]) => `${slug}: ${searched}`);
}
