/**
 * What the text host passes to the pages it renders on demand (sidecar/text/site-page.ts), as
 * Astro.locals (typed in ../env.d.ts): the running server's catalogue, store, API and text URLs (not
 * the ones the build was made with), and what a page cannot read from the URL (a refused form, what
 * was limited). The type is the page table's (catalogue/outputs/pages.ts), shared with the text host.
 */
export type { SiteLocals, SitePageData } from "../../../catalogue/outputs/pages.ts";
