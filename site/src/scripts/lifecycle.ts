/** The lifecycle page's countdowns in the browser: the same words as the build's. */
export { relativeDays } from "../../../catalogue/render/relative.ts";
