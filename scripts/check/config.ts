/**
 * `.cloud-catalogue.yaml`, the gate's configuration kept in the repository (docs/ci-check.md,
 * "Configuration"): the approved list, the roots checked, the locations, the phase and severity the
 * gate fails on, the rules skipped or selected, the baseline, the API and its timeout. Found at the
 * working folder or the nearest folder above it, up to the repository's top (the folder holding
 * `.git`), as eslint and tflint find theirs; `--config FILE` names one, `--no-config` reads none.
 * Read strictly: YAML that does not parse, an unknown key (with the nearest known one), a rule the
 * check does not have, a value of the wrong kind — each a usage error (exit 2) naming the file,
 * the line and the key. Paths in it are relative to its folder.
 */
import { existsSync, lstatSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { isMap, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { z } from "zod";
import { issuePath, type Issue } from "../../catalogue/base/issues.ts";
import { FAIL_ON } from "../../catalogue/schema/index.ts";
import { strictBody } from "../../catalogue/schema/unknown-keys.ts";
import { FINDING_RULES } from "../../catalogue/templates/answer/findings.ts";
import { CheckUsageError } from "./errors.ts";
import { readInputFile } from "./inputs.ts";

export const CONFIG_NAMES = [".cloud-catalogue.yaml", ".cloud-catalogue.yml"] as const;

const Rule = z.enum(FINDING_RULES, {
  error: (issue) => `not a rule of the check (${FINDING_RULES.join(", ")}): ${String(issue.input).slice(0, 60)}`,
});
const Text = z.string().trim().min(1);

/** The approved list: ids, a file of ids, or a saved list's id, slug or URL (--ids, --ids-file, --list). */
const List = z.union(
  [
    strictBody({ ids: z.array(Text).min(1, "name at least one catalogue id") }),
    strictBody({ file: Text }),
    strictBody({ saved: Text }),
  ],
  {
    error: () =>
      "the approved list is one of {ids: [aws-s3, …]}, {file: approved.txt} or {saved: <a saved list's id, slug or URL>}",
  },
);

export const ConfigFile = strictBody({
  /** The approved list. */
  list: List.optional(),
  /** What is checked when no path is given: folders, templates or plans, each its own root and verdict. */
  roots: z.array(Text).min(1, "name at least one folder, template or plan").optional(),
  /** --locations. */
  locations: z.array(Text).min(1).max(100).optional(),
  /** --fail-on: the first phase of a version's life that fails. */
  "fail-on": z.enum(FAIL_ON).optional(),
  /** --fail-on-severity. */
  severity: z.enum(["error", "warning"]).optional(),
  /** --retiring-within. */
  "retiring-within": z
    .string()
    .regex(/^\d{1,4}d?$/, "a number of days such as 90d")
    .optional(),
  /** --skip-rule: rules whose findings are suppressed, each with this reason. */
  "skip-rules": z.array(Rule).optional(),
  /** --rule: only these rules' findings count; the others are suppressed. */
  rules: z.array(Rule).min(1).optional(),
  /** --baseline. */
  baseline: Text.optional(),
  /** --api and --api-timeout. */
  api: z.url({ protocol: /^https?$/, error: "an http(s) URL" }).optional(),
  "api-timeout": z
    .union([z.number().int().min(1).max(3600), z.string().regex(/^\d{1,4}s?$/, "a number of seconds such as 120s")])
    .optional(),
});
export type ConfigValues = z.infer<typeof ConfigFile>;

/** A configuration read: its values, its path (relative to the working folder) and how to resolve its paths. */
export interface Config {
  readonly path: string;
  readonly values: ConfigValues;
  /** A path written in the file, as the working folder reaches it. */
  readonly resolve: (path: string) => string;
}

/** The folder holding `.git` at or above `from`, or undefined outside a repository. */
export function repositoryTop(from: string = process.cwd()): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The configuration file found from the working folder up to the repository's top, if any. */
export function findConfig(from: string = process.cwd()): string | undefined {
  const top = repositoryTop(from);
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    for (const name of CONFIG_NAMES) {
      const path = join(dir, name);
      if (lstatSync(path, { throwIfNoEntry: false })) return path;
    }
    if (dir === top || dirname(dir) === dir || top === undefined) return undefined;
  }
}

/** `--config FILE` and `--no-config` from arguments that may not parse (the configuration is read before them). */
export function configChoice(args: readonly string[]): { path?: string; none: boolean } {
  let path: string | undefined;
  args.forEach((arg, at) => {
    if (arg === "--config" && args[at + 1] !== undefined) path = args[at + 1];
    else if (arg.startsWith("--config=")) path = arg.slice("--config=".length);
  });
  return { ...(path ? { path } : {}), none: args.includes("--no-config") };
}

/** The line of the node at a path of the document, when it has one. */
function lineOf(document: ReturnType<typeof parseDocument>, lines: LineCounter, path: readonly PropertyKey[]) {
  let node: unknown = document.contents;
  for (const key of path) {
    if (isMap(node)) node = node.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === key) ?? node;
    else if (isSeq(node) && typeof key === "number") node = node.items[key] ?? node;
    if (node && typeof node === "object" && "value" in node && "key" in node)
      node = (node as { value: unknown }).value ?? (node as { key: unknown }).key;
  }
  const range = (node as Node | null)?.range;
  return range ? lines.linePos(range[0]).line : undefined;
}

/** Reads and validates a configuration file (its text bounded as every input is). */
export async function readConfig(path: string): Promise<Config> {
  const text = await readInputFile(path, "configuration");
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const [error] = document.errors;
  if (error) {
    const at = lines.linePos(error.pos[0]);
    throw new CheckUsageError(
      `the configuration ${path} is not valid YAML: line ${at.line}: ${error.message.split("\n")[0]}`,
    );
  }
  const value: unknown = document.toJS() ?? {};
  const parsed = ConfigFile.safeParse(value);
  if (!parsed.success) {
    const said = parsed.error.issues.slice(0, 5).map((issue: Issue) => {
      // An unknown key is an issue of the object holding it: its line is the key's own.
      const keys = issue.code === "unrecognized_keys" ? issue.keys.slice(0, 1) : [];
      const line = lineOf(document, lines, [...issue.path, ...keys]);
      return `${line ? `line ${line}: ` : ""}${issuePath(issue.path, "(file)")}: ${issue.message}`;
    });
    throw new CheckUsageError(
      `the configuration ${path} is not valid: ${said.join("; ")} (docs/ci-check.md, "Configuration")`,
    );
  }
  const dir = dirname(resolve(path));
  return {
    path: relative(process.cwd(), resolve(path)) || path,
    values: parsed.data,
    resolve: (written) => relative(process.cwd(), resolve(dir, written)) || ".",
  };
}

/** The configuration these arguments ask for: --config FILE, none with --no-config, else the one found. */
export async function loadConfig(args: readonly string[]): Promise<Config | undefined> {
  const choice = configChoice(args);
  if (choice.none && choice.path) throw new CheckUsageError("give --config FILE or --no-config, not both", true);
  if (choice.none) return undefined;
  const path = choice.path ?? findConfig();
  return path === undefined ? undefined : readConfig(path);
}
