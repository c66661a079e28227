/**
 * Indexes the built site with Pagefind's Node API once Astro has written it; any error fails the
 * build (pattern of withastro/starlight's integrations/pagefind.ts).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { close, createIndex } from "pagefind";

export default function pagefind(): AstroIntegration {
  return {
    name: "pagefind",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const site = fileURLToPath(dir);
        const { index, errors } = await createIndex({});
        if (!index) throw new Error(`pagefind: could not create an index: ${errors.join("; ")}`);
        const added = await index.addDirectory({ path: site });
        if (added.errors.length > 0) throw new Error(`pagefind: ${added.errors.join("; ")}`);
        const written = await index.writeFiles({ outputPath: join(site, "pagefind") });
        if (written.errors.length > 0) throw new Error(`pagefind: ${written.errors.join("; ")}`);
        logger.info(`pagefind: indexed ${added.page_count} pages`);
        await close();
      },
    },
  };
}
