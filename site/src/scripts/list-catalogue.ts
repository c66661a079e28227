/**
 * The compact catalogue (/list-catalogue.json, written by the build from
 * catalogue/lists/list-catalogue.ts), fetched once per page: names, providers and lifecycle of every
 * service, and what the policy generators and the Markdown export need, so they run here.
 */
import { expandListCatalogue, type CompactListCatalogue } from "../../../catalogue/lists/list-catalogue.ts";
import { serviceLabel } from "../lib/service-label.ts";

export type BrowserCatalogue = ReturnType<typeof expandListCatalogue>;

let loaded: Promise<BrowserCatalogue> | undefined;
export function listCatalogue(): Promise<BrowserCatalogue> {
  return (loaded ??= fetch("/list-catalogue.json")
    .then((response) => {
      if (!response.ok) throw new Error(`list-catalogue.json: ${response.status}`);
      return response.json() as Promise<CompactListCatalogue>;
    })
    .then(expandListCatalogue));
}

/** "Amazon S3 · AWS · active", or the slug when the catalogue does not know it. */
export function describeService(catalogue: BrowserCatalogue | undefined, slug: string): string {
  const listed = catalogue?.listed.get(slug);
  if (!listed) return slug;
  return serviceLabel(listed.service, listed.providerShortName);
}

/** The known and the unknown among requested ids (a shared link may carry a stale one). */
export function splitKnown(
  catalogue: BrowserCatalogue,
  ids: readonly string[],
): { known: string[]; unknown: string[] } {
  const known = ids.filter((id) => catalogue.listed.has(id));
  return { known, unknown: ids.filter((id) => !catalogue.listed.has(id)) };
}
