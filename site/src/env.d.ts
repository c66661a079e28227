// Astro.locals of every page: what the text host hands a page it renders on demand
// (sidecar/text/site-page.ts), one type for both sides (catalogue/outputs/pages.ts). Prerendered pages
// get none of it and read none of it.
import type { SiteLocals } from "../../catalogue/outputs/pages.ts";

declare global {
  namespace App {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Astro's declared extension point
    interface Locals extends SiteLocals {}
  }
}
