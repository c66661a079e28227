/**
 * `cloud-catalogue check`'s arguments: one table of options (CHECK_OPTIONS, node:util parseArgs's
 * own shape: add an option there, say it in help.ts), read into a CheckRequest with the
 * configuration file's values (config.ts) beneath them: an option given wins over the file. Every
 * mistake is a usage error (exit 2) naming the option or the key. Nothing is read from disk here.
 */
import { parseArgs } from "node:util";
import { FAIL_ON, TemplateCheckBody, type FailOn } from "../../catalogue/schema/index.ts";
import { FINDING_RULES, type FindingRule } from "../../catalogue/templates/answer/findings.ts";
import type { Config } from "./config.ts";
import { CheckUsageError } from "./errors.ts";

/** How long --api waits for the check's answer when neither --api-timeout nor the configuration says (seconds). */
export const API_TIMEOUT_SECONDS = 120;

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
  "skip-rule": { type: "string", multiple: true },
  rule: { type: "string", multiple: true },
  output: { type: "string" },
  junit: { type: "string" },
  gitlab: { type: "string" },
  markdown: { type: "string" },
  "github-annotations": { type: "boolean", default: false },
  "api-timeout": { type: "string" },
  config: { type: "string" },
  "no-config": { type: "boolean", default: false },
  debug: { type: "boolean", default: false },
  version: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export type Format = "text" | "json" | "md";

/** The approved list as given: ids, a file of ids, or a saved list's reference. */
export type ApprovedOption = { readonly ids: string[] } | { readonly idsFile: string } | { readonly list: string };

/** The rules skipped or selected, and by what (--skip-rule, --rule, or the configuration file). */
export interface RuleChoice {
  readonly skipped: readonly FindingRule[];
  /** Only these rules count (empty: every rule). */
  readonly selected: readonly FindingRule[];
  /** What said so, for the suppressions' reasons: an option, or the configuration file's path. */
  readonly skippedBy: string;
  readonly selectedBy: string;
}

/** The files written beside the answer, each for a CI system. */
export interface CheckOutputs {
  /** --output: the answer written to this file instead of stdout. */
  readonly output?: string;
  readonly junit?: string;
  /** GitLab's code-quality report (a JSON array of issues). */
  readonly gitlab?: string;
  /** A pull request's comment (Markdown). */
  readonly markdown?: string;
  /** GitHub workflow commands (::error file=…,line=…::) on stdout. */
  readonly githubAnnotations: boolean;
}

export interface CheckRequest {
  /** What is checked: templates, plans, .tf files or folders of .tf files, each its own root and verdict. */
  readonly roots: readonly string[];
  /** The configuration file the request read, if any (its path, relative to the working folder). */
  readonly config?: string;
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
  readonly rules: RuleChoice;
  readonly outputs: CheckOutputs;
  /** How long --api waits for the check's answer, in seconds. */
  readonly apiTimeoutSeconds: number;
  readonly debug: boolean;
}

/** --locations (or the configuration's list) as the API's allowedLocations (the same schema element). */
function locationsOf(option: string | readonly string[], where = "--locations"): string[] {
  const locations = (typeof option === "string" ? option.split(",") : option)
    .map((location) => location.trim())
    .filter(Boolean);
  if (!TemplateCheckBody.shape.allowedLocations.safeParse(locations).success)
    throw new CheckUsageError(
      `${where} is a list of 1 to 100 region codes (fr-par), country codes (DE) or groups (EU, EEA), not ${String(option)}`,
      true,
    );
  return locations;
}

/** --rule and --skip-rule values (repeatable, or comma-separated): each a rule of the check. */
function rulesOf(values: readonly string[], option: string): FindingRule[] {
  const rules = values
    .flatMap((value) => value.split(","))
    .map((rule) => rule.trim())
    .filter(Boolean);
  const unknown = rules.filter((rule) => !(FINDING_RULES as readonly string[]).includes(rule));
  if (unknown.length > 0)
    throw usage(`${option} takes the check's rules (${FINDING_RULES.join(", ")}), not ${unknown.join(", ")}`);
  return rules as FindingRule[];
}

/** A number of seconds, "120" or "120s", from 1 to 3600. */
function secondsOf(value: string | number, where: string): number {
  const seconds = typeof value === "number" ? value : /^(\d{1,4})s?$/.exec(value.trim())?.[1];
  const number = Number(seconds);
  if (seconds === undefined || !Number.isInteger(number) || number < 1 || number > 3600)
    throw usage(`${where} is a number of seconds from 1 to 3600 such as 120s, not ${value}`);
  return number;
}

const usage = (message: string) => new CheckUsageError(message, true);

type Values = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof CHECK_OPTIONS }>
>["values"];

/** The approved list: an option's, else the configuration's. */
function approvedFrom(values: Values, config: Config | undefined): ApprovedOption {
  const file = config?.values ?? {};
  const given = (["ids", "ids-file", "list"] as const).filter((name) => values[name] !== undefined);
  if (given.length > 1) throw usage("give the approved list once: --ids, --ids-file or --list");
  if (values.ids !== undefined) {
    const ids = values.ids
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0) throw new CheckUsageError("the approved list is empty: name at least one catalogue id");
    return { ids };
  }
  if (values["ids-file"] !== undefined) return { idsFile: values["ids-file"] };
  if (values.list !== undefined) return { list: values.list };
  if (file.list && "ids" in file.list) return { ids: file.list.ids };
  if (file.list && "file" in file.list) return { idsFile: config!.resolve(file.list.file) };
  if (file.list && "saved" in file.list) return { list: file.list.saved };
  throw usage("give the approved list: --ids, --ids-file or --list (or list in .cloud-catalogue.yaml)");
}

