/**
 * `cloud-catalogue` as its users run it, for the suites of tests/build/: the package's bundle
 * (scripts/package/build.ts), built once per run into the run's folder from the run's validated
 * catalogue (the first suite to ask builds it, the others wait, as helpers/fixture-build.ts does), or
 * the repository's scripts/cli.ts; each run in a child process to its end.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, inject, onTestFinished } from "vitest";
import { waitFor } from "./components.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The repository's command, as `npx cloud-catalogue` runs it in a clone. */
export const REPOSITORY_CLI = join(ROOT, "scripts", "cli.ts");

/** As long as the package's build may take on a loaded machine (the suites' hook timeout). */
const BUILD_WAIT_MS = 120_000;

export interface CliRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <bin> <args>` in `cwd` to its end (killed after `timeoutMs`), with NO_COLOR and no PUBLIC_API_URL. */
export function runCli(
  bin: string,
  cwd: string,
  args: readonly string[],
  options: { node?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", PUBLIC_API_URL: "", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.once("error", reject);
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

const own: string[] = [];
afterAll(() => {
  for (const dir of own.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding these files, removed after the test. */
export function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-cli-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The run's catalogue source as a build ships it (helpers/catalogue-setup.ts), when the data was valid. */
export function builtCatalogue(): string | undefined {
  return inject("builtCatalogueDir") as string | undefined;
}

/** Builds the package into `out` in a child process, as `npm run build:package` does. */
async function buildInto(out: string): Promise<void> {
  const built = builtCatalogue();
  const args = [
    join(ROOT, "scripts", "package", "build.ts"),
    "--out",
    out,
    ...(built ? ["--source", join(built, "api", "catalogue-source.json")] : []),
  ];
  const result = await runCli(args[0]!, ROOT, args.slice(1), { timeoutMs: BUILD_WAIT_MS });
  if (result.status !== 0) throw new Error(`the package's build exited ${result.status}: ${result.stderr}`);
}

/** The package's bin (dist/bin/cloud-catalogue.js), built once for the run. Run it; never write beside it. */
export async function packagedCli(): Promise<string> {
  const runDir = inject("testRunDir") as string | undefined;
  if (!runDir) {
    const out = mkdtempSync(join(tmpdir(), "csc-cli-package-"));
    own.push(out);
    await buildInto(out);
    return join(out, "bin", "cloud-catalogue.js");
  }
  const out = join(runDir, "cli-package");
  const failed = `${out}.failed`;
  const bin = join(out, "bin", "cloud-catalogue.js");
  if (!takeBuild(`${out}.lock`)) {
    await waitFor(() => existsSync(out) || existsSync(failed), BUILD_WAIT_MS, "the run's package build");
    if (!existsSync(out)) throw new Error(`the run's package build failed: ${readFileSync(failed, "utf8")}`);
    return bin;
  }
  const staging = `${out}.staging`;
  try {
    await buildInto(staging);
    renameSync(staging, out);
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
    throw error;
  }
  return bin;
}

/** Whether this suite takes the build: creating a folder is atomic, one suite of the run succeeds. */
function takeBuild(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
