/**
 * A Terraform configuration's files as `terraform plan` reads them from its folder, for
 * `cloud-catalogue check <folder>`: the root module's `.tf` files and the variable files Terraform
 * loads by itself (terraform.tfvars, *.auto.tfvars, their .json forms), each local module's folder
 * its `source` names (./modules/net; not one outside the folder), and what `terraform init`
 * installed (.terraform/modules/modules.json and the folders it lists). Bounded as the API's
 * `files` are: regular files only (a symlink, fifo or device refused), MAX_TF_FILES files at most,
 * each MAX_TEMPLATE_BODY_BYTES at most.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_TEMPLATE_BODY_BYTES } from "../catalogue/base/limits.ts";
import { MAX_TF_FILES } from "../catalogue/schema/deployment-check.ts";

/** A folder or file the configuration cannot be read from: the CLI's usage error (exit 2). */
export class FolderError extends Error {}

const MANIFEST = ".terraform/modules/modules.json";
const VARIABLE_FILE = /^(terraform\.tfvars(\.json)?|.+\.auto\.tfvars(\.json)?)$/;
/** A local module's source in a module block (the evaluator reads the blocks; this finds the folders to send it). */
const LOCAL_SOURCE = /^\s*source\s*=\s*"(\.\.?\/[^"]*)"/gm;

/** The configuration's files, path (relative, "/"-separated) → text. */
export function readTerraformFolder(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const read = (path: string) => {
    if (Object.hasOwn(files, path)) return;
    if (Object.keys(files).length >= MAX_TF_FILES)
      throw new FolderError(
        `the configuration holds more than ${MAX_TF_FILES} files, the check's limit; check a module at a time`,
      );
    const full = join(folder, path);
    const stat = lstatSync(full, { throwIfNoEntry: false });
    if (!stat) throw new FolderError(`cannot read ${full}: no such file`);
    if (!stat.isFile()) throw new FolderError(`${full} is not a regular file (a symlink, fifo or device is not read)`);
    if (stat.size > MAX_TEMPLATE_BODY_BYTES)
      throw new FolderError(`${full} is larger than ${MAX_TEMPLATE_BODY_BYTES / 1024 / 1024} MiB, the check's limit`);
    files[path] = readFileSync(full, "utf8");
  };
  const module = (dir: string, depth: number) => {
    const entries = readdirSync(join(folder, dir), { withFileTypes: true });
    const tf = entries.filter((entry) => entry.name.endsWith(".tf") && !entry.isDirectory()).map((entry) => entry.name);
    for (const name of tf.sort()) read(dir === "" ? name : `${dir}/${name}`);
    if (depth > 12) return;
    for (const name of tf) {
      const text = files[dir === "" ? name : `${dir}/${name}`]!;
      for (const [, source] of text.matchAll(LOCAL_SOURCE)) {
        const target = joinInside(dir, source!);
        if (target !== undefined && lstatSync(join(folder, target), { throwIfNoEntry: false })?.isDirectory())
          module(target, depth + 1);
      }
    }
  };
  const top = readdirSync(folder, { withFileTypes: true });
  if (!top.some((entry) => entry.name.endsWith(".tf"))) throw new FolderError(`the folder ${folder} holds no .tf file`);
  module("", 0);
  for (const entry of top) if (VARIABLE_FILE.test(entry.name)) read(entry.name);
  if (lstatSync(join(folder, MANIFEST), { throwIfNoEntry: false })) {
    read(MANIFEST);
    try {
      const manifest = JSON.parse(files[MANIFEST]!) as { Modules?: { Dir?: unknown }[] };
      for (const { Dir } of manifest.Modules ?? []) {
        const dir = typeof Dir === "string" ? joinInside("", Dir) : undefined;
        if (dir && dir !== "" && lstatSync(join(folder, dir), { throwIfNoEntry: false })?.isDirectory()) module(dir, 1);
      }
    } catch (error) {
      if (error instanceof FolderError) throw error;
      // A manifest that is not JSON is the evaluator's to refuse, naming it.
    }
  }
  return files;
}

/** A relative path joined to a folder, or undefined when it leaves the configuration's folder. */
function joinInside(dir: string, relative: string): string | undefined {
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
