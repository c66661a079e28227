/**
 * `cloud-catalogue check <template|plan|.tf folder>`: the deployment check as a CI gate
 * (docs/ci-check.md; every option in check/help.ts). Reads the input within the API's bounds
 * (check/inputs.ts), checks it against the approved list — here, against the catalogue this copy
 * holds or a mirror's (check/catalogue.ts), or through a deployment's POST /v1/deployments/check
 * (check/api.ts) — prints the answer as the text host renders it, weighs the findings against the
 * baseline and the threshold (findings.ts's judge()), writes SARIF when asked, and exits:
 * 0 allowed, 1 not allowed, 2 no check, 3 no answer (check/errors.ts). Whatever fails, a crash
 * included, ends in 2 or 3 with the reason on stderr and in the SARIF: never in 1.
 * Writes: stdout (the answer), stderr (the catalogue, the findings, the outcome or the error), the
 * --sarif and --write-baseline files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { TEXT_WIDTH } from "../catalogue/base/limits.ts";
import { isHttpError } from "../catalogue/base/problem.ts";
import { checkTemplate, ReadDeployment, versionWindow } from "../catalogue/contract/deployments.ts";
import { renderAnsi } from "../catalogue/format/ansi.ts";
import { renderMarkdown } from "../catalogue/format/markdown.ts";
import { requireKnownIds } from "../catalogue/search/ids.ts";
import type { DeploymentCheckAnswer } from "../catalogue/templates/check.ts";
import { TemplateBudgetError, TemplateError } from "../catalogue/templates/model/errors.ts";
import {
  baselineOf,
  checkOutcome,
  judge,
  type Judgement,
  type Suppression,
} from "../catalogue/templates/answer/findings.ts";
import { readDeployment, TerraformFiles, type Deployment, type DeploymentInputs } from "../catalogue/templates/read.ts";
import { deploymentCheckDoc } from "../catalogue/templates/answer/render.ts";
import { failedSarifLog, sarifLog } from "../catalogue/templates/answer/sarif.ts";
import { apiRelease, checkByApi, type CheckInput } from "./check/api.ts";
import { readBaseline, writeBaseline } from "./check/baseline.ts";
import { catalogueOfFolder, ownCatalogue, releaseText, type CatalogueRelease } from "./check/catalogue.ts";
import { CHECK_EXIT, CheckUnreachableError, CheckUsageError } from "./check/errors.ts";
import { CHECK_HELP, CHECK_USAGE } from "./check/help.ts";
import { isFolder, readInputFile } from "./check/inputs.ts";
import { checkRoots } from "./check/recursive.ts";
import { namesLocalFiles, readRootModule, readTemplateRepository, repositoryTop, rootModules } from "./check/roots.ts";
import { checkInputs } from "./check/variables.ts";
import { parseCheckArgs, sarifPathOf, type CheckRequest, type Format } from "./check/options.ts";
import { findingLines, outcomeLine } from "./check/report.ts";
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

/** The tool's version for SARIF: the package's, or in a clone the repository's (cli/package.json keeps them one). */
const toolVersion = (): string =>
  PACKAGED?.version ??
  (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** A path as SARIF and the baseline name it: relative to the working folder (the repository's root in CI). */
const pathOf = (name: string) => relative(process.cwd(), resolve(name)).split(sep).join("/") || ".";

/** The check here: the input read first (a bad file fails before the catalogue loads), then checked. */
async function checkLocally(
  input: CheckInput,
  ids: string[],
  request: CheckRequest,
  given: DeploymentInputs,
): Promise<{ answer: DeploymentCheckAnswer; release: CatalogueRelease }> {
  let deployment: Deployment;
  try {
    deployment = readDeployment(
      "template" in input ? input.template : new TerraformFiles({ ...input.files }, input.root),
      given,
    );
  } catch (error) {
    if (error instanceof TemplateError || error instanceof TemplateBudgetError)
      throw new CheckUsageError(`the template cannot be checked: ${error.message}`);
    throw error;
  }
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

function render(answer: DeploymentCheckAnswer, format: Format, release: CatalogueRelease): string {
  if (format === "json") return `${JSON.stringify(answer, null, 2)}\n`;
  const doc = deploymentCheckDoc(answer);
  const checkedAgainst = `Checked against the ${releaseText(release)}.\n`;
  if (format === "md") return `${renderMarkdown(doc)}\n${checkedAgainst}`;
  // The text host's ANSI when a terminal reads it (and NO_COLOR is unset), plain text in a CI log.
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const columns = process.stdout.columns ?? TEXT_WIDTH.default;
  return `${renderAnsi(doc, color, Math.min(TEXT_WIDTH.max, Math.max(TEXT_WIDTH.min, columns)))}\n${checkedAgainst}`;
}

/** Writes a SARIF log; a file that cannot be written is a usage error (exit 2). */
function writeSarifFile(path: string, log: unknown): void {
  try {
    writeFileSync(path, `${JSON.stringify(log, null, 2)}\n`);
  } catch (error) {
    throw new CheckUsageError(`cannot write the SARIF file ${path}: ${(error as Error).message}`);
  }
}

/** What a run knows by the time it ends, for its SARIF should it end without a verdict. */
interface RunState {
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

/** Runs `check` with its arguments (after the word `check`); resolves to the exit status. */
export async function runCheck(args: string[], state: RunState = {}): Promise<number> {
  const request = parseCheckArgs(args);
  if (request === "help") {
    process.stdout.write(CHECK_HELP);
    return CHECK_EXIT.allowed;
  }
  if (request.recursive) return checkRepository(request, state);
  const { input, base } = await readCheckInput(request.path, request.root);
  const given = await givenOf(request);
  const suppressions: Suppression[] = request.baseline ? await readBaseline(request.baseline) : [];
  const checker = await checkerOf(request, given);
  const { answer, release } = await checker(input);
  state.release = release;
  console.error(`cloud-catalogue check: checked against the ${releaseText(state.release)}`);

  return report(request, input, answer, suppressions, state.release, base);
}

/** How one input is checked with the request's list, inputs and options: locally, or by the API. */
export type Checker = (input: CheckInput) => Promise<{ answer: DeploymentCheckAnswer; release: CatalogueRelease }>;

async function checkerOf(request: CheckRequest, given: DeploymentInputs): Promise<Checker> {
  const { approved, api } = await approvedOf(request);
  if (api) {
    const asked = {
      approved,
      retiringWithin: request.retiringWithin,
      failOn: request.failOnPhase,
      allowedLocations: request.allowedLocations,
      given,
    };
    return async (input) => {
      const [answer, release] = await Promise.all([checkByApi(api, input, asked), apiRelease(api)]);
      return { answer, release };
    };
  }
  const ids = (approved as { approvedServiceIds: string[] }).approvedServiceIds;
  return (input) => checkLocally(input, ids, request, given);
}

/** --recursive: every root module of the repository checked (check/recursive.ts), one verdict each. */
async function checkRepository(request: CheckRequest, state: RunState): Promise<number> {
  const top = await repositoryTop(request.path, request.root);
  if (!(await isFolder(request.path)))
    throw new CheckUsageError(`--recursive checks a repository's root modules: ${request.path} is not a folder`, true);
  const roots = await rootModules(top, request.path);
  if (roots.length === 0) throw new CheckUsageError(`${request.path} holds no Terraform root module (no .tf file)`);
  const given = await givenOf(request);
  const suppressions: Suppression[] = request.baseline ? await readBaseline(request.baseline) : [];
  const checker = await checkerOf(request, given);
  return checkRoots(request, top, roots, {
    check: checker,
    read: async (root) => {
      const read = await readRootModule(top, root === "" ? top : resolve(top, root));
      return { files: read.files, ...(read.root === "" ? {} : { root: read.root }) };
    },
    suppressions,
    version: toolVersion(),
    render: (answer, release) => render(answer, request.format, release),
    released: (release) => (state.release = release),
  });
}

/** The answer weighed, written and said: the baseline written when asked, the SARIF, the output; the exit status. */
function report(
  request: CheckRequest,
  input: CheckInput,
  answer: DeploymentCheckAnswer,
  suppressions: readonly Suppression[],
  release: CatalogueRelease,
  base: string,
): number {
  const file = pathOf(request.path);
  const outcome = checkOutcome(answer);
  const today = new Date().toISOString().slice(0, 10);
  let judgement: Judgement = judge(outcome.findings, { failOn: request.failOn, suppressions, file, today });
  if (request.writeBaseline) {
    const kept = suppressions.filter((entry) => judgement.findings.some((found) => found.acceptedBy.includes(entry)));
    const written = [...kept, ...baselineOf(judgement.counted, file, today)];
    writeBaseline(request.writeBaseline, written);
    console.error(
      `cloud-catalogue check: wrote ${written.length} entr${written.length === 1 ? "y" : "ies"} to the baseline ${request.writeBaseline}; give each a reason`,
    );
    judgement = judge(outcome.findings, { failOn: request.failOn, suppressions: written, file, today });
  }
  const exitCode = judgement.exitCode === 1 && !request.softFail ? CHECK_EXIT.notAllowed : CHECK_EXIT.allowed;
  const baselineGiven = request.baseline !== undefined || request.writeBaseline !== undefined;

  if (request.sarif !== undefined) {
    const sarifInput =
      "files" in input
        ? {
            path: file,
            text: "",
            files: Object.entries(input.files).map(([name, text]) => ({
              path: pathOf(resolve(base, name)),
              text,
            })),
          }
        : { path: file, text: input.template };
    writeSarifFile(
      request.sarif,
      sarifLog(outcome.findings, {
        ...sarifInput,
        version: toolVersion(),
        exitCode,
        ...(baselineGiven ? { baseline: { ...judgement, newOnly: request.newOnly } } : {}),
        catalogue: release,
      }),
    );
  }
  process.stdout.write(render(answer, request.format, release));
  for (const line of findingLines(judgement, { newOnly: request.newOnly })) console.error(line);
  console.error(outcomeLine(outcome.allowed, judgement, { softFail: request.softFail, failOn: request.failOn }));
  return exitCode;
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
