#!/usr/bin/env node
/**
 * cloud-catalogue — mirror a deployment for offline use, serve a mirror, check a deployment.
 *   cloud-catalogue mirror <api-url> <dir>   fetch (or update) a verified copy of the build
 *   cloud-catalogue serve <dir>              serve it on PORT/TEXT_PORT with no network
 *   cloud-catalogue check <file|folder> …    check a deployment against an approved list (check.ts)
 *   cloud-catalogue init <root …> …          write the check's configuration and baseline (check/init.ts)
 *   cloud-catalogue --version                the package's version
 * Each command's modules load only when it runs: a check starts without the server's, a mirror
 * without the check's. The package (cli/README.md) bundles this file; `serve` runs from a clone.
 * A command never crashes into a status its contract gives another meaning: check's exits are
 * check.ts's (a crash is 2, never 1); mirror and serve exit 1 on any failure, 2 on a usage error.
 */
import { PACKAGED } from "./package/packaged.ts";

const USAGE =
  "usage: cloud-catalogue mirror <api-url> <dir> | cloud-catalogue serve <dir> | cloud-catalogue check [<file|folder>] [--ids a,b,c | --ids-file FILE | --list LIST] | cloud-catalogue init <file|folder> … | cloud-catalogue --version | cloud-catalogue --help";

/** The whole help (--help, -h, help): what each command does, its environment, exit codes, examples. */
const HELP = `cloud-catalogue — mirror a Cloud Services Catalogue deployment for offline use, serve it,
and check a deployment against an approved list.

Usage:
  cloud-catalogue mirror <api-url> <dir>
      Fetch (or update) a verified copy of the deployment whose API is at <api-url>
      (http or https): reads <api-url>/manifest.json, fetches every listed file from
      <api-url>/mirror/…, checks each sha256, then switches <dir>/current to the new copy
      in one atomic rename. A failed or interrupted run (killed at any moment) leaves the
      previous mirror as it was; a re-run fetches only what changed and prints the
      catalogue changes pulled. A running serve of <dir> needs no restart.
  cloud-catalogue serve <dir>
      Serve the mirror in <dir> with no network: the API, the text host and the site,
      with search, compare, exposure, policies and the Markdown export computed from the
      mirrored catalogue. The origin's URLs are rewritten to the mirror's own in every
      answer. Lists and feedback stay on this machine, in <dir>/data. Follows updates:
      within a second or two of a mirror run switching <dir>/current, it serves the new copy.
      From a clone of the repository (npm ci); the installed package holds check and mirror.
  cloud-catalogue check <template|plan file|folder of .tf files> (--ids a,b,c | --ids-file FILE | --list LIST) […]
      Check a deployment against the approved services, offline against the catalogue the
      package holds, a mirror's (--catalogue DIR), or a deployment's API (--api URL); for CI,
      with SARIF, a baseline and honest exit codes. Every option: cloud-catalogue check --help.
      With no path, what .cloud-catalogue.yaml names (its roots, list and settings).
  cloud-catalogue init <template|plan file|folder of .tf files> … (--ids … | --ids-file FILE | --list LIST) [--baseline]
      Write .cloud-catalogue.yaml at the repository's top, and with --baseline the baseline of
      today's findings: the first step before the CI job (cloud-catalogue init --help).
  cloud-catalogue --version
      The package's version.
  cloud-catalogue --help
      This text (also -h or help).

Environment (serve):
  PORT              API port (default 8080)
  TEXT_PORT         text host port (default 8081)
  HOST              address to listen on (default 127.0.0.1)
  PUBLIC_API_URL    the API's public URL, if not http://HOST:PORT
  PUBLIC_TEXT_URL   the text host's public URL, if not http://HOST:TEXT_PORT

Exit status: mirror and serve: 0 on success, 1 when mirroring or serving fails, 2 on a usage error.
check: 0 allowed, 1 not allowed, 2 no check (usage, unreadable input, crash), 3 the API
unreachable (cloud-catalogue check --help).

Examples:
  npm run mirror -- http://localhost:8080 ./mirror
  npx cloud-catalogue serve ./mirror
  PORT=9080 TEXT_PORT=9081 npx cloud-catalogue serve ./mirror
  cloud-catalogue check template.yaml --ids aws-s3,aws-lambda --sarif check.sarif

More: docs/operations.md ("Mirror"), docs/ci-check.md (check in CI).
`;

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const wantsHelp = (args: readonly string[]) =>
  args.some((arg) => arg === "--help" || arg === "-h") || args[0] === "help";

