/**
 * `cloud-catalogue check <template|plan|.tf folder>`: the deployment check as a CI gate
 * (docs/ci-check.md; every option in check/help.ts). Reads the input within the API's bounds
 * (check/inputs.ts) and evaluates it under the API's budgets in a bounded child process
 * (check/bounded-read.ts), checks it against the approved list — here, against the catalogue this copy
 * holds or a mirror's (check/catalogue.ts), or through a deployment's POST /v1/deployments/check
 * (check/api.ts) — prints the answer as the text host renders it, weighs the findings against the
 * suppressions and the threshold (check/gate.ts), writes what CI systems read (check/outputs.ts),
 * and exits: 0 allowed, 1 not allowed, 2 no check, 3 no answer (check/errors.ts). Whatever fails, a
 * crash included, ends in 2 or 3 with the reason on stderr and in the SARIF: never in 1. Its
 * configuration file (check/config.ts) gives what the options do not; each of its roots is checked
 * on its own, with a verdict each.
 * Writes: stdout (the answer, GitHub's workflow commands), stderr (the catalogue, the findings, the
 * outcome or the error), the --sarif, --junit, --gitlab, --markdown, --output and --write-baseline files.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { isHttpError } from "../catalogue/base/problem.ts";
import { checkTemplate, ReadDeployment, versionWindow } from "../catalogue/contract/deployments.ts";
import { requireKnownIds } from "../catalogue/search/ids.ts";
import type { DeploymentCheckAnswer } from "../catalogue/templates/check.ts";
import type { Suppression } from "../catalogue/templates/answer/judge.ts";
import type { DeploymentInputs } from "../catalogue/templates/read.ts";
import { failedSarifLog } from "../catalogue/templates/answer/sarif.ts";
import { apiRelease, checkByApi, type CheckInput } from "./check/api.ts";
import { readBaseline } from "./check/baseline.ts";
import { readBounded } from "./check/bounded-read.ts";
import { catalogueOfFolder, ownCatalogue, releaseText, type CatalogueRelease } from "./check/catalogue.ts";
import { loadConfig } from "./check/config.ts";
import { CHECK_EXIT, CheckUnreachableError, CheckUsageError } from "./check/errors.ts";
import { judgeRoot, type RootOutcome } from "./check/gate.ts";
import { CHECK_HELP, CHECK_USAGE } from "./check/help.ts";
import { isFolder, readInputFile } from "./check/inputs.ts";
import { namesLocalFiles, readRootModule, readTemplateRepository, repositoryTop, rootModules } from "./check/roots.ts";
import { checkInputs } from "./check/variables.ts";
import { parseCheckArgs, sarifPathOf, type CheckRequest } from "./check/options.ts";
import { writeOutput, writeRun } from "./check/outputs.ts";
import { PACKAGED } from "./package/packaged.ts";

export { CheckUnreachableError, CheckUsageError } from "./check/errors.ts";

/** The ids of --ids-file: a JSON array, a JSON object with approvedServiceIds (GET /v1/lists/{id}), or text (commas, spaces or lines; `#` comments). */
export function idsOfFile(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new CheckUsageError(`the ids file is not valid JSON: ${(error as Error).message}`);
    }
    const ids =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as { approvedServiceIds?: unknown }).approvedServiceIds
        : value;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string"))
      throw new CheckUsageError("the ids file's JSON must be a list of ids, or an object with approvedServiceIds");
    return ids;
  }
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, ""))
    .join(" ")
    .split(/[\s,]+/)
    .filter(Boolean);
}

/**
 * A saved list's reference: its id or slug, or a URL ending in /lists/<id> (the text host's, which
 * the list's `url` is) or /v1/lists/<id> (the API's, which names the API too).
 */
export function listReference(reference: string): { listId: string; api?: string } {
  if (!/^https?:\/\//i.test(reference)) return { listId: reference };
  let url: URL;
  try {
    url = new URL(reference);
  } catch {
    throw new CheckUsageError(`not a URL: ${reference}`);
  }
  const match = /^(.*?)(\/v1)?\/lists\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) throw new CheckUsageError(`not a saved list's URL (…/lists/<id>): ${reference}`);
  return {
    listId: decodeURIComponent(match[3]!),
    ...(match[2] ? { api: `${url.origin}${match[1]}` } : {}),
  };
}

/** PUBLIC_API_URL as the server reads it (sidecar/config.ts); an environment it refuses is a usage error. */
async function publicApiUrl(): Promise<string | undefined> {
  const { loadConfig } = await import("../sidecar/config.ts");
  try {
    return loadConfig(process.env).PUBLIC_API_URL;
  } catch (error) {
    throw new CheckUsageError((error as Error).message);
  }
}

