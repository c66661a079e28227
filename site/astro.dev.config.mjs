// `npm run dev`'s Astro configuration (scripts/dev.ts): the project's astro.config.mjs without the
// build's "bundle every dependency" (Vite's dev module runner cannot load CommonJS dependencies
// bundled that way: "require is not defined").
import config from "../astro.config.mjs";

const { environments: _bundledForTheBuild, ...vite } = config.vite ?? {};
export default { ...config, vite };
