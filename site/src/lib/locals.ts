/**
 * What the text host passes to the pages it renders on demand (sidecar/text/site-page.ts), as
 * Astro.locals: the running server's catalogue, store, API and text URLs (not the ones the build was
 * made with), and what a page cannot read from the URL (a refused form, what was limited).
 */
import type { Catalogue } from "../../../catalogue/load/load.ts";
import type { RecordStore } from "../../../catalogue/contract/ports.ts";
import type { Doc } from "../../../catalogue/format/doc.ts";

export interface SiteLocals {
  readonly catalogue: Catalogue;
  readonly store: RecordStore;
  readonly apiUrl?: string;
  /** The text host's public URL, which pages name (never the request's Host). */
  readonly textUrl?: string;
  /** The feedback form posted without JavaScript and refused: why, and what it held. */
  readonly refusedFeedback?: { readonly problem: string; readonly message: string; readonly email: string };
  /** Over a rate limit: what was limited and when to retry. */
  readonly limited?: string;
  /** A page the text host describes as a Doc (a kind of service, a saved list's exit plan). */
  readonly doc?: Doc;
  readonly docPage?: { readonly description?: string; readonly noindex?: boolean };
}

export const siteLocals = (locals: unknown): SiteLocals => locals as SiteLocals;
