/**
 * What `npm start` runs, read from a package.json's start script: the environment it sets (leading
 * NAME=value words, e.g. MALLOC_MMAP_THRESHOLD_) and node's flags, so that a bench starts a server
 * exactly as a user's `npm start` does — the same V8 and allocator settings, hence the same RSS.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface StartCommand {
  /** The environment the start script sets. */
  readonly env: Record<string, string>;
  /** node's flags (before the script). */
  readonly nodeFlags: readonly string[];
  /** The script node runs, relative to the package. */
  readonly script: string;
}

export function npmStartCommand(codeRoot: string): StartCommand {
  const start = (JSON.parse(readFileSync(join(codeRoot, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  const words = start.trim().split(/\s+/);
  const envWords = words.slice(
    0,
    words.findIndex((word) => !/^[A-Z_]+=\S*$/.test(word)),
  );
  const [command, ...args] = words.slice(envWords.length);
  const flags = args.filter((arg) => arg.startsWith("-"));
  const scripts = args.filter((arg) => !arg.startsWith("-"));
  if (command !== "node" || scripts.length !== 1 || args.some((arg) => /["'$&|;]/.test(arg)))
    throw new Error(`bench: cannot run ${start}`);
  return {
    env: Object.fromEntries(
      envWords.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
    ),
    nodeFlags: flags,
    script: scripts[0]!,
  };
}
