/**
 * `cloud-catalogue check <template|plan|.tf folder>`: the deployment check as a CI step (docs/ci-check.md).
 * Reads the file (or a folder's *.tf files, not its sub-folders: one Terraform module), checks it against the approved list — here, against the catalogue this package
 * holds (a fresh dist/, else catalogue/data: no server, no network), or with --api (and for a saved
 * list) through that deployment's POST /v1/deployments/check — then prints the answer as the text
 * host renders it (render.ts), writes SARIF when asked (sarif.ts), and exits with findings.ts's
 * outcome. Writes: stdout (the answer), stderr (the outcome line or the error), the --sarif file.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { TEXT_WIDTH } from "../catalogue/base/limits.ts";
import { isHttpError } from "../catalogue/base/problem.ts";
import { checkTemplate, ReadDeployment, versionWindow } from "../catalogue/contract/deployments.ts";
import { renderAnsi } from "../catalogue/format/ansi.ts";
import { renderMarkdown } from "../catalogue/format/markdown.ts";
import { loadBuiltCatalogue, loadCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { FAIL_ON, TemplateCheck, TemplateCheckBody, type FailOn } from "../catalogue/schema/index.ts";
import { requireKnownIds } from "../catalogue/search/ids.ts";
import type { DeploymentCheckAnswer } from "../catalogue/templates/check.ts";
import { TemplateBudgetError, TemplateError } from "../catalogue/templates/errors.ts";
import { checkOutcome, type CheckOutcome } from "../catalogue/templates/findings.ts";
import { readDeployment, TerraformFiles, type Deployment } from "../catalogue/templates/read.ts";
import { deploymentCheckDoc } from "../catalogue/templates/render.ts";
import { sarifLog } from "../catalogue/templates/sarif.ts";
import { serving } from "../build/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../build/inputs.ts";
import { buildUrls, CANONICAL_URLS, loadConfig } from "../sidecar/config.ts";

const CHECK_USAGE =
  "usage: cloud-catalogue check <template|plan file|folder of .tf files> (--ids a,b,c | --ids-file FILE | --list <saved list URL or id>) [--api URL] [--sarif out.sarif] [--format text|json|md] [--strict] [--retiring-within 180d] [--fail-on deprecated|extended|end] [--locations EU,CH,…]";

/** Exit statuses (docs/ci-check.md). */
const EXIT = { allowed: 0, notAllowed: 1, usage: 2, unreachable: 3 } as const;

/** A usage error or an input the check cannot read: exit 2, with the message (and the usage line when `usage`). */
export class CheckUsageError extends Error {
  readonly usage: boolean;
  constructor(message: string, usage = false) {
    super(message);
    this.usage = usage;
  }
}
/** The API could not be reached, or answered neither a check nor a refusal of the input: exit 3. */
export class CheckUnreachableError extends Error {}

type Approved = { approvedServiceIds: string[] } | { listId: string };

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
function publicApiUrl(): string | undefined {
  try {
    return loadConfig(process.env).PUBLIC_API_URL;
  } catch (error) {
    throw new CheckUsageError((error as Error).message);
  }
}

/** The catalogue this package holds: dist/'s build when fresh (fast), else catalogue/data (mcp-stdio.ts does the same). */
async function localCatalogue(): Promise<Catalogue> {
  if (existsSync(join(DIST_DIR, "api", "catalogue-source.json"))) {
    let urls = [CANONICAL_URLS];
    try {
      urls = [buildUrls(loadConfig(process.env)), CANONICAL_URLS];
    } catch {
      // An environment the server would refuse changes nothing here: the canonical build is compared.
    }
    for (const candidate of urls)
      if (await buildIsFresh(DIST_DIR, await buildInputsHash(candidate))) return loadBuiltCatalogue(serving(DIST_DIR));
  }
  return loadCatalogue();
}

/** What is checked: a file's text, or a folder's .tf files (name to text). */
type Input = string | TerraformFiles;

/** The request's options beside the template and the list. */
interface CheckOptions {
  readonly retiringWithin: string | undefined;
  /** --fail-on: the first phase of a version's life that fails the check (the API's failOn). */
  readonly failOn: FailOn | undefined;
  /** --locations: allowedLocations, as the API takes it. */
  readonly allowedLocations: string[] | undefined;
}

/** The check here: the template read first (a bad file fails before the catalogue loads), then checked. */
async function checkLocally(input: Input, ids: string[], options: CheckOptions): Promise<DeploymentCheckAnswer> {
  let deployment: Deployment;
  try {
    deployment = readDeployment(input);
  } catch (error) {
    if (error instanceof TemplateError || error instanceof TemplateBudgetError)
      throw new CheckUsageError(`the template cannot be checked: ${error.message}`);
    throw error;
  }
  const catalogue = await localCatalogue();
  try {
    // The API's rule for the ids (unknown ones named with the nearest slugs), then its check.
    return checkTemplate(
      catalogue,
      new ReadDeployment(deployment),
      requireKnownIds(catalogue, ids),
      versionWindow(new Date(), options.retiringWithin, options.failOn),
      options.allowedLocations,
    );
  } catch (error) {
    if (isHttpError(error)) throw new CheckUsageError(`${error.title}: ${error.details ?? ""}`);
    throw error;
  }
}

