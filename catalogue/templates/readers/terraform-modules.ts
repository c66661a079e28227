/**
 * A Terraform configuration's modules as their files declare them, before any evaluation: each
 * folder's variables, locals, provider blocks, resources (with the attributes the check reads),
 * module calls and outputs, their expressions parsed (./hcl-expression.ts). The files are the
 * request's (or the CLI's folder): the root module's `.tf` files at the top, a local module's in
 * the folder its `source` names, a registry module's where `terraform init` put it (the
 * `.terraform/modules/modules.json` manifest), and the root's variable files.
 */
import { TemplateError } from "../model/errors.ts";
import { readHcl, readHclBody, type HclBlock, type HclToken, type KeepAttribute } from "./hcl.ts";
import { parseExpression, type Expression } from "./hcl-expression.ts";

/** The block types Terraform reads at the top of a configuration file. */
export const TOP_LEVEL = new Set([
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

/** Blocks whose every attribute is kept: what a module's values are made of. */
const KEPT_WHOLE = new Set(["module", "locals", "variable", "provider", "output", "terraform"]);

/** The meta-arguments of resources and module calls the evaluator reads. */
const META = ["count", "for_each", "provider", "providers", "source", "iterator"];

/** Attribute names read of resources (the rules' tables name them) beside the meta-arguments. */
export function keepAttributes(resourceAttributes: ReadonlySet<string>): KeepAttribute {
  return (name, blocks) => KEPT_WHOLE.has(blocks[0] ?? "") || META.includes(name) || resourceAttributes.has(name);
}

/** A nested block's attributes and blocks, as the rules read a plan's values (blocks as lists). */
export interface BodyConfig {
  readonly attributes: ReadonlyMap<string, Expression>;
  readonly blocks: readonly NestedBlock[];
}

/** A nested block, or a `dynamic` block making one per item of its for_each, its iterator named. */
export interface NestedBlock {
  readonly type: string;
  readonly body: BodyConfig;
  readonly dynamic?: { readonly forEach: Expression; readonly iterator: string };
}

export interface ResourceConfig {
  readonly mode: "resource" | "data" | "ephemeral";
  readonly type: string;
  readonly name: string;
  readonly where: string;
  readonly count?: Expression;
  readonly forEach?: Expression;
  /** The provider configuration it names (`provider = aws.us`), as `aws.us`. */
  readonly provider?: string;
  readonly body: BodyConfig;
}

export interface ModuleCallConfig {
  readonly name: string;
  readonly source: string | undefined;
  readonly where: string;
  readonly count?: Expression;
  readonly forEach?: Expression;
  /** `providers = { aws = aws.us }`: the child's provider key to the parent's. */
  readonly providers: ReadonlyMap<string, string>;
  readonly inputs: ReadonlyMap<string, Expression>;
}

export interface ProviderConfig {
  /** `aws`, or `aws.us` for an aliased configuration. */
  readonly key: string;
  readonly where: string;
  readonly attributes: ReadonlyMap<string, Expression>;
  /** Its nested blocks (the AWS provider's `endpoints`, `assume_role`), as a resource's. */
  readonly blocks?: readonly NestedBlock[];
}

export interface ModuleConfig {
  /** The module's folder among the files ("" for the root). */
  readonly dir: string;
  /** Each variable's default and type constraint (its optional attributes' defaults apply, Terraform 1.3+). */
  readonly variables: ReadonlyMap<
    string,
    { readonly default?: Expression; readonly type?: Expression; readonly where: string }
  >;
  readonly locals: ReadonlyMap<string, { readonly expression: Expression; readonly where: string }>;
  readonly providers: readonly ProviderConfig[];
  readonly resources: readonly ResourceConfig[];
  readonly modules: readonly ModuleCallConfig[];
  readonly outputs: ReadonlyMap<string, Expression>;
}

const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/** A module folder's path joined with a relative source (./x, ../y), or undefined when it leaves the files. */
export function joinDir(dir: string, relative: string): string | undefined {
  const parts = dir === "" ? [] : dir.split("/");
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/** The `.tf` files of one folder, by name. */
export function filesIn(files: Readonly<Record<string, string>>, dir: string): string[] {
  return Object.keys(files)
    .filter((path) => path.endsWith(".tf") && dirOf(path) === dir)
    .sort();
}

/** A reference written as tokens: `aws.us` (a provider configuration). */
function referenceText(tokens: readonly HclToken[] | undefined): string | undefined {
  if (!tokens || tokens.length === 0) return undefined;
  const text = tokens.map((token) => token.text ?? "").join("");
  return /^[A-Za-z][\w-]*(\.[A-Za-z][\w-]*)?$/.test(text) ? text : undefined;
}

function bodyOf(block: HclBlock, file: string): BodyConfig {
  const attributes = new Map<string, Expression>();
  for (const [name, tokens] of block.attributes)
    if (tokens.length > 0) attributes.set(name, parseExpression(tokens, file));
  const blocks: NestedBlock[] = [];
  for (const inner of block.blocks) {
    if (inner.type === "lifecycle") continue;
    if (inner.type !== "dynamic") {
      blocks.push({ type: inner.type, body: bodyOf(inner, file) });
      continue;
    }
    // `dynamic "replica" { for_each = …; iterator = r; content { … } }`: a replica block per item.
    const forEach = inner.attributes.get("for_each");
    const content = inner.blocks.find((candidate) => candidate.type === "content");
    const type = inner.labels[0];
    if (!type || !forEach || forEach.length === 0 || !content) continue;
    const iterator = referenceText(inner.attributes.get("iterator")) ?? type;
    blocks.push({ type, body: bodyOf(content, file), dynamic: { forEach: parseExpression(forEach, file), iterator } });
  }
  return { attributes, blocks };
}

/** Reads one folder's `.tf` files as a module. */
export function readModule(files: Readonly<Record<string, string>>, dir: string, keep: KeepAttribute): ModuleConfig {
  const variables = new Map<string, { default?: Expression; type?: Expression; where: string }>();
  const locals = new Map<string, { expression: Expression; where: string }>();
  const providers: ProviderConfig[] = [];
  const resources: ResourceConfig[] = [];
  const modules: ModuleCallConfig[] = [];
  const outputs = new Map<string, Expression>();
  const names = filesIn(files, dir);
  for (const path of names) {
    const shown = path;
    for (const block of readHcl(path, files[path]!, keep)) {
      const where = `${shown}, line ${block.line}`;
      if (!TOP_LEVEL.has(block.type))
        throw new TemplateError(`${where}: "${block.type}" is not a block Terraform reads at the top of a file.`);
      const expression = (name: string) => {
        const tokens = block.attributes.get(name);
        return tokens && tokens.length > 0 ? parseExpression(tokens, shown) : undefined;
      };
      switch (block.type) {
        case "variable": {
          const name = block.labels[0];
          if (!name) throw new TemplateError(`${where}: a variable block takes its name as a label.`);
          const fallback = expression("default");
          const type = expression("type");
          variables.set(name, { ...(fallback ? { default: fallback } : {}), ...(type ? { type } : {}), where });
          break;
        }
        case "locals":
          // Each local's own line: what a budget's refusal names.
          for (const [name, tokens] of block.attributes)
            if (tokens.length > 0)
              locals.set(name, {
                expression: parseExpression(tokens, shown),
                where: `${shown}, line ${tokens[0]!.line}`,
              });
          break;
        case "provider": {
          const name = block.labels[0];
          if (!name) throw new TemplateError(`${where}: a provider block takes the provider's name as a label.`);
          const alias = expression("alias");
          const aliasName = alias?.kind === "literal" && typeof alias.value === "string" ? alias.value : undefined;
          const attributes = new Map<string, Expression>();
          for (const [attribute, tokens] of block.attributes)
            if (tokens.length > 0 && attribute !== "alias") attributes.set(attribute, parseExpression(tokens, shown));
          const { blocks } = bodyOf(block, shown);
          providers.push({ key: aliasName ? `${name}.${aliasName}` : name, where, attributes, blocks });
          break;
        }
        case "output": {
          const value = expression("value");
          if (block.labels[0] && value) outputs.set(block.labels[0], value);
          break;
        }
        case "module":
          modules.push(moduleCallOf(block, path));
          break;
        case "check":
          for (const inner of block.blocks) if (inner.type === "data") resources.push(resourceOf(inner, shown));
          break;
        case "resource":
        case "data":
        case "ephemeral":
          resources.push(resourceOf(block, shown));
          break;
      }
    }
  }
  return { dir, variables, locals, providers, resources, modules, outputs };
}

const NOT_INPUTS = ["source", "version", "count", "for_each", "providers", "depends_on"];

function moduleCallOf(block: HclBlock, file: string): ModuleCallConfig {
  const where = `${file}, line ${block.line}`;
  const name = block.labels[0];
  if (!name) throw new TemplateError(`${where}: a module block takes its name as a label.`);
  const expression = (attribute: string) => {
    const tokens = block.attributes.get(attribute);
    return tokens && tokens.length > 0 ? parseExpression(tokens, file) : undefined;
  };
  const inputs = new Map<string, Expression>();
  for (const [attribute, tokens] of block.attributes)
    if (tokens.length > 0 && !NOT_INPUTS.includes(attribute)) inputs.set(attribute, parseExpression(tokens, file));
  const source = expression("source");
  const count = expression("count");
  const forEach = expression("for_each");
  return {
    name,
    source: source?.kind === "literal" && typeof source.value === "string" ? source.value : undefined,
    where,
    ...(count ? { count } : {}),
    ...(forEach ? { forEach } : {}),
    providers: providerMap(expression("providers")),
    inputs,
  };
}

function resourceOf(block: HclBlock, file: string): ResourceConfig {
  const where = `${file}, line ${block.line}`;
  if (block.labels.length !== 2)
    throw new TemplateError(`${where}: a ${block.type} block takes two labels, its type and its name.`);
  const [type, name] = block.labels as [string, string];
  const body = bodyOf(block, file);
  const count = body.attributes.get("count");
  const forEach = body.attributes.get("for_each");
  const provider = referenceText(block.attributes.get("provider"));
  return {
    mode: block.type as ResourceConfig["mode"],
    type,
    name,
    where,
    ...(count ? { count } : {}),
    ...(forEach ? { forEach } : {}),
    ...(provider ? { provider } : {}),
    body,
  };
}

/** `providers = { aws = aws.us, "aws.west" = aws.west }` as child key → parent key. */
function providerMap(expression: Expression | undefined): Map<string, string> {
  const map = new Map<string, string>();
  if (expression?.kind !== "object") return map;
  for (const [key, value] of expression.items) {
    const child = referenceName(key);
    const parent = referenceName(value);
    if (child && parent) map.set(child, parent);
  }
  return map;
}

function referenceName(expression: Expression): string | undefined {
  if (expression.kind === "literal" && typeof expression.value === "string") return expression.value;
  if (expression.kind === "variable") return expression.name;
  if (expression.kind === "attribute" && expression.of.kind === "variable")
    return `${expression.of.name}.${expression.name}`;
  return undefined;
}

/**
 * The variable files Terraform loads by itself from the root module's folder (`dir`, "" the top), in
 * its order: terraform.tfvars, then *.auto.tfvars by name.
 */
export function variableFiles(files: Readonly<Record<string, string>>, dir = ""): string[] {
  const top = Object.keys(files).filter((path) => dirOf(path) === dir);
  const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  return [
    ...top.filter((path) => name(path) === "terraform.tfvars" || name(path) === "terraform.tfvars.json"),
    ...top.filter((path) => /\.auto\.tfvars(\.json)?$/.test(name(path))).sort(),
  ];
}

/** A variable file's assignments (name → expression). */
export function readVariableFile(path: string, text: string): Map<string, Expression> {
  const assignments = new Map<string, Expression>();
  if (path.endsWith(".json")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new TemplateError(`${path}: not valid JSON.`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new TemplateError(`${path}: a variable file holds an object of names to values.`);
    for (const [name, item] of Object.entries(value)) assignments.set(name, jsonExpression(item));
    return assignments;
  }
  const body = readHclBody(path, text);
  if (body.blocks.length > 0) throw new TemplateError(`${path}: a variable file holds attributes, not blocks.`);
  for (const [name, tokens] of body.attributes)
    if (tokens.length > 0) assignments.set(name, parseExpression(tokens, path));
  return assignments;
}

/** A JSON value as a literal expression. */
export function jsonExpression(value: unknown): Expression {
  if (Array.isArray(value)) return { kind: "tuple", items: value.map(jsonExpression) };
  if (typeof value === "object" && value !== null)
    return {
      kind: "object",
      items: Object.entries(value).map(
        ([key, item]) => [{ kind: "literal", value: key }, jsonExpression(item)] as const,
      ),
    };
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null)
    return { kind: "literal", value };
  return { kind: "literal", value: null };
}

/**
 * Where `terraform init` put a registry or remote module: the root module's
 * `.terraform/modules/modules.json` (`root` its folder, "" the top) lists each call's key ("vpc",
 * "vpc.endpoints") and folder, relative to the root module's.
 */
export function installedModules(files: Readonly<Record<string, string>>, root = ""): Map<string, string> {
  const path = `${root === "" ? "" : `${root}/`}.terraform/modules/modules.json`;
  const manifest = Object.hasOwn(files, path) ? files[path] : undefined;
  const dirs = new Map<string, string>();
  if (manifest === undefined) return dirs;
  try {
    const parsed = JSON.parse(manifest) as { Modules?: { Key?: unknown; Dir?: unknown }[] };
    for (const entry of parsed.Modules ?? []) {
      if (typeof entry.Key !== "string" || typeof entry.Dir !== "string") continue;
      const dir = joinDir(root, entry.Dir.replace(/\/$/, ""));
      if (dir !== undefined) dirs.set(entry.Key, dir);
    }
  } catch {
    throw new TemplateError(`${path}: not valid JSON.`);
  }
  return dirs;
}
