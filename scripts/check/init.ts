/**
 * `cloud-catalogue init <root …> (--ids … | --ids-file FILE | --list LIST) [--locations …]
 * [--baseline] [--force]`: a repository's first step (docs/ci-check.md, "First run"). Writes
 * `.cloud-catalogue.yaml` at the repository's top (the folder holding `.git`, else the working
 * folder) with the approved list, the roots and the locations, so that `cloud-catalogue check`
 * with no argument runs the documented CI job; with --baseline, checks each root and writes
 * `cloud-catalogue-baseline.json` accepting today's findings (each to be given its reason), and
 * names it in the configuration, so the first CI run passes and every later finding is new. An
 * existing configuration is kept unless --force. Exit 0 when written, 2 on a usage error or a root
 * that cannot be checked (nothing is then written).
 */
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { checkAll } from "../check.ts";
import { CONFIG_NAMES, ConfigFile, repositoryTop, type Config, type ConfigValues } from "./config.ts";
import { CHECK_EXIT, CheckUsageError } from "./errors.ts";
import { rewriteBaseline, today } from "./gate.ts";
import { parseCheckArgs } from "./options.ts";
import { writeOutput } from "./outputs.ts";

export const BASELINE_NAME = "cloud-catalogue-baseline.json";

export const INIT_HELP = `Usage: cloud-catalogue init <template|plan file|folder of .tf files> …
         (--ids a,b,c | --ids-file FILE | --list LIST) [--locations EU,CH,…] [--baseline] [--force]

Writes .cloud-catalogue.yaml at the repository's top (the folder holding .git) with the approved
list, the roots to check (each its own verdict) and the locations, so that cloud-catalogue check
with no argument checks them. With --baseline, checks each root now and writes
${BASELINE_NAME}, accepting today's findings (give each entry its reason), named in the
configuration: the first CI run passes, and every finding after it is new. Commit both files.

  --force     overwrite an existing configuration
Exit status: 0 written; 2 a usage error, or a root that cannot be checked (nothing written).
`;

const OPTIONS = {
  ids: { type: "string" },
  "ids-file": { type: "string" },
  list: { type: "string" },
  locations: { type: "string" },
  baseline: { type: "boolean", default: false },
  force: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** A path from the working folder, as the configuration at `top` writes it (relative to its folder). */
const fromTop = (top: string, path: string) => relative(top, resolve(path)).split(sep).join("/") || ".";

/** The configuration's text: what each key means, then the values. */
function configText(values: ConfigValues): string {
  return `# cloud-catalogue check's configuration (docs/ci-check.md, "Configuration"), written by
# cloud-catalogue init on ${today()}. Options given to cloud-catalogue check win over it; paths are
# relative to this file's folder. list: the approved services; roots: what is checked, each its
# own verdict; baseline: the findings accepted, each with its reason.
${stringify(values, { lineWidth: 0 })}`;
}

/** Runs init with its arguments (after the word `init`); its exit status. */
export async function initCommand(args: readonly string[]): Promise<number> {
  let values: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>
  >["values"];
  let roots: string[];
  try {
    ({ values, positionals: roots } = parseArgs({ args: [...args], allowPositionals: true, options: OPTIONS }));
  } catch (error) {
    throw new CheckUsageError(`${(error as Error).message} (cloud-catalogue init --help)`, false);
  }
  if (values.help) {
    process.stdout.write(INIT_HELP);
    return CHECK_EXIT.allowed;
  }
  if (roots.length === 0)
    throw new CheckUsageError(
      "name what the check reads: a folder of .tf files, a template or a plan (cloud-catalogue init --help)",
    );
  for (const root of roots)
    if (!existsSync(root))
      throw new CheckUsageError(`${root} does not exist: name a folder of .tf files, a template or a plan`);
  const top = repositoryTop() ?? process.cwd();
  const path = join(top, CONFIG_NAMES[0]);
  const existing = CONFIG_NAMES.map((name) => join(top, name)).find((candidate) => existsSync(candidate));
  if (existing && !values.force)
    throw new CheckUsageError(`${relative(process.cwd(), existing)} exists already; --force overwrites it`);

  const given = (["ids", "ids-file", "list"] as const).filter((name) => values[name] !== undefined);
  if (given.length !== 1) throw new CheckUsageError("give the approved list once: --ids, --ids-file or --list");
  const list: ConfigValues["list"] =
    values.ids !== undefined
      ? {
          ids: values.ids
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        }
      : values["ids-file"] !== undefined
        ? { file: fromTop(top, values["ids-file"]) }
        : { saved: values.list! };
  const written: ConfigValues = {
    list,
    roots: roots.map((root) => fromTop(top, root)),
    ...(values.locations
      ? {
          locations: values.locations
            .split(",")
            .map((place) => place.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values.baseline ? { baseline: BASELINE_NAME } : {}),
  };
  // What init writes, the check reads: the same schema.
  const parsed = ConfigFile.safeParse(written);
  if (!parsed.success) throw new CheckUsageError(`cannot write that configuration: ${parsed.error.issues[0]!.message}`);
  // From here on the repository's top is the working folder, as in CI: the baseline's paths are the ones CI reads.
  process.chdir(top);
  const config: Config = {
    path: CONFIG_NAMES[0],
    values: { ...parsed.data, baseline: undefined },
    resolve: (written) => relative(top, resolve(top, written)) || ".",
  };

  if (values.baseline) {
    const baselinePath = config.resolve(BASELINE_NAME);
    const request = parseCheckArgs([], config);
    if (request === "help" || request === "version") return CHECK_EXIT.allowed;
    const { outcomes } = await checkAll(request);
    rewriteBaseline(baselinePath, outcomes, [], request);
  }
  writeOutput(path, "configuration", configText(parsed.data));
  console.error(
    `cloud-catalogue init: wrote ${config.path}${values.baseline ? ` and ${config.resolve(BASELINE_NAME)}` : ""}; commit ${values.baseline ? "both" : "it"}, then run cloud-catalogue check (docs/ci-check.md)`,
  );
  return CHECK_EXIT.allowed;
}
