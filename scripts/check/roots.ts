/**
 * `cloud-catalogue check` on a repository (issue 121): what it reads is a root inside a repository,
 * never the folder alone. The repository's top is `--root DIR`, else the nearest folder above the
 * path holding `.git` (a clone's folder or a worktree's file), else the path's own folder; nothing
 * outside the top is read. A Terraform root module's local modules are read anywhere under the top
 * (`../../modules/x`, a terraform-aws-modules example's `../../`); a CloudFormation or SAM
 * template's nested stacks, applications and AWS::Include snippets whose location is a local path
 * are read from the top too, as `aws cloudformation package` and `sam build` read them. The files are
 * sent, as the API takes them, with paths relative to the top and the root named. `rootModules`
 * finds every root module of a repository for `--recursive`: the folders holding .tf files that no
 * other folder under the top calls as a local module (tflint's --recursive walks the same folders).
 */
import { lstat, readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { MAX_TEMPLATE_BODY_BYTES, MAX_TF_FILES } from "../../catalogue/base/limits.ts";
import { parseTemplateText } from "../../catalogue/templates/readers/parse.ts";
import { CheckUsageError } from "./errors.ts";
import { isFolder, joinInside, LOCAL_SOURCE, readInputFile, readTerraformFolder, withinReadTime } from "./inputs.ts";

/** What is checked within a repository: its files (relative to the top) and the root among them. */
export interface RepositoryInput {
  /** The repository's top, as an absolute path. */
  readonly top: string;
  readonly files: Record<string, string>;
  /** The root module's folder or the template, relative to the top ("" the top itself). */
  readonly root: string;
}

const posix = (path: string) => path.split(sep).join("/");

/** Whether `inner` is `outer` or under it (both absolute). */
const within = (outer: string, inner: string) => {
  const path = relative(outer, inner);
  return path === "" || (!path.startsWith("..") && !isAbsolute(path));
};

/** The nearest folder at or above `dir` holding `.git`, if any. */
async function gitTop(dir: string): Promise<string | undefined> {
  for (let here = dir; ; here = dirname(here)) {
    if (await lstat(join(here, ".git")).catch(() => undefined)) return here;
    if (dirname(here) === here) return undefined;
  }
}

/**
 * The repository's top for a path: `--root` (which must hold the path), else the git root above it,
 * else the folder itself (a file's folder).
 */
export async function repositoryTop(path: string, root: string | undefined): Promise<string> {
  const target = resolve(path);
  const folder = (await isFolder(target)) ? target : dirname(target);
  if (root !== undefined) {
    const top = resolve(root);
    if (!(await isFolder(top))) throw new CheckUsageError(`--root ${root} is not a folder`, true);
    if (!within(top, target))
      throw new CheckUsageError(`--root ${root} does not hold ${path}: the root is the repository's top`, true);
    return top;
  }
  return (await gitTop(folder)) ?? folder;
}

/** A Terraform root module inside a repository: its files as terraform plan reads them, from the top. */
export async function readRootModule(top: string, folder: string): Promise<RepositoryInput> {
  const root = posix(relative(top, resolve(folder)));
  // The top as the user would name it from here, so that a refusal names paths as they typed them.
  const shown = relative(process.cwd(), top) || ".";
  return { top, files: await readTerraformFolder(shown, root), root };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Nested templates nest at most this deep (the evaluator's bound: cloudformation-nested.ts). */
const MAX_NESTING = 12;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The local paths a template names for nested templates and snippets (literal strings only). */
function localReferences(template: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    if (!isObject(value)) return;
    const properties = isObject(value.Properties) ? value.Properties : {};
    if (value.Type === "AWS::CloudFormation::Stack") found.push(properties.TemplateURL as string);
    if (value.Type === "AWS::Serverless::Application") found.push(properties.Location as string);
    if (value.Name === "AWS::Include" && isObject(value.Parameters)) found.push(value.Parameters.Location as string);
    for (const inner of Object.values(value)) walk(inner, depth + 1);
  };
  walk(template, 0);
  return found.filter(
    (location): location is string =>
      typeof location === "string" && !SCHEME.test(location.trim()) && !/^[/\\]/.test(location.trim()),
  );
}

/** Whether a template names nested templates or snippets by a local path (worth sending its repository). */
export function namesLocalFiles(text: string): boolean {
  try {
    return localReferences(parseTemplateText(text)).length > 0;
  } catch {
    // A text the check cannot parse is refused by the check itself, naming why.
    return false;
  }
}

/**
 * A CloudFormation or SAM template with the nested templates and snippets it names by a local path,
 * read from the repository's top (never outside it), recursively, within the API's bounds: at most
 * MAX_TF_FILES files and MAX_TEMPLATE_BODY_BYTES together. A path that names no file is left to the
 * check, which says it was not read.
 */
export async function readTemplateRepository(top: string, path: string, text: string): Promise<RepositoryInput> {
  const root = posix(relative(top, resolve(path)));
  return withinReadTime(`template ${path} and its nested templates`, async () => {
    const files: Record<string, string> = { [root]: text };
    let total = Buffer.byteLength(text);
    const visit = async (file: string, depth: number): Promise<void> => {
      if (depth >= MAX_NESTING) return;
      let template: unknown;
      try {
        template = parseTemplateText(files[file]!);
      } catch {
        return;
      }
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
      for (const location of localReferences(template)) {
        const next = joinInside(dir, location.trim());
        if (next === undefined || Object.hasOwn(files, next)) continue;
        const stats = await lstat(join(top, next)).catch(() => undefined);
        if (!stats?.isFile()) continue;
        if (Object.keys(files).length >= MAX_TF_FILES)
          throw new CheckUsageError(
            `${path} and its nested templates are more than ${MAX_TF_FILES} files; the check reads at most ${MAX_TF_FILES} (the API's limit)`,
          );
        files[next] = await readInputFile(join(top, next), "nested template");
        total += Buffer.byteLength(files[next]);
        if (total > MAX_TEMPLATE_BODY_BYTES)
          throw new CheckUsageError(
            `${path} and its nested templates hold more than the check reads together (the API's body limit)`,
          );
        await visit(next, depth + 1);
      }
    };
    await visit(root, 0);
    return { top, files, root };
  });
}

/** Folders never walked for root modules: version control, what terraform init installs, packages. */
const SKIPPED = new Set([".git", ".terraform", "node_modules", ".aws-sam", "cdk.out"]);
/** Folders walked at most, and how deep. */
const MAX_FOLDERS = 5_000;
const MAX_DEPTH = 24;

/**
 * Every root module under `folder` (relative to the top): a folder holding .tf files that no other
 * folder under the top calls as a local module. Sorted; `folder` itself when it is one.
 */
export async function rootModules(top: string, folder: string): Promise<string[]> {
  const start = posix(relative(top, resolve(folder)));
  return withinReadTime(`the repository ${folder}`, async () => {
    const modules = new Map<string, string[]>();
    let seen = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (++seen > MAX_FOLDERS)
        throw new CheckUsageError(`${folder} holds more than ${MAX_FOLDERS} folders; check its roots one by one`);
      const entries = await readdir(join(top, dir), { withFileTypes: true }).catch(() => []);
      const tf = entries.filter((entry) => entry.isFile() && entry.name.endsWith(".tf")).map((entry) => entry.name);
      if (tf.length > 0) modules.set(dir, tf);
      if (depth >= MAX_DEPTH) return;
      for (const entry of entries)
        if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith("."))
          await walk(dir === "" ? entry.name : `${dir}/${entry.name}`, depth + 1);
    };
    // Calls are looked for in the whole repository: a module under `folder` may be called from outside it.
    await walk("", 0);
    const called = new Set<string>();
    for (const [dir, names] of modules)
      for (const name of names) {
        const text = await readInputFile(join(top, dir, name), "file").catch(() => "");
        for (const [, source] of text.matchAll(LOCAL_SOURCE)) {
          const target = joinInside(dir, source!.replace(/\/+$/, ""));
          if (target !== undefined && target !== dir) called.add(target);
        }
      }
    return [...modules.keys()]
      .filter((dir) => !called.has(dir) && (start === "" || dir === start || dir.startsWith(`${start}/`)))
      .sort();
  });
}
