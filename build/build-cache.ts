/**
 * Whether `npm start` can write the build cache (.cache/builds: the builds, and the mark of the one
 * a server serves), and the one line it says when it cannot: run as another user than the one who
 * built, it died with an uncaught EACCES stack trace (decisions.md#start-says-why).
 */
import { accessSync, constants, existsSync } from "node:fs";
import { dirname, relative } from "node:path";

/** The nearest folder that exists at or above `dir`. */
function existing(dir: string): string {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** The one-line error for a build cache `dir` this process cannot write, or undefined when it can. */
export function buildCacheProblem(dir: string, root: string): string | undefined {
  try {
    accessSync(existing(dir), constants.W_OK);
    return undefined;
  } catch (error) {
    return cannotWriteLine(dir, root, error);
  }
}

/** "start: cannot write …": what failed and what to do, for an error met writing the build cache. */
export function cannotWriteLine(dir: string, root: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  const shown = relative(root, dir) || dir;
  return `start: cannot write the build cache ${shown} (${code}); run npm start as the user who built it, or let this user write ${shown}`;
}

/** Whether an error is one of not being allowed to write (rather than a bug). */
export function isNotWritable(error: unknown): boolean {
  return ["EACCES", "EPERM", "EROFS", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");
}