/** The check by a deployment's API: its refusals of the input (400, 404, 413, 415, 422) are exit 2, anything else exit 3. */
async function checkByApi(
  api: string,
  input: Input,
  approved: Approved,
  { retiringWithin, failOn, allowedLocations }: CheckOptions,
): Promise<DeploymentCheckAnswer> {
  const url = `${api.replace(/\/+$/, "")}/v1/deployments/check`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        ...(input instanceof TerraformFiles ? { files: input.files } : { template: input }),
        ...approved,
        ...(retiringWithin === undefined ? {} : { retiringWithin }),
        ...(failOn === undefined ? {} : { failOn }),
        ...(allowedLocations === undefined ? {} : { allowedLocations }),
      }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    // fetch says "fetch failed"; its cause says why (ECONNREFUSED, a DNS failure, the timeout).
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message;
    throw new CheckUnreachableError(`cannot reach ${url}: ${cause ?? (error as Error).message}`);
  }
  const body = await response.text();
  if (response.status !== 200) {
    let problem = body.slice(0, 500);
    try {
      // The API's Error shape (catalogue/base/problem.ts): {error, status, details}.
      const parsed = JSON.parse(body) as { error?: string; details?: string };
      problem = [parsed.error, parsed.details].filter(Boolean).join(": ") || problem;
    } catch {
      // not JSON (a proxy's page): its start is quoted as it is
    }
    const message = `${url} answered ${response.status}: ${problem}`;
    if ([400, 404, 413, 415, 422].includes(response.status)) throw new CheckUsageError(message);
    throw new CheckUnreachableError(message);
  }
  let parsed: ReturnType<typeof TemplateCheck.safeParse>;
  try {
    parsed = TemplateCheck.safeParse(JSON.parse(body));
  } catch {
    throw new CheckUnreachableError(`${url} answered 200 with a body that is not JSON`);
  }
  if (!parsed.success)
    throw new CheckUnreachableError(`${url} answered 200 with no deployment check: ${parsed.error.message}`);
  return parsed.data;
}

function render(answer: DeploymentCheckAnswer, format: string): string {
  if (format === "json") return `${JSON.stringify(answer, null, 2)}\n`;
  const doc = deploymentCheckDoc(answer);
  if (format === "md") return renderMarkdown(doc);
  // The text host's ANSI when a terminal reads it (and NO_COLOR is unset), plain text in a CI log.
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const columns = process.stdout.columns ?? TEXT_WIDTH.default;
  return renderAnsi(doc, color, Math.min(TEXT_WIDTH.max, Math.max(TEXT_WIDTH.min, columns)));
}

