/**
 * The saved theme, applied before first paint: a tiny inline script in <head> (an external one
 * would let a dark theme flash white). It also marks the root `data-js`, so the controls that
 * only work with JavaScript (`data-js-only`: filters, "add to my list") take their place from the
 * first paint rather than push the page down when their module script runs, and stay out of the
 * page without JavaScript (site/src/styles/global.css). The site's layout inlines it, its toggle writes THEME_KEY,
 * and the text host's CSP allows exactly this script by its hash (sidecar/text/app.ts), so no
 * 'unsafe-inline' is needed. Here, not in site/, because both layers need it.
 */

/** Where the chosen theme is kept (localStorage): read before first paint and by the toggle. */
export const THEME_KEY = "csc-theme";

/** Where the approved list being built is kept (localStorage; site/src/scripts/common.ts). */
export const APPROVED_LIST_KEY = "csc-approved-list";

/**
 * Also marks the root `data-list` when that list has services, so a page whose content a script
 * draws from it (the list builder) keeps that content out of sight until drawn, rather than
 * shift what is in view.
 */
export const THEME_SCRIPT = `document.documentElement.dataset.js="";try{var t=localStorage.getItem("${THEME_KEY}");if(t==="dark"||t==="light")document.documentElement.dataset.theme=t;var l=JSON.parse(localStorage.getItem("${APPROVED_LIST_KEY}")||"[]");if(Array.isArray(l)&&l.length)document.documentElement.dataset.list=""}catch(e){}`;
