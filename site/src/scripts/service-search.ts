/**
 * The search's code for the site's search box (scripts/search.ts): a module of its own so the
 * bundler makes it a chunk loaded on the first search, holding only what the browser runs.
 */
export { ServiceSearch } from "../../../catalogue/search/search.ts";