const readText = (path: string, what: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CheckUsageError(
      `cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
};

/**
 * A folder's *.tf files, as `terraform plan` reads one module: its sub-folders (other modules) are
 * not read, which stderr says, and a module block naming one is listed as not evaluated.
 */
function readFolder(folder: string): TerraformFiles {
  const names = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".tf"))
    .map((entry) => entry.name)
    .sort();
  if (names.length === 0)
    throw new CheckUsageError(`the folder ${folder} holds no .tf file (its sub-folders are not read)`);
  console.error(
    `cloud-catalogue check: read ${names.length} .tf file${names.length === 1 ? "" : "s"} in ${folder} (${names.join(", ")}); sub-folders are not read, so a module block is listed as not evaluated`,
  );
  return new TerraformFiles(Object.fromEntries(names.map((name) => [name, readText(join(folder, name), "file")])));
}

/** The findings as SARIF (sarif.ts), each at the line of what it names in the file, or in the folder's .tf files. */
function writeSarif(sarif: string, findings: CheckOutcome["findings"], file: string, input: Input): void {
  const version = (JSON.parse(readFileSync(join(ROOT_DIR, "package.json"), "utf8")) as { version: string }).version;
  const pathOf = (name: string) => relative(process.cwd(), resolve(name)).split(sep).join("/");
  const path = pathOf(file);
  const options =
    input instanceof TerraformFiles
      ? {
          path,
          text: "",
          version,
          files: Object.entries(input.files).map(([name, text]) => ({ path: pathOf(join(file, name)), text })),
        }
      : { path, text: input, version };
  try {
    writeFileSync(sarif, `${JSON.stringify(sarifLog(findings, options), null, 2)}\n`);
  } catch (error) {
    throw new CheckUsageError(`cannot write the SARIF file ${sarif}: ${(error as Error).message}`);
  }
}

/** --locations as the API's allowedLocations (the same schema element): a comma-separated list. */
function locationsOf(option: string | undefined): string[] | undefined {
  if (option === undefined) return undefined;
  const locations = option
    .split(",")
    .map((location) => location.trim())
    .filter(Boolean);
  if (!TemplateCheckBody.shape.allowedLocations.safeParse(locations).success)
    throw new CheckUsageError(
      `--locations is a comma-separated list of 1 to 100 region codes (fr-par), country codes (DE) or groups (EU, EEA), not ${option}`,
      true,
    );
  return locations;
}

/** Runs `check` with its arguments (after the word `check`); resolves to the exit status. */
export async function runCheck(args: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ids: { type: "string" },
        "ids-file": { type: "string" },
        list: { type: "string" },
        api: { type: "string" },
        sarif: { type: "string" },
        format: { type: "string", default: "text" },
        strict: { type: "boolean", default: false },
        "retiring-within": { type: "string" },
        "fail-on": { type: "string" },
        locations: { type: "string" },
      },
    }));
  } catch (error) {
    throw new CheckUsageError((error as Error).message, true);
  }
  if (positionals.length !== 1)
    throw new CheckUsageError("name one template or plan file, or one folder of .tf files", true);
  const format = values.format as string;
  if (!["text", "json", "md"].includes(format))
    throw new CheckUsageError(`--format is text, json or md, not ${format}`, true);
  const given = (["ids", "ids-file", "list"] as const).filter((name) => values[name] !== undefined);
  if (given.length !== 1) throw new CheckUsageError("give the approved list once: --ids, --ids-file or --list", true);
  const retiringWithin = values["retiring-within"] as string | undefined;
  if (retiringWithin !== undefined && !TemplateCheckBody.shape.retiringWithin.safeParse(retiringWithin).success)
    throw new CheckUsageError(`--retiring-within is a number of days such as 90d, not ${retiringWithin}`, true);
  const failOnGiven = values["fail-on"] as string | undefined;
  if (failOnGiven !== undefined && !(FAIL_ON as readonly string[]).includes(failOnGiven))
    throw new CheckUsageError(`--fail-on is ${FAIL_ON.join(", ")}, not ${failOnGiven}`, true);
  const failOn = failOnGiven as FailOn | undefined;
  const allowedLocations = locationsOf(values.locations as string | undefined);
  let api = values.api as string | undefined;
  if (api !== undefined && !/^https?:\/\/[^/]/i.test(api))
    throw new CheckUsageError(`--api is an http(s) URL, not ${api}`, true);

  const file = positionals[0]!;
  const folder = existsSync(file) && statSync(file).isDirectory();
  const input: Input = folder ? readFolder(file) : readText(file, "template");
  let approved: Approved;
  if (values.list !== undefined) {
    const reference = listReference(values.list as string);
    // A saved list lives in a deployment's store: the check runs there, against that deployment's catalogue.
    api ??= reference.api ?? publicApiUrl();
    if (!api)
      throw new CheckUsageError(
        "a saved list is checked by the API that holds it: give --api URL, a list URL of the API (…/v1/lists/<id>), or set PUBLIC_API_URL",
      );
    approved = { listId: reference.listId };
  } else {
    const ids =
      values.ids !== undefined
        ? (values.ids as string)
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean)
        : idsOfFile(readText(values["ids-file"] as string, "ids file"));
    if (ids.length === 0) throw new CheckUsageError("the approved list is empty: name at least one catalogue id");
    approved = { approvedServiceIds: ids };
  }

  const options = { retiringWithin, failOn, allowedLocations };
  const answer = api
    ? await checkByApi(api, input, approved, options)
    : await checkLocally(input, (approved as { approvedServiceIds: string[] }).approvedServiceIds, options);
  const outcome = checkOutcome(answer, { strict: values.strict === true });
  if (values.sarif !== undefined) writeSarif(values.sarif as string, outcome.findings, file, input);
  process.stdout.write(render(answer, format));
  const errors = outcome.findings.filter((finding) => finding.level === "error").length;
  const warnings = outcome.findings.length - errors;
  console.error(
    `cloud-catalogue check: ${outcome.allowed ? "allowed" : "not allowed"}${outcome.retiring > 0 ? `, ${outcome.retiring} version${outcome.retiring === 1 ? "" : "s"} retiring` : ""} (${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"})${outcome.allowed && outcome.retiring === 0 && outcome.exitCode === 1 ? "; --strict fails on the warnings" : ""}`,
  );
  return outcome.exitCode;
}

/** The command: runCheck, with its usage and API errors said on stderr and turned into their exit status. */
export async function checkCommand(args: string[]): Promise<number> {
  try {
    return await runCheck(args);
  } catch (error) {
    if (error instanceof CheckUsageError) {
      console.error(`cloud-catalogue check: ${error.message}${error.usage ? `\n${CHECK_USAGE}` : ""}`);
      return EXIT.usage;
    }
    if (error instanceof CheckUnreachableError) {
      console.error(`cloud-catalogue check: ${error.message}`);
      return EXIT.unreachable;
    }
    throw error;
  }
}
