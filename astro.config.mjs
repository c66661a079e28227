// The site: the text host's HTML rendering. Prerendered from the same Catalogue as the API
// (site/src/lib/catalogue.ts); /lists/{id} and the request-dependent pages of
// site/src/pages/on-demand/ render on demand, through @astrojs/node in middleware mode, mounted by
// the text host (sidecar/text/site-page.ts). Pagefind indexes the output.
import node from "@astrojs/node";
import { defineConfig } from "astro/config";
import pagefind from "./site/integrations/pagefind.ts";

export default defineConfig({
  srcDir: "./site/src",
  publicDir: "./site/public",
  outDir: "./dist/site",
  cacheDir: "./.cache/astro",
  output: "static",
  adapter: node({ mode: "middleware" }),
  trailingSlash: "ignore",
  build: { format: "directory", inlineStylesheets: "never" },
  integrations: [pagefind()],
  devToolbar: { enabled: false },
  telemetry: false,
  // Bundle every dependency into the server output so it runs wherever dist/ is copied (tests, mirrors).
  vite: {
    build: { assetsInlineLimit: 0 },
    environments: { ssr: { resolve: { noExternal: true } }, prerender: { resolve: { noExternal: true } } },
  },
});
