/**
 * The saved theme, applied before first paint: a tiny inline script in <head> (an external one
 * would let a dark theme flash white). The text host's CSP allows exactly this script by its hash
 * (sidecar/text.ts), so no 'unsafe-inline' is needed.
 */
import { createHash } from "node:crypto";
import { THEME_KEY } from "./theme-key.ts";

export const THEME_SCRIPT = `try{var t=localStorage.getItem("${THEME_KEY}");if(t==="dark"||t==="light")document.documentElement.dataset.theme=t}catch(e){}`;

/** The CSP source expression that allows THEME_SCRIPT. */
export const THEME_SCRIPT_HASH = `'sha256-${createHash("sha256").update(THEME_SCRIPT).digest("base64")}'`;
