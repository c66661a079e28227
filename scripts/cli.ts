#!/usr/bin/env node
/**
 * cloud-catalogue — mirror a deployment for offline use, serve a mirror, check a deployment.
 *   cloud-catalogue mirror <api-url> <dir>   fetch (or update) a verified copy of the build
 *   cloud-catalogue serve <dir>              serve it on PORT/TEXT_PORT with no network
 *   cloud-catalogue check <file> --ids …     check a template or plan against an approved list (check.ts)
 * serve answers every read, the text host and the site from the copy, and computes search,
 * compare, exposure, policies and the Markdown export from the mirrored catalogue. Lists and
 * feedback use the embedded store in <dir>/data (they stay on this machine).
 */
import { loadConfig } from "../sidecar/config.ts";
import { runAsProcess } from "../sidecar/server.ts";
import { mirror, MirrorError } from "./mirror.ts";
import { serveMirror } from "./serve-mirror.ts";

const USAGE =
  "usage: cloud-catalogue mirror <api-url> <dir> | cloud-catalogue serve <dir> | cloud-catalogue check <file> --ids a,b,c | cloud-catalogue --help";

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
  cloud-catalogue check <template|plan file> (--ids a,b,c | --ids-file FILE | --list LIST)
                        [--api URL] [--sarif out.sarif] [--format text|json|md] [--strict]
                        [--locations EU,CH,…]
      Check a CloudFormation or SAM template, an ARM template (Bicep's output), a Terraform
      plan (terraform show -json) or a list of Google APIs against the approved services:
      the services it uses, what the list lacks, and each vendor policy's verdict, printed
      as the text host renders it (json: the API's answer). It runs here, against the
      catalogue this package holds: no server, no network. --api URL asks that deployment's
      POST /v1/deployments/check instead. --ids-file reads ids separated by commas, spaces or
      lines (# comments), a JSON list, or a saved list's JSON (GET /v1/lists/<id>). --list
      names a saved list (its id, slug or URL): it is checked by the API that holds it,
      --api, the API of a …/v1/lists/<id> URL, or PUBLIC_API_URL. --sarif writes the
      findings as SARIF 2.1.0 for code scanning. --strict fails on warnings too.
      --locations (region codes of any provider, country codes, EU, EEA) fails on a
      resource whose stated region, location or zone is outside them.
  cloud-catalogue --help
      This text (also -h or help).

Environment (serve):
  PORT              API port (default 8080)
  TEXT_PORT         text host port (default 8081)
  HOST              address to listen on (default 127.0.0.1)
  PUBLIC_API_URL    the API's public URL, if not http://HOST:PORT
  PUBLIC_TEXT_URL   the text host's public URL, if not http://HOST:TEXT_PORT

Environment (check):
  PUBLIC_API_URL    the API a --list is checked by, when neither --api nor the list's URL names one
  NO_COLOR          plain text even on a terminal

Exit status: mirror and serve: 0 on success, 1 when mirroring or serving fails, 2 on a usage error.
check: 0 when every vendor verdict from the approved list allows the deployment and the list
lacks none of its services (unplaced and unevaluated items are warnings; with --strict they
fail too); 1 when it is not allowed (errors in the SARIF); 2 on a usage error, an unreadable
file or template, an unwritable --sarif file, unknown ids or a list not found; 3 when the API
cannot be reached or fails.

Examples:
  npm run mirror -- http://localhost:8080 ./mirror
  npx cloud-catalogue serve ./mirror
  PORT=9080 TEXT_PORT=9081 npx cloud-catalogue serve ./mirror
  npx cloud-catalogue check template.yaml --ids aws-s3,aws-lambda --sarif check.sarif
  terraform show -json plan.out > plan.json && npx cloud-catalogue check plan.json --ids-file approved.txt

More: docs/operations.md ("Mirror"), docs/ci-check.md (check in CI).
`;

async function main(args: string[]): Promise<void> {
  // `npm run mirror -- --help` runs `cli.ts mirror --help`: a help flag anywhere asks for help.
  if (args.some((arg) => arg === "--help" || arg === "-h") || args[0] === "help") {
    process.stdout.write(HELP);
    return;
  }
  const [command, ...rest] = args;
  if (command === "check") {
    // Loaded only for check: mirror and serve start without the deployment check's modules.
    const { checkCommand } = await import("./check.ts");
    process.exitCode = await checkCommand(rest);
    return;
  }
  if (command === "mirror" && rest.length === 2) {
    const [apiUrl, dir] = rest as [string, string];
    if (!/^https?:\/\//.test(apiUrl)) throw new MirrorError(`not an http(s) URL: ${apiUrl}`);
    await mirror(apiUrl, dir);
    return;
  }
  if (command === "serve" && rest.length === 1) {
    const server = await serveMirror(rest[0]!, process.env);
    runAsProcess(server);
    const { PORT, TEXT_PORT, HOST } = loadConfig(process.env);
    console.error(
      `serve: mirror ${server.distDir()} on http://${HOST}:${PORT} (API) and http://${HOST}:${TEXT_PORT} (text host); following ${rest[0]}/current`,
    );
    return;
  }
  console.error(`${USAGE}\n(cloud-catalogue --help for more)`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`cloud-catalogue: ${error instanceof MirrorError ? error.message : (error as Error).stack}`);
  process.exit(1);
});
