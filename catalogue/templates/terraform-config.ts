/**
 * Terraform configuration: one module's `.tf` files (./hcl.ts reads their HCL), read into the items
 * a plan of it would show, for a user who cannot run `terraform plan` (no credentials) to check it
 * all the same. Each `resource` block is its type, from its address (`aws_s3_bucket.logs`); each
 * `data` block too (`data.aws_ami.base`: reading calls the provider's API, which AWS's SCPs and
 * Google's service restriction govern), except azurerm's and azapi's, whose reads Azure Policy never
 * evaluates (as an ARM template's `existing` resources); an azapi resource is its ARM type when
 * `type` is a literal. Nothing is evaluated: what a literal does not say is listed as not read
 * (Deployment.notRead) with where and why, so no verdict it may concern is given as allowed:
 * - a `module` block: the check reads the files sent, never another folder or a registry;
 * - `count` or `for_each` that is not a literal: whether the resource has any instance is not known
 *   (its type is still read, so the answer says what it would need). A literal count of 0 or an
 *   empty literal collection is no instance; any other literal, one type read once.
 * `dynamic` blocks make nested blocks of a resource, never another type, so they change nothing here.
 */
import { TemplateError } from "./errors.ts";
import { readHcl, type HclBlock, type HclToken } from "./hcl.ts";
import { Items } from "./items.ts";
import { VERSION_ATTRIBUTES, valuesAtPaths } from "./versioned.ts";
import type { Deployment, Vendor } from "./deployment.ts";
import { uncheckedVendor } from "./terraform.ts";
import { LOCATION_ATTRIBUTES, terraformProviderOf } from "./stated-locations.ts";

/** The block types Terraform reads at the top of a configuration file. */
const TOP_LEVEL = new Set([
  "terraform",
  "provider",
  "resource",
  "data",
  "ephemeral",
  "module",
  "variable",
  "output",
  "locals",
  "moved",
  "import",
  "removed",
  "check",
]);

/** The attributes whose values are read (the others are only checked as HCL). */
const READ_ATTRIBUTES = new Set([
  "count",
  "for_each",
  "source",
  "type",
  ...VERSION_ATTRIBUTES.map((path) => path.split(".").at(-1)!),
  ...LOCATION_ATTRIBUTES,
]);

/** A literal at a dotted path of a block: nested blocks by type (the first of each; an index is skipped). */
function literalAt(block: HclBlock, path: string): string | undefined {
  const keys = path.split(".");
  let here: HclBlock | undefined = block;
  for (const key of keys.slice(0, -1))
    if (!/^[0-9]+$/.test(key)) here = here?.blocks.find((inner) => inner.type === key);
  return here ? literalString(here.attributes.get(keys.at(-1)!)) : undefined;
}

const VENDORS: readonly Vendor[] = ["aws", "azure", "gcp"];

/** A registry module's source (`[host/]namespace/name/provider`): the provider names the vendor it deploys to. */
const REGISTRY_SOURCE = /^(?:[a-z0-9.-]+\.[a-z]{2,}\/)?[\w-]+\/[\w-]+\/([a-z0-9]+)(?:\/\/.*)?$/;
const REGISTRY_VENDOR: Record<string, Vendor> = {
  aws: "aws",
  azurerm: "azure",
  azapi: "azure",
  google: "gcp",
  "google-beta": "gcp",
};

