/**
 * A command run to its end with its memory watched: the resident set of the process and every
 * process it started (a CLI's reading child), sampled from /proc while it runs, for the tests that
 * bound what a whole command may take (issue 120: the CLI under 400 MB, a corpus run in a child).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The pids of a process and all its descendants, from /proc/<pid>/task/<tid>/children. */
function treeOf(pid: number): number[] {
  const found = [pid];
  for (let at = 0; at < found.length; at++) {
    try {
      for (const task of readdirSync(`/proc/${found[at]}/task`)) {
        const children = readFileSync(`/proc/${found[at]}/task/${task}/children`, "utf8").trim();
        if (children !== "") found.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process ended between two reads.
    }
  }
  return found;
}

/** The resident set of a process and its descendants together, in MB (10^6 bytes). */
export function treeRssMb(pid: number): number {
  let kib = 0;
  for (const one of treeOf(pid)) {
    try {
      kib += Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${one}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone already.
    }
  }
  return (kib * 1024) / 1e6;
}

export interface WatchedRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The largest resident set of the whole tree seen, in MB, sampled every 25 ms. */
  readonly peakMb: number;
  readonly seconds: number;
}

/** Runs `node <args>` in `cwd` to its end (killed after `timeoutMs`), watching its tree's memory. */
export function runWatched(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; node?: string } = {},
): Promise<WatchedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(options.node ?? process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", PUBLIC_API_URL: "", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    let peakMb = 0;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const sampler = setInterval(() => {
      if (child.pid !== undefined) peakMb = Math.max(peakMb, treeRssMb(child.pid));
    }, 25);
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.once("error", reject);
    child.once("close", (status, signal) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, peakMb, seconds: (performance.now() - started) / 1000 });
    });
  });
}
