/**
 * The environment of the threads the server starts (the heavy worker, the template readers): Node's
 * compile cache on, so that a thread started after idle finds its modules' compiled code and
 * stripped TypeScript on disk rather than making them again (the heavy worker's imports: 420 → 220
 * ms). A user's NODE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE wins; a folder that cannot be
 * written only leaves the cache off.
 */
import { fileURLToPath } from "node:url";

/** In the checkout's (or the installed package's) .cache/, the user's own, never a shared /tmp. */
export const COMPILE_CACHE_DIR = fileURLToPath(new URL("../../.cache/node-compile/", import.meta.url));

export function threadEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? COMPILE_CACHE_DIR };
}
