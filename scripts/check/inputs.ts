/**
 * What `cloud-catalogue check` reads from disk, bounded as the API bounds a request: regular files
 * only (a symbolic link, fifo, device or socket is refused by its type, before it is opened for
 * reading), each at most MAX_TEMPLATE_BODY_BYTES (refused by its size, before a byte is read), a
 * folder's .tf files at most MAX_TF_FILES and that many bytes together (the API's body holds them
 * all), and every read of one input within TEMPLATE_READ_SECONDS. A refusal is a CheckUsageError
 * (exit 2) naming the file and the bound.
 */
import { constants, type Stats } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  bodyLimitText,
  MAX_TEMPLATE_BODY_BYTES,
  MAX_TF_FILES,
  TEMPLATE_READ_SECONDS,
} from "../../catalogue/base/limits.ts";
import { CheckUsageError } from "./errors.ts";

/** What a path is, in words, when it is not a regular file. */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a named pipe (fifo)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

const NOT_REGULAR = "the check reads regular files only, as the API takes a file's text; name the file itself";

/** An error of the file system as a refusal naming the path (ENOENT: no such file). */
function cannotRead(error: unknown, what: string, path: string): CheckUsageError {
  if (error instanceof CheckUsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return new CheckUsageError(`the ${what} ${path} is a symbolic link: ${NOT_REGULAR}`);
  if (code === "ENOENT") return new CheckUsageError(`the ${what} ${path} does not exist (ENOENT)`);
  return new CheckUsageError(`cannot read the ${what} ${path}: ${code ?? (error as Error).message}`);
}

/** Runs `read`, refused (exit 2) when it takes longer than the API's reading budget (a stalled mount, a slow disk). */
export async function withinReadTime<T>(
  what: string,
  read: () => Promise<T>,
  seconds: number = TEMPLATE_READ_SECONDS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CheckUsageError(`reading the ${what} took more than ${seconds} s (the API's reading budget)`)),
      seconds * 1000,
    );
  });
  try {
    return await Promise.race([read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A regular file's text (UTF-8), at most `limit` bytes: its type and size are known before it is
 * read (lstat, then fstat of what was opened without following a link or waiting on a fifo).
 */
async function readRegular(path: string, what: string, limit: number): Promise<string> {
  try {
    const named = await lstat(path);
    if (!named.isFile()) throw new CheckUsageError(`the ${what} ${path} is ${kindOf(named)}: ${NOT_REGULAR}`);
    if (named.size > limit) throw tooLarge(what, path, named.size, limit);
    // O_NOFOLLOW and O_NONBLOCK: should the path change under us, a link or a fifo still cannot be read.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) throw new CheckUsageError(`the ${what} ${path} is ${kindOf(opened)}: ${NOT_REGULAR}`);
      // One byte past the limit tells a file that grew since it was measured.
      const buffer = Buffer.alloc(Math.min(opened.size, limit) + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length === buffer.length) break;
      }
      if (length > limit) throw tooLarge(what, path, length, limit);
      return buffer.toString("utf8", 0, length);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw cannotRead(error, what, path);
  }
}

const sizeText = (bytes: number) =>
  bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
const tooLarge = (what: string, path: string, size: number, limit: number) =>
  new CheckUsageError(
    `the ${what} ${path} is ${sizeText(size)}, over the ${bodyLimitText(limit)} the check reads (the API's limit); it was not read`,
  );

/** A file's text (a template, an ids file, a baseline), bounded as the API bounds a template. */
export function readInputFile(path: string, what: string, limit = MAX_TEMPLATE_BODY_BYTES): Promise<string> {
  return withinReadTime(`${what} ${path}`, () => readRegular(path, what, limit));
}

/** Whether the named path is a folder (not following a link: a link is refused when read as a file). */
export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The root module's .tf files measured before any is read: a folder the API would refuse (more
 * than MAX_TF_FILES files, more than the body limit together, a file that is not regular) is
 * refused without reading a byte (a 1 GB sparse .tf costs nothing).
 */
async function refuseRootBeforeReading(folder: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) throw new CheckUsageError(`the folder ${folder} holds no .tf file`);
  if (names.length > MAX_TF_FILES)
    throw new CheckUsageError(
      `the folder ${folder} holds ${names.length} .tf files; the check reads at most ${MAX_TF_FILES} (the API's limit)`,
    );
  let total = 0;
  for (const name of names) {
    const path = join(folder, name);
    const stats = await lstat(path).catch((error: unknown) => {
      throw cannotRead(error, "file", path);
    });
    if (!stats.isFile()) throw new CheckUsageError(`the file ${path} is ${kindOf(stats)}: ${NOT_REGULAR}`);
    total += stats.size;
  }
  if (total > MAX_TEMPLATE_BODY_BYTES)
    throw new CheckUsageError(
      `the ${names.length} .tf files of the folder ${folder} hold ${sizeText(total)} together, over the ${bodyLimitText(MAX_TEMPLATE_BODY_BYTES)} the check reads (the API's body limit); none was read`,
    );
}

