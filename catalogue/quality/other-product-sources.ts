/**
 * Rule "another product's page" (issue 100): a source that backs a service's identity or
 * description must be about that service. Conservative, so that it can fail the build: the page
 * cited is exactly another service's documentationUrl on the same provider (its product page),
 * and that documentationUrl is no hub shared by several services (Naver's Dev Tools overview)
 * nor the service's own. Such a source backs nothing of this service: cite the service's own
 * page, or drop the source. A page merely under another product's documentation (a connector
 * page in another product's guide) is not caught: the rule names only certain mistakes.
 */
import type { Catalogue } from "../load/load.ts";

/** Host, path and query, lowercased, without "www.", a trailing slash or a trailing index page. */
function pageKey(url: string): string {
  try {
    const { hostname, pathname, search } = new URL(url);
    const path = pathname.replace(/\/index\.(html|md)$/, "").replace(/\/$/, "");
    return `${hostname.replace(/^www\./, "")}${path}${search}`.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

export interface OtherProductSource {
  readonly slug: string;
  readonly url: string;
  /** The service whose own page it is. */
  readonly owner: string;
}

/** The identity or description sources that are another service's own page. */
export function otherProductSources(catalogue: Catalogue): OtherProductSource[] {
  // provider + page → the services whose documentationUrl it is.
  const owners = new Map<string, string[]>();
  for (const service of catalogue.services)
    if (service.documentationUrl) {
      const key = `${service.providerId} ${pageKey(service.documentationUrl)}`;
      owners.set(key, [...(owners.get(key) ?? []), service.slug]);
    }
  const findings: OtherProductSource[] = [];
  for (const service of catalogue.services)
    for (const source of catalogue.bySlug.get(service.slug)!.sources) {
      if (!source.backs.some((fact) => fact === "identity" || fact === "description")) continue;
      const of = owners.get(`${service.providerId} ${pageKey(source.url)}`) ?? [];
      // A hub several services share, or the service's own page, is no other product's.
      if (of.length === 1 && of[0] !== service.slug)
        findings.push({ slug: service.slug, url: source.url, owner: of[0]! });
    }
  return findings;
}

/** One line per finding, for check:data. */
export function otherProductProblems(catalogue: Catalogue): string[] {
  return otherProductSources(catalogue).map(
    ({ slug, url, owner }) =>
      `OTHER_PRODUCT_SOURCE: ${slug} cites ${url} for its identity or description, but it is ${owner}'s page (its documentationUrl); cite ${slug}'s own page`,
  );
}