/** The outputs beside the answer. */
function outputsFrom(values: Values): CheckOutputs {
  return {
    ...(values.output === undefined ? {} : { output: values.output }),
    ...(values.junit === undefined ? {} : { junit: values.junit }),
    ...(values.gitlab === undefined ? {} : { gitlab: values.gitlab }),
    ...(values.markdown === undefined ? {} : { markdown: values.markdown }),
    githubAnnotations: values["github-annotations"],
  };
}

/** The rules skipped and selected: the options', else the configuration's. */
function rulesFrom(values: Values, config: Config | undefined): RuleChoice {
  const file = config?.values ?? {};
  const skipped = values["skip-rule"] ? rulesOf(values["skip-rule"], "--skip-rule") : (file["skip-rules"] ?? []);
  const selected = values.rule ? rulesOf(values.rule, "--rule") : (file.rules ?? []);
  const both = skipped.filter((rule) => selected.includes(rule));
  if (both.length > 0) throw usage(`a rule is skipped and selected at once: ${both.join(", ")}`);
  return {
    skipped,
    selected,
    skippedBy: values["skip-rule"] ? "--skip-rule" : (config?.path ?? "--skip-rule"),
    selectedBy: values.rule ? "--rule" : (config?.path ?? "--rule"),
  };
}

/** The arguments after `check`; `help` when --help (or -h) is among them, `version` for --version. */
export function parseCheckArgs(args: readonly string[], config?: Config): CheckRequest | "help" | "version" {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: CHECK_OPTIONS }));
  } catch (error) {
    if (args.includes("--help") || args.includes("-h")) return "help";
    throw usage((error as Error).message);
  }
  if (values.help) return "help";
  if (values.version) return "version";
  const file = config?.values ?? {};
  const from = config ? `the configuration ${config.path}` : "";
  const roots = positionals.length > 0 ? positionals : (file.roots ?? []).map((root) => config!.resolve(root));
  if (roots.length === 0)
    throw usage(
      "name a template or plan file, or a folder of .tf files (or list them as roots in .cloud-catalogue.yaml: cloud-catalogue init writes it)",
    );
  const format = values.format as Format;
  if (!["text", "json", "md"].includes(format)) throw usage(`--format is text, json or md, not ${format}`);

  const approved = approvedFrom(values, config);
  const api = values.api ?? file.api;
  if (api !== undefined && !/^https?:\/\/[^/]/i.test(api)) throw usage(`--api is an http(s) URL, not ${api}`);
  if (api !== undefined && values.catalogue !== undefined)
    throw usage("give --catalogue (a mirror checked here) or --api (a deployment's check), not both");
  if ("list" in approved && values.catalogue !== undefined)
    throw usage("a saved list is checked by the API that holds it, not against --catalogue");
  const retiringWithin = values["retiring-within"] ?? file["retiring-within"];
  if (retiringWithin !== undefined && !TemplateCheckBody.shape.retiringWithin.safeParse(retiringWithin).success)
    throw usage(`--retiring-within is a number of days such as 90d, not ${retiringWithin}`);

  if (values.region !== undefined && !TemplateCheckBody.shape.region.safeParse(values.region).success)
    throw usage(`--region is a region code such as eu-west-1, not ${values.region}`);

  const phase = values["fail-on"] ?? file["fail-on"];
  if (phase !== undefined && !(FAIL_ON as readonly string[]).includes(phase))
    throw usage(`--fail-on is ${FAIL_ON.join(", ")}, not ${phase}`);

  const severity = values["fail-on-severity"] ?? (values.strict ? undefined : file.severity);
  if (severity !== undefined && severity !== "error" && severity !== "warning")
    throw usage(`--fail-on-severity is error or warning, not ${severity}`);
  if (values.strict && values["fail-on-severity"] === "error")
    throw usage("--strict fails on warnings; --fail-on-severity error says otherwise: give one");
  const baseline = values.baseline ?? (file.baseline === undefined ? undefined : config!.resolve(file.baseline));
  if (values["new-only"] && baseline === undefined)
    throw usage("--new-only reports the findings a baseline does not accept: give --baseline FILE");

  const timeout = values["api-timeout"] ?? file["api-timeout"];

  if (values["github-annotations"] && format === "json" && values.output === undefined)
    throw usage(
      "--github-annotations writes workflow commands on stdout, where --format json writes the answer: give --output FILE for the answer",
    );
  const locations = values.locations ?? file.locations;
  return {
    roots,
    ...(config ? { config: config.path } : {}),
    approved,
    ...(values.catalogue === undefined ? {} : { catalogueDir: values.catalogue }),
    ...(api === undefined ? {} : { api }),
    ...(retiringWithin === undefined ? {} : { retiringWithin }),
    ...(phase === undefined ? {} : { failOnPhase: phase as FailOn }),
    ...(locations === undefined
      ? {}
      : { allowedLocations: locationsOf(locations, values.locations ? "--locations" : `${from}'s locations`) }),
    variables: values.var ?? [],
    variableFiles: values["var-file"] ?? [],
    ...(values.region === undefined ? {} : { region: values.region }),
    ...(values.root === undefined ? {} : { root: values.root }),
    recursive: values.recursive,
    format,
    ...(values.sarif === undefined ? {} : { sarif: values.sarif }),
    failOn: values.strict || severity === "warning" ? "warning" : "error",
    softFail: values["soft-fail"],
    ...(baseline === undefined ? {} : { baseline }),
    newOnly: values["new-only"],
    ...(values["write-baseline"] === undefined ? {} : { writeBaseline: values["write-baseline"] }),
    rules: rulesFrom(values, config),
    outputs: outputsFrom(values),
    apiTimeoutSeconds: timeout === undefined ? API_TIMEOUT_SECONDS : secondsOf(timeout, "--api-timeout"),
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