const MANIFEST = ".terraform/modules/modules.json";
const VARIABLE_FILE = /^(terraform\.tfvars(\.json)?|.+\.auto\.tfvars(\.json)?)$/;
/** A local module's source in a module block (the evaluator reads the blocks; this finds the folders to send it). */
export const LOCAL_SOURCE = /^\s*source\s*=\s*"(\.\.?\/[^"]*)"/gm;

/** A relative path joined to a folder, or undefined when it leaves the repository's top. */
export function joinInside(dir: string, relative: string): string | undefined {
  const parts = dir === "" ? [] : dir.split("/");
  for (const part of relative.replace(/\/+$/, "").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/**
 * A Terraform configuration's files (path → text, relative to `folder`, the repository's top) as
 * `terraform plan` reads them from its root module's folder (`root`, relative to the top; "" the
 * top itself): the root module's `.tf` files and the variable files Terraform loads by itself
 * (terraform.tfvars, *.auto.tfvars, their .json forms), each local module's folder its `source`
 * names (anywhere under the top, never outside it), and what `terraform init` installed in the root
 * module's folder (.terraform/modules/modules.json and the folders it lists). Each a regular file;
 * at most MAX_TF_FILES of them, and their text together at most MAX_TEMPLATE_BODY_BYTES, as the
 * API's `files` and body limit take them.
 */
export function readTerraformFolder(folder: string, root = ""): Promise<Record<string, string>> {
  return withinReadTime(`folder ${folder}`, async () => {
    const files: Record<string, string> = {};
    let total = 0;
    const read = async (path: string) => {
      if (Object.hasOwn(files, path)) return;
      if (Object.keys(files).length >= MAX_TF_FILES)
        throw new CheckUsageError(
          `the configuration in ${folder} holds more than ${MAX_TF_FILES} files; the check reads at most ${MAX_TF_FILES} (the API's limit)`,
        );
      const text = await readRegular(join(folder, path), "file", MAX_TEMPLATE_BODY_BYTES);
      total += Buffer.byteLength(text);
      if (total > MAX_TEMPLATE_BODY_BYTES)
        throw new CheckUsageError(
          `the configuration in ${folder} holds more than ${bodyLimitText(MAX_TEMPLATE_BODY_BYTES)} of files, the check's limit (the API's body limit)`,
        );
      files[path] = text;
    };
    const entriesOf = async (dir: string) => {
      try {
        return await readdir(join(folder, dir), { withFileTypes: true });
      } catch (error) {
        throw cannotRead(error, "folder", join(folder, dir));
      }
    };
    const isDir = async (dir: string) =>
      (await lstat(join(folder, dir)).catch(() => undefined))?.isDirectory() === true;
    const module = async (dir: string, depth: number): Promise<void> => {
      const names = (await entriesOf(dir))
        .filter((entry) => entry.name.endsWith(".tf") && !entry.isDirectory())
        .map((entry) => (dir === "" ? entry.name : `${dir}/${entry.name}`))
        .sort();
      for (const path of names) await read(path);
      if (depth > 12) return;
      for (const path of names)
        for (const [, source] of files[path]!.matchAll(LOCAL_SOURCE)) {
          const target = joinInside(dir, source!);
          if (target !== undefined && target !== dir && (await isDir(target))) await module(target, depth + 1);
        }
    };
    const inRoot = (name: string) => (root === "" ? name : `${root}/${name}`);
    const top = await entriesOf(root);
    await refuseRootBeforeReading(
      join(folder, root),
      top.filter((entry) => entry.name.endsWith(".tf")).map((entry) => entry.name),
    );
    await module(root, 0);
    for (const entry of top) if (VARIABLE_FILE.test(entry.name)) await read(inRoot(entry.name));
    const manifestPath = inRoot(MANIFEST);
    if (await lstat(join(folder, manifestPath)).catch(() => undefined)) {
      await read(manifestPath);
      let manifest: { Modules?: { Dir?: unknown }[] } = {};
      try {
        manifest = JSON.parse(files[manifestPath]!) as typeof manifest;
      } catch {
        // A manifest that is not JSON is the evaluator's to refuse, naming it.
      }
      for (const { Dir } of manifest.Modules ?? []) {
        const dir = typeof Dir === "string" ? joinInside(root, Dir) : undefined;
        if (dir && (await isDir(dir))) await module(dir, 1);
      }
    }
    return files;
  });
}