/** Text that reads as a Terraform configuration: its first line that is not blank or a comment opens one of its blocks. */
export function looksLikeTerraform(text: string): boolean {
  const head = text
    .slice(0, 20_000)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .find((line) => !/^\s*(#.*|\/\/.*)?$/.test(line));
  return (
    head !== undefined &&
    /^\s*([a-z]+)(\s+("[^"\n]*"|[A-Za-z_][\w-]*))*\s*\{/.test(head) &&
    TOP_LEVEL.has(/^\s*([a-z]+)/.exec(head)![1]!)
  );
}

/** The single string a literal expression holds. */
const literalString = (tokens: readonly HclToken[] | undefined): string | undefined =>
  tokens?.length === 1 && tokens[0]!.kind === "string" ? tokens[0]!.text : undefined;

/** What a `count` or `for_each` says: no instance, some, or (not a literal) unknown. */
function instances(name: "count" | "for_each", tokens: readonly HclToken[]): "none" | "some" | undefined {
  if (name === "count") {
    if (tokens.length !== 1 || tokens[0]!.kind !== "number" || !/^[0-9]+$/.test(tokens[0]!.text!)) return undefined;
    return Number(tokens[0]!.text) === 0 ? "none" : "some";
  }
  // toset([...]) and tomap({...}) of literals are literals too: Terraform's usual way to write a set.
  const inner =
    tokens.length >= 3 &&
    tokens[0]!.kind === "ident" &&
    ["toset", "tomap"].includes(tokens[0]!.text!) &&
    tokens[1]!.text === "(" &&
    tokens.at(-1)!.text === ")"
      ? tokens.slice(2, -1)
      : tokens;
  const collection = inner[0]?.text === "[" || inner[0]?.text === "{";
  const literal = inner.every((token, at) => {
    if (token.kind === "number" || (token.kind === "string" && token.text !== undefined)) return true;
    if (token.kind === "punct") return ["[", "]", "{", "}", ",", "=", ":", "-"].includes(token.text!);
    // A name is literal as an object's key, or as true, false or null.
    const next = inner[at + 1]?.text;
    return token.kind === "ident" && (next === "=" || next === ":" || ["true", "false", "null"].includes(token.text!));
  });
  if (!collection || !literal) return undefined;
  return inner.length === 2 ? "none" : "some";
}

interface Unread {
  readonly entry: string;
  readonly vendors: readonly Vendor[];
}

/** Reads a module's `.tf` files (file name → text) as one deployment. */
export function readTerraformConfig(files: Readonly<Record<string, string>>): Deployment {
  const names = Object.keys(files).sort();
  if (names.length === 0) throw new TemplateError("No .tf file was sent: files needs at least one.");
  const items = new Items();
  const unread: Unread[] = [];
  const modules: { entry: string; source: string | undefined }[] = [];
  const providers = new Set<Vendor>();
  const read = (file: string, block: HclBlock) => {
    const where = `${file}, line ${block.line}`;
    if (!TOP_LEVEL.has(block.type))
      throw new TemplateError(`${where}: "${block.type}" is not a block Terraform reads at the top of a file.`);
    if (block.type === "provider" && block.labels[0]) {
      const vendor = REGISTRY_VENDOR[block.labels[0]];
      if (vendor) providers.add(vendor);
    }
    if (block.type === "module") {
      const source = literalString(block.attributes.get("source"));
      modules.push({
        entry: `module.${block.labels[0] ?? "?"}: module ${source ? `"${source.slice(0, 200)}"` : "with a source that is not a literal"} (${where})`,
        source,
      });
      return;
    }
    if (block.type === "check") for (const inner of block.blocks) if (inner.type === "data") read(file, inner);
    if (!["resource", "data", "ephemeral"].includes(block.type)) return;
    if (block.labels.length !== 2)
      throw new TemplateError(`${where}: a ${block.type} block takes two labels, its type and its name.`);
    const [type, name] = block.labels as [string, string];
    const address = `${block.type === "resource" ? "" : `${block.type}.`}${type}.${name}`.slice(0, 120);
    const vendor = uncheckedVendor(type);
    // Azure Policy evaluates what is written, never a read.
    if (block.type !== "resource" && vendor === "azure") return;
    for (const meta of ["count", "for_each"] as const) {
      const tokens = block.attributes.get(meta);
      if (!tokens) continue;
      const known = instances(meta, tokens);
      if (known === "none") return;
      if (known === undefined)
        unread.push({ entry: `${address}: ${meta} is not a literal (${where})`, vendors: vendor ? [vendor] : [] });
    }
    const armType = type.startsWith("azapi_") ? literalString(block.attributes.get("type"))?.split("@")[0] : undefined;
    if (armType) items.add("azure-type", armType, address);
    else items.add("terraform-type", type, address);
    if (block.type === "resource") {
      const literals = VERSION_ATTRIBUTES.flatMap((path) => {
        const value = literalAt(block, path);
        return value === undefined ? [] : [[path, value] as const];
      });
      items.versions("terraform-type", type, valuesAtPaths(literals), address);
      const stated = LOCATION_ATTRIBUTES.map((name) => [name, literalString(block.attributes.get(name))] as const);
      items.locate(
        type,
        terraformProviderOf(type),
        Object.fromEntries(stated.filter(([, value]) => value !== undefined)),
        address,
      );
    }
  };
  for (const file of names) for (const block of readHcl(file, files[file]!, READ_ATTRIBUTES)) read(file, block);
  const list = items.list();
  // A module's resources are not read: its verdicts are those of the vendor its registry source
  // names, else of every vendor the configuration uses, else of all three.
  const used = new Set([...providers, ...list.flatMap((item) => uncheckedVendor(item.item) ?? [])]);
  if (list.some((item) => item.kind === "azure-type")) used.add("azure");
  for (const { entry, source } of modules) {
    const named = source ? REGISTRY_VENDOR[REGISTRY_SOURCE.exec(source)?.[1] ?? ""] : undefined;
    unread.push({ entry, vendors: named ? [named] : used.size > 0 ? [...used] : VENDORS });
  }
  return {
    format: "terraform-config",
    items: list,
    parameterTypes: [],
    cdk: false,
    sam: false,
    expanded: [],
    notRead: unread.map(({ entry }) => entry),
    notReadVendors: Object.fromEntries(unread.map(({ entry, vendors }) => [entry, vendors])),
    ...items.versionedField(),
  };
}
