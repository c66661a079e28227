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
 * Also marks the root `data-list` when that list has services, or the address names some (?ids=,
 * ?list=: the list builder works on the address's list), so a page whose content a script draws
 * from it (the list builder) keeps that content out of sight until drawn, rather than shift what
 * is in view.
 */
export const THEME_SCRIPT = `document.documentElement.dataset.js="";try{var t=localStorage.getItem("${THEME_KEY}");if(t==="dark"||t==="light")document.documentElement.dataset.theme=t;var l=JSON.parse(localStorage.getItem("${APPROVED_LIST_KEY}")||"[]");if(Array.isArray(l)&&l.length||/[?&](ids|list)=[^&]/.test(location.search))document.documentElement.dataset.list=""}catch(e){}`;

/**
 * Puts a JavaScript-only control in the page where it stands, while the page is parsed: the control
 * is written as the text of a `<script type="text/html">` just before this script, which text
 * browsers (lynx, w3m) skip, as they show `hidden` elements (issue 101); a browser running scripts
 * parses it in place before first paint, so nothing shifts. The site's JsOnly component writes both;
 * the text host's CSP allows this script by its hash, as THEME_SCRIPT.
 */
export const JS_ONLY_SCRIPT = `(function(s){var m=s.previousElementSibling;m.insertAdjacentHTML("beforebegin",m.textContent);m.remove();s.remove()})(document.currentScript)`;
