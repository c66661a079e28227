/**
 * scripts/build.ts's site step in a process of its own: Astro renders the pages on its main thread,
 * which the API and text steps need at the same time, so the two share a core when run in one
 * process (the site step took 16 s beside them, 9 s alone). Arguments: the folder to write the
 * site into and the site's URL; the environment names the data folder and the API's URL.
 */
import { ROOT_DIR } from "../build/inputs.ts";

const [outDir, site] = process.argv.slice(2);
if (!outDir || !site) {
  console.error("usage: node scripts/build-site.ts <out-dir> <site-url>");
  process.exit(2);
}
// No build reports to Astro's telemetry, npm start's rebuild included.
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { build } = await import("astro");
await build({ root: ROOT_DIR, outDir, logLevel: "warn", site });
