/**
 * Community areas inside a provider's official domains (decisions.md#facts-carry-sources): the host
 * is the vendor's, but the pages are posts by its users, so they back nothing. `officialDomains`
 * matches host names only, so `check:data` refuses these by host and path.
 */
import type { Catalogue } from "../load/load.ts";
import { serviceFileOf } from "../load/load-services.ts";
import { serviceFieldUrls } from "../schema/service-fields.ts";

export interface CommunityArea {
  /** The host, matched with its subdomains (as officialDomains are). */
  readonly domain: string;
  /** The path the community pages sit under; "/" for a whole host. */
  readonly pathPrefix: string;
  readonly why: string;
}

/** Known community areas on official domains, each with why it is one. */
export const COMMUNITY_AREAS: readonly CommunityArea[] = [
  {
    domain: "cloud.tencent.com",
    pathPrefix: "/developer/",
    why: "Tencent Cloud Developer Community (腾讯云开发者社区): user-contributed articles and Q&A",
  },
  {
    domain: "developer.cloud.tencent.com",
    pathPrefix: "/",
    why: "Tencent Cloud Developer Community (腾讯云开发者社区): user-contributed articles and Q&A",
  },
];

function inArea(url: string, area: CommunityArea): boolean {
  const { hostname, pathname } = new URL(url);
  const onHost = hostname === area.domain || hostname.endsWith(`.${area.domain}`);
  return onHost && pathname.startsWith(area.pathPrefix);
}

/** Every URL of an entry that backs or points at a fact, with the field it sits in. */
function citedUrls(entry: Catalogue["source"]["services"][number]["entry"]): [string, string][] {
  const urls: [string, string][] = [];
  urls.push(...serviceFieldUrls(entry));
  (entry.sources ?? []).forEach((source, i) => {
    urls.push([`sources.${i}.url`, source.url]);
    if (source.via) urls.push([`sources.${i}.via`, source.via]);
  });
  (entry.compatibility ?? []).forEach((claim, i) => urls.push([`compatibility.${i}.source.url`, claim.source.url]));
  if (entry.lineage) urls.push(["lineage.source.url", entry.lineage.source.url]);
  return urls;
}

/** One line per URL in a community area: a user's post is not the vendor's word. */
export function communitySourceProblems(
  catalogue: Catalogue,
  areas: readonly CommunityArea[] = COMMUNITY_AREAS,
): string[] {
  const problems: string[] = [];
  for (const { providerId, entry } of catalogue.source.services)
    for (const [field, url] of citedUrls(entry)) {
      const area = areas.find((candidate) => inArea(url, candidate));
      if (area)
        problems.push(
          `${serviceFileOf(providerId, entry.slug)}: field ${field}: ${url} is in a community area (${area.why}); cite the vendor's own page`,
        );
    }
  return problems;
}