/** The tool's version (SARIF, --version): the package's, or in a clone the repository's (cli/package.json keeps them one). */
export const toolVersion = (): string =>
  PACKAGED?.version ??
  (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** The check here: the input read first (a bad file fails before the catalogue loads), then checked. */
async function checkLocally(
  input: CheckInput,
  ids: string[],
  request: CheckRequest,
  given: DeploymentInputs,
): Promise<{ answer: DeploymentCheckAnswer; release: CatalogueRelease }> {
  // Read in a child bounded as the API's reading thread, before the catalogue loads (check/bounded-read.ts).
  const deployment = await readBounded(input, given);
  const { catalogue, release } = request.catalogueDir ? catalogueOfFolder(request.catalogueDir) : await ownCatalogue();
  try {
    // The API's rule for the ids (unknown ones named with the nearest slugs), then its check.
    const answer = checkTemplate(
      catalogue,
      new ReadDeployment(deployment),
      requireKnownIds(catalogue, ids),
      versionWindow(new Date(), request.retiringWithin, request.failOnPhase),
      request.allowedLocations,
    );
    return { answer, release };
  } catch (error) {
    if (isHttpError(error)) throw new CheckUsageError(`${error.title}: ${error.details ?? ""}`);
    throw error;
  }
}

/** Writes a SARIF log; a file that cannot be written is a usage error (exit 2). */
const writeSarifFile = (path: string, log: unknown) => writeOutput(path, "SARIF", `${JSON.stringify(log, null, 2)}\n`);

/** What a run knows by the time it ends, for its SARIF should it end without a verdict. */
export interface RunState {
  release?: CatalogueRelease;
}

/** What is checked, and the folder its files' names are relative to (the repository's top: SARIF's paths). */
export interface ReadInput {
  readonly input: CheckInput;
  readonly base: string;
}

/** What was read, said on stderr. */
function sayRead(files: Readonly<Record<string, string>>, where: string): void {
  const names = Object.keys(files);
  const shown = names.length > 8 ? `${names.slice(0, 8).join(", ")}, …` : names.join(", ");
  console.error(
    `cloud-catalogue check: read ${names.length} file${names.length === 1 ? "" : "s"} in ${where} (${shown})`,
  );
}

/**
 * What is checked (check/roots.ts): a folder as terraform plan reads it, its modules anywhere under
 * the repository's top; a template with the nested templates and snippets it names by a local path;
 * a .tf file under its own name; else the file's text.
 */
export async function readCheckInput(path: string, rootOption?: string): Promise<ReadInput> {
  const top = await repositoryTop(path, rootOption);
  if (await isFolder(path)) {
    const { files, root } = await readRootModule(top, path);
    sayRead(files, root === "" ? path : `${path} (the repository ${top})`);
    return { input: { files, ...(root === "" ? {} : { root }) }, base: top };
  }
  const text = await readInputFile(path, "template");
  if (path.endsWith(".tf")) return { input: { files: { [basename(path)]: text } }, base: dirname(resolve(path)) };
  if (namesLocalFiles(text)) {
    const { files, root } = await readTemplateRepository(top, path, text);
    if (Object.keys(files).length > 1) {
      sayRead(files, `the repository ${top}`);
      return { input: { files, root }, base: top };
    }
  }
  return { input: { template: text }, base: dirname(resolve(path)) };
}

/**
 * The roots a request checks: each path given, or with --recursive every root module under each
 * folder given (check/roots.ts), each by its path from the working folder.
 */
async function rootsOf(request: CheckRequest): Promise<string[]> {
  if (!request.recursive) return [...request.roots];
  const roots: string[] = [];
  for (const path of request.roots) {
    if (!(await isFolder(path)))
      throw new CheckUsageError(`--recursive checks a repository's root modules: ${path} is not a folder`, true);
    const top = await repositoryTop(path, request.root);
    const found = await rootModules(top, path);
    if (found.length === 0) throw new CheckUsageError(`${path} holds no Terraform root module (no .tf file)`);
    roots.push(...found.map((root) => (root === "" ? top : resolve(top, root))));
  }
  return roots;
}

/** The approved list as the API takes it, and the API that checks a saved list. */
async function approvedOf(
  request: CheckRequest,
): Promise<{ approved: { approvedServiceIds: string[] } | { listId: string }; api: string | undefined }> {
  if ("list" in request.approved) {
    const reference = listReference(request.approved.list);
    // A saved list lives in a deployment's store: the check runs there, against that deployment's catalogue.
    const api = request.api ?? reference.api ?? (await publicApiUrl());
    if (!api)
      throw new CheckUsageError(
        "a saved list is checked by the API that holds it: give --api URL, a list URL of the API (…/v1/lists/<id>), or set PUBLIC_API_URL",
      );
    return { approved: { listId: reference.listId }, api };
  }
  const ids =
    "ids" in request.approved
      ? request.approved.ids
      : idsOfFile(await readInputFile(request.approved.idsFile, "ids file"));
  if (ids.length === 0) throw new CheckUsageError("the approved list is empty: name at least one catalogue id");
  return { approved: { approvedServiceIds: ids }, api: request.api };
}

/** --var, --var-file and --region as the API's inputs and region. */
async function givenOf(request: CheckRequest): Promise<DeploymentInputs> {
  const files = await Promise.all(
    request.variableFiles.map(async (path) => [path, await readInputFile(path, "variable file")] as const),
  );
  const inputs = checkInputs(files, request.variables);
  return { ...(inputs ? { inputs } : {}), ...(request.region ? { region: request.region } : {}) };
}

/** One root checked: read, then checked here or by the API. */
async function checkRoot(
  request: CheckRequest,
  root: string,
  approved: Awaited<ReturnType<typeof approvedOf>>,
  given: DeploymentInputs,
  state: RunState,
) {
  const { input, base } = await readCheckInput(root, request.root);
  let answer: DeploymentCheckAnswer;
  if (approved.api) {
    const asked = {
      approved: approved.approved,
      retiringWithin: request.retiringWithin,
      failOn: request.failOnPhase,
      allowedLocations: request.allowedLocations,
      given,
    };
    const [checked, release] = await Promise.all([
      checkByApi(approved.api, input, asked, request.apiTimeoutSeconds),
      apiRelease(approved.api),
    ]);
    answer = checked;
    state.release = release;
  } else {
    const ids = (approved.approved as { approvedServiceIds: string[] }).approvedServiceIds;
    const local = await checkLocally(input, ids, request, given);
    answer = local.answer;
    state.release = local.release;
  }
  return { root, base, input, answer, release: state.release };
}

/**
 * Every root of a request checked and judged (each its own check and verdict: docs/ci-check.md,
 * "Configuration"), with the baseline's entries they were judged against; nothing written yet.
 */
export async function checkAll(
  request: CheckRequest,
  state: RunState = {},
): Promise<{ outcomes: RootOutcome[]; baseline: Suppression[] }> {
  const given = await givenOf(request);
  const baseline: Suppression[] = request.baseline ? await readBaseline(request.baseline) : [];
  const approved = await approvedOf(request);
  const outcomes: RootOutcome[] = [];
  for (const root of await rootsOf(request))
    outcomes.push(judgeRoot(await checkRoot(request, root, approved, given, state), baseline, request));
  console.error(`cloud-catalogue check: checked against the ${releaseText(state.release!)}`);
  return { outcomes, baseline };
}

/** Runs `check` with its arguments (after the word `check`); resolves to the exit status. */
export async function runCheck(args: string[], state: RunState = {}): Promise<number> {
  // --help and --version answer whatever the configuration holds.
  const asks = args.some((arg) => ["--help", "-h", "--version"].includes(arg));
  const config = asks ? undefined : await loadConfig(args);
  const request = parseCheckArgs(args, config);
  if (request === "help") {
    process.stdout.write(CHECK_HELP);
    return CHECK_EXIT.allowed;
  }
  if (request === "version") {
    process.stdout.write(`cloud-catalogue ${toolVersion()}\n`);
    return CHECK_EXIT.allowed;
  }
  if (config) console.error(`cloud-catalogue check: read the configuration ${config.path}`);
  const { outcomes, baseline } = await checkAll(request, state);
  return writeRun(request, outcomes, baseline, toolVersion());
}

/**
 * Runs the check to its exit status, whatever happens: its failures (CheckUsageError: 2;
 * CheckUnreachableError: 3) and any crash (2, a short message; the stack with --debug), thrown or
 * escaping from a callback while it runs, are said on stderr and, with --sarif, written as a log
 * with the reason. (After it, cli.ts keeps a late failure from changing the status.)
 */
export async function checkCommand(args: string[]): Promise<number> {
  const state: RunState = {};
  const debug = args.includes("--debug");
  let crashed: ((error: unknown) => void) | undefined;
  const run = new Promise<number>((resolveRun, reject) => {
    crashed = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
    process.on("uncaughtException", crashed);
    process.on("unhandledRejection", crashed);
    runCheck(args, state).then(resolveRun, reject);
  });
  try {
    return await run;
  } catch (error) {
    return failed(error, args, state, debug);
  } finally {
    process.off("uncaughtException", crashed!);
    process.off("unhandledRejection", crashed!);
  }
}

/** A run that ended without a verdict: the reason on stderr and in the SARIF; 3 when the API gave no answer, else 2. */
function failed(error: unknown, args: readonly string[], state: RunState, debug: boolean): number {
  const exitCode = error instanceof CheckUnreachableError ? CHECK_EXIT.unreachable : CHECK_EXIT.noCheck;
  const reason =
    error instanceof CheckUsageError || error instanceof CheckUnreachableError
      ? error.message
      : `the check failed unexpectedly, so there is no verdict: ${error instanceof Error ? error.message : String(error)}${debug ? "" : " (--debug shows where)"}`;
  console.error(`cloud-catalogue check: ${reason}`);
  if (error instanceof CheckUsageError && error.usage) console.error(CHECK_USAGE);
  if (debug && error instanceof Error && !(error instanceof CheckUsageError) && error.stack) console.error(error.stack);
  const sarif = sarifPathOf(args);
  if (sarif !== undefined) {
    try {
      const catalogue = state.release;
      writeSarifFile(
        sarif,
        failedSarifLog({ version: toolVersion(), exitCode, reason, ...(catalogue ? { catalogue } : {}) }),
      );
    } catch (writeError) {
      console.error(`cloud-catalogue check: ${(writeError as Error).message}`);
    }
  }
  return exitCode;
}