/** A failure's message: the error's own for the failures a command expects, with the stack only under --debug. */
function failureText(error: unknown, debug: boolean): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  return error instanceof Error ? error.message : String(error);
}

async function mirrorCommand(args: readonly string[]): Promise<number> {
  if (args.length !== 2) {
    console.error(`${USAGE}\n(cloud-catalogue --help for more)`);
    return EXIT.usage;
  }
  const [apiUrl, dir] = args as [string, string];
  if (!/^https?:\/\//i.test(apiUrl)) {
    console.error(`cloud-catalogue mirror: not an http(s) URL: ${apiUrl}\n${USAGE}`);
    return EXIT.usage;
  }
  const { mirror } = await import("./mirror.ts");
  await mirror(apiUrl, dir);
  return EXIT.ok;
}

async function serveCommand(args: readonly string[]): Promise<number> {
  if (args.length !== 1) {
    console.error(`${USAGE}\n(cloud-catalogue --help for more)`);
    return EXIT.usage;
  }
  if (PACKAGED) {
    console.error(
      "cloud-catalogue serve: the installed package holds check and mirror; serve runs from a clone of the repository (npm ci, then npx cloud-catalogue serve <dir>)",
    );
    return EXIT.usage;
  }
  const [{ serveMirror }, { runAsProcess }, { loadConfig }] = await Promise.all([
    import("./serve-mirror.ts"),
    import("../sidecar/server.ts"),
    import("../sidecar/config.ts"),
  ]);
  const server = await serveMirror(args[0]!, process.env);
  runAsProcess(server);
  const { PORT, TEXT_PORT, HOST } = loadConfig(process.env);
  console.error(
    `serve: mirror ${server.distDir()} on http://${HOST}:${PORT} (API) and http://${HOST}:${TEXT_PORT} (text host); following ${args[0]}/current`,
  );
  return EXIT.ok;
}

/** init's exit status: its usage errors and a root it cannot check are 2, as check's. */
async function initCommand(args: readonly string[]): Promise<number> {
  const [init, { CheckUsageError, CheckUnreachableError }] = await Promise.all([
    import("./check/init.ts"),
    import("./check/errors.ts"),
  ]);
  try {
    return await init.initCommand(args);
  } catch (error) {
    if (!(error instanceof CheckUsageError || error instanceof CheckUnreachableError)) throw error;
    console.error(`cloud-catalogue init: ${error.message}`);
    return error instanceof CheckUnreachableError ? 3 : EXIT.usage;
  }
}

/** The command's exit status; `undefined` while it keeps running (serve). */
async function main(args: string[]): Promise<number | undefined> {
  const [command, ...rest] = args;
  // check has its own help, exits and crash handling (check.ts): it is the CI gate.
  if (command === "check") {
    const { checkCommand } = await import("./check.ts");
    return checkCommand(rest);
  }
  if (command === "init") return initCommand(rest);
  if (command === "--version" || command === "version") {
    const { toolVersion } = await import("./check.ts");
    process.stdout.write(`cloud-catalogue ${toolVersion()}\n`);
    return EXIT.ok;
  }
  // `npm run mirror -- --help` runs `cli.ts mirror --help`: a help flag anywhere asks for help.
  if (wantsHelp(args)) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const operands = rest.filter((arg) => arg !== "--debug");
  if (command === "mirror") return mirrorCommand(operands);
  if (command === "serve") {
    await serveCommand(operands).then((status) => {
      if (status !== EXIT.ok) process.exitCode = status;
    });
    return undefined;
  }
  console.error(`${USAGE}\n(cloud-catalogue --help for more)`);
  return EXIT.usage;
}

const args = process.argv.slice(2);
const debug = args.includes("--debug");
/**
 * A failure that escapes mirror or serve (a MirrorError says what failed; anything else is
 * unexpected): its message, the stack only with --debug, exit 1. check catches its own (2).
 */
const crash = (error: unknown) => {
  console.error(`cloud-catalogue: ${failureText(error, debug)}`);
  process.exit(args[0] === "check" || args[0] === "init" ? 2 : EXIT.failed);
};
if (args[0] !== "check") {
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}
main(args).then((status) => {
  if (status === undefined) return;
  process.exitCode = status;
  if (args[0] !== "check") return;
  // A failure after the check's verdict (a socket closing late) is said, and the verdict's status kept.
  const late = (error: unknown) => {
    console.error(`cloud-catalogue: after the command: ${failureText(error, debug)}`);
    process.exit(status);
  };
  process.on("uncaughtException", late);
  process.on("unhandledRejection", late);
}, crash);
