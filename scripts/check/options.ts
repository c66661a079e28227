/**
 * `cloud-catalogue check`'s arguments: one table of options (CHECK_OPTIONS, node:util parseArgs's
 * own shape: add an option there, say it in help.ts), read into a CheckRequest; every mistake is a
 * usage error (exit 2) naming the option. Nothing is read from disk here.
 */
import { parseArgs } from "node:util";
import { FAIL_ON, TemplateCheckBody, type FailOn } from "../../catalogue/schema/index.ts";
import { CheckUsageError } from "./errors.ts";

export const CHECK_OPTIONS = {
  ids: { type: "string" },
  "ids-file": { type: "string" },
  list: { type: "string" },
  catalogue: { type: "string" },
  api: { type: "string" },
  "retiring-within": { type: "string" },
  "fail-on": { type: "string" },
  locations: { type: "string" },
  var: { type: "string", multiple: true },
  "var-file": { type: "string", multiple: true },
  region: { type: "string" },
  root: { type: "string" },
  recursive: { type: "boolean", default: false },
  format: { type: "string", default: "text" },
  sarif: { type: "string" },
  "fail-on-severity": { type: "string" },
  strict: { type: "boolean", default: false },
  "soft-fail": { type: "boolean", default: false },
  baseline: { type: "string" },
  "new-only": { type: "boolean", default: false },
  "write-baseline": { type: "string" },
  debug: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export type Format = "text" | "json" | "md";

/** The approved list as given: ids, a file of ids, or a saved list's reference. */
export type ApprovedOption = { readonly ids: string[] } | { readonly idsFile: string } | { readonly list: string };

export interface CheckRequest {
  /** The template, plan or .tf file, or the folder of .tf files. */
  readonly path: string;
  readonly approved: ApprovedOption;
  readonly catalogueDir?: string;
  readonly api?: string;
  readonly retiringWithin?: string;
  /** --fail-on: the first phase of a version's life that fails the check (the API's failOn). */
  readonly failOnPhase?: FailOn;
  /** --locations: allowedLocations, as the API takes it. */
  readonly allowedLocations?: string[];
  /** --var name=value and --var-file FILE, in order (the deployment's inputs), and --region. */
  readonly variables: string[];
  readonly variableFiles: string[];
  readonly region?: string;
  /** --root: the repository's top (else the git root above the path, else the path's folder). */
  readonly root?: string;
  /** --recursive: every root module under the path, one verdict each. */
  readonly recursive: boolean;
  readonly format: Format;
  readonly sarif?: string;
  readonly failOn: "error" | "warning";
  readonly softFail: boolean;
  readonly baseline?: string;
  readonly newOnly: boolean;
  readonly writeBaseline?: string;
  readonly debug: boolean;
}

/** --locations as the API's allowedLocations (the same schema element): a comma-separated list. */
function locationsOf(option: string): string[] {
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

const usage = (message: string) => new CheckUsageError(message, true);

/** The arguments after `check`; `help` when --help (or -h) is among them, whatever else is. */
export function parseCheckArgs(args: readonly string[]): CheckRequest | "help" {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof CHECK_OPTIONS }>>;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: CHECK_OPTIONS });
  } catch (error) {
    if (args.includes("--help") || args.includes("-h")) return "help";
    throw usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length !== 1)
    throw usage("name one template or plan file, or one folder of .tf files (a repository with --recursive)");
  const format = values.format as Format;
  if (!["text", "json", "md"].includes(format)) throw usage(`--format is text, json or md, not ${format}`);

  const given = (["ids", "ids-file", "list"] as const).filter((name) => values[name] !== undefined);
  if (given.length !== 1) throw usage("give the approved list once: --ids, --ids-file or --list");
  let approved: ApprovedOption;
  if (values.ids !== undefined) {
    const ids = values.ids
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0) throw new CheckUsageError("the approved list is empty: name at least one catalogue id");
    approved = { ids };
  } else approved = values["ids-file"] !== undefined ? { idsFile: values["ids-file"] } : { list: values.list! };

  if (values.api !== undefined && !/^https?:\/\/[^/]/i.test(values.api))
    throw usage(`--api is an http(s) URL, not ${values.api}`);
  if (values.api !== undefined && values.catalogue !== undefined)
    throw usage("give --catalogue (a mirror checked here) or --api (a deployment's check), not both");
  if (values.list !== undefined && values.catalogue !== undefined)
    throw usage("a saved list is checked by the API that holds it, not against --catalogue");
  const retiringWithin = values["retiring-within"];
  if (retiringWithin !== undefined && !TemplateCheckBody.shape.retiringWithin.safeParse(retiringWithin).success)
    throw usage(`--retiring-within is a number of days such as 90d, not ${retiringWithin}`);

  if (values.region !== undefined && !TemplateCheckBody.shape.region.safeParse(values.region).success)
    throw usage(`--region is a region code such as eu-west-1, not ${values.region}`);

  const phase = values["fail-on"];
  if (phase !== undefined && !(FAIL_ON as readonly string[]).includes(phase))
    throw usage(`--fail-on is ${FAIL_ON.join(", ")}, not ${phase}`);

  const severity = values["fail-on-severity"];
  if (severity !== undefined && severity !== "error" && severity !== "warning")
    throw usage(`--fail-on-severity is error or warning, not ${severity}`);
  if (values.strict && severity === "error")
    throw usage("--strict fails on warnings; --fail-on-severity error says otherwise: give one");
  if (values["new-only"] && values.baseline === undefined)
    throw usage("--new-only reports the findings a baseline does not accept: give --baseline FILE");

  return {
    path: positionals[0]!,
    approved,
    ...(values.catalogue === undefined ? {} : { catalogueDir: values.catalogue }),
    ...(values.api === undefined ? {} : { api: values.api }),
    ...(retiringWithin === undefined ? {} : { retiringWithin }),
    ...(phase === undefined ? {} : { failOnPhase: phase as FailOn }),
    ...(values.locations === undefined ? {} : { allowedLocations: locationsOf(values.locations) }),
    variables: values.var ?? [],
    variableFiles: values["var-file"] ?? [],
    ...(values.region === undefined ? {} : { region: values.region }),
    ...(values.root === undefined ? {} : { root: values.root }),
    recursive: values.recursive,
    format,
    ...(values.sarif === undefined ? {} : { sarif: values.sarif }),
    failOn: values.strict || severity === "warning" ? "warning" : "error",
    softFail: values["soft-fail"],
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    newOnly: values["new-only"],
    ...(values["write-baseline"] === undefined ? {} : { writeBaseline: values["write-baseline"] }),
    debug: values.debug,
  };
}

/**
 * The --sarif file named in arguments that may not parse: a run that stops on a usage error still
 * writes its SARIF there, with the reason.
 */
export function sarifPathOf(args: readonly string[]): string | undefined {
  let path: string | undefined;
  args.forEach((arg, at) => {
    if (arg === "--sarif" && args[at + 1] !== undefined && !args[at + 1]!.startsWith("--")) path = args[at + 1];
    else if (arg.startsWith("--sarif=")) path = arg.slice("--sarif=".length);
  });
  return path || undefined;
}
