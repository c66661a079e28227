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
 * A folder's *.tf files (name → text), as `terraform plan` reads one module: its sub-folders (other
 * modules) are not read. Each must be a regular file; at most MAX_TF_FILES of them, and their text
 * together at most MAX_TEMPLATE_BODY_BYTES, as the API's `files` and body limit take them.
 */
export function readTerraformFolder(folder: string): Promise<Record<string, string>> {
  return withinReadTime(`folder ${folder}`, async () => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      throw cannotRead(error, "folder", folder);
    }
    const names = entries
      .filter((entry) => entry.name.endsWith(".tf"))
      .map((entry) => entry.name)
      .sort();
    if (names.length === 0)
      throw new CheckUsageError(`the folder ${folder} holds no .tf file (its sub-folders are not read)`);
    if (names.length > MAX_TF_FILES)
      throw new CheckUsageError(
        `the folder ${folder} holds ${names.length} .tf files; the check reads at most ${MAX_TF_FILES} (the API's limit for one module)`,
      );
    // Every file's type and size first: a folder the API would refuse is refused before any is read.
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
    const files: Record<string, string> = {};
    for (const name of names) files[name] = await readRegular(join(folder, name), "file", MAX_TEMPLATE_BODY_BYTES);
    return files;
  });
}
