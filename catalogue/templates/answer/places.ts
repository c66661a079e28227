/**
 * Where each finding stands in the files checked (issue 122): the file, the line and column of its
 * resource, and the block that declares it — what SARIF, JUnit, the annotations and the code-quality
 * report point at, and what an inline suppression attaches to.
 *
 * Terraform configuration: a resource instance's address (`module.net["a"].aws_sqs_queue.q[0]`) is
 * followed through the module calls' sources (a local folder, or where terraform init put it) to the
 * `resource` block in its module's files, as Terraform resolves it; a module not read is placed where
 * the answer says its block is. Templates (CloudFormation, SAM, ARM, a plan, a list of APIs): the
 * logical id, resource name or address found in the text (TextIndex), inside the resource's block
 * (CloudFormation's `Resources` entries, ARM's `resources` objects). Pure: the texts come from the caller.
 */
import { parseTree, type Node } from "jsonc-parser";
import { readHcl } from "../readers/hcl.ts";
import { installedModules, joinDir, readModule } from "../readers/terraform-modules.ts";
import type { Finding } from "./findings.ts";
import type { Place, PlacedFinding } from "./judge.ts";

/** A file checked: its path relative to the repository's root, its name as the check read it, and its text. */
export interface SourceText {
  readonly path: string;
  /** Relative to the checked folder (a .tf folder's `modules/net/main.tf`); a template's own name otherwise. */
  readonly name: string;
  readonly text: string;
}

/** A resource's block in a file: its first and last lines (1-based). */
export interface Block {
  readonly start: number;
  readonly end: number;
}

/** Finds, cheaply, where a name stands in a template's text: one pass builds the maps, each lookup is one get. */
export class TextIndex {
  readonly lineStarts: number[] = [0];
  /** A key at the start of a line (YAML or pretty-printed JSON): `Bucket:`, `"Bucket": {`. */
  private readonly keys = new Map<string, number>();
  /** A JSON string literal anywhere (an ARM resource's name, a plan's address on one long line). */
  private readonly literals = new Map<string, number>();
  /** A whole line's text (an API list one a line). */
  private readonly lines = new Map<string, number>();

  constructor(text: string) {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) this.lineStarts.push(at + 1);
    const first = <K>(map: Map<K, number>, key: K, offset: number) => {
      if (!map.has(key)) map.set(key, offset);
    };
    this.lineStarts.forEach((start, line) => {
      const end = this.lineStarts[line + 1] ?? text.length;
      const content = text.slice(start, Math.min(end, start + 400));
      const key = /^(\s*(?:-\s+)?)(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"'#:{}[\],][^:#]*?))\s*:(?:\s|$)/.exec(content);
      if (key) first(this.keys, key[2] ?? key[3] ?? key[4]!, start + key[1]!.length);
      const trimmed = content.trim();
      if (trimmed) first(this.lines, trimmed.replace(/^-\s+/, "").replace(/^["']|["'],?$/g, ""), start);
    });
    // A .tf block's address: resource "type" "name" → type.name, data → data.type.name, module "name" → module.name.
    for (const match of text.matchAll(
      /^[ \t]*(resource|data|ephemeral|module)[ \t]+"([^"\n]+)"(?:[ \t]+"([^"\n]+)")?/gm,
    )) {
      const [, block, first, second] = match as unknown as [string, string, string, string | undefined];
      const address =
        block === "resource" ? `${first}.${second}` : second ? `${block}.${first}.${second}` : `${block}.${first}`;
      this.keys.set(address, this.keys.get(address) ?? match.index + match[0].indexOf(block));
    }
    for (const match of text.matchAll(/"((?:[^"\\\n]|\\.){1,300})"/g)) {
      let value = match[1]!;
      if (value.includes("\\"))
        try {
          value = JSON.parse(`"${value}"`) as string;
        } catch {
          continue;
        }
      first(this.literals, value, match.index);
    }
  }

  /** The 1-based line and column of an offset. */
  position(offset: number): { startLine: number; startColumn: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { startLine: low + 1, startColumn: offset - this.lineStarts[low]! + 1 };
  }

  /** The 1-based line and column (UTF-16 code units, SARIF's default) where `name` stands, if found. */
  find(name: string): { startLine: number; startColumn: number } | undefined {
    const offset = this.keys.get(name) ?? this.literals.get(name) ?? this.lines.get(name);
    return offset === undefined ? undefined : this.position(offset);
  }
}

/** A resource's name without the note after it: SAM's `Function (AWS::Serverless::Function)`, a `… (replica)`. */
const bare = (resource: string) => resource.replace(/ \([^)]*\)$/, "");

/** An address's parts: `module.a["k"].aws_x.y[0]` → modules [a], then `aws_x.y` (or `data.aws_x.y`). */
export function addressParts(address: string): { modules: string[]; resource: string } | undefined {
  const segments: string[] = [];
  const pattern = /([^.[\]"]+)(?:\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\])?(?:\.|$)/y;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < address.length && (match = pattern.exec(address))) segments.push(match[1]!);
  if (pattern.lastIndex !== address.length || segments.length < 2) return undefined;
  const modules: string[] = [];
  while (segments[0] === "module" && segments.length > 2) {
    modules.push(segments[1]!);
    segments.splice(0, 2);
  }
  return { modules, resource: segments.join(".") };
}

/** A Terraform configuration's blocks: each module folder's resources and calls, by address. */
class TerraformPlaces {
  private readonly modules = new Map<
    string,
    { resources: Map<string, { name: string; line: number }>; calls: Map<string, string | undefined> }
  >();
  private readonly installed: Map<string, string>;
  private readonly files: Readonly<Record<string, string>>;

  constructor(files: Readonly<Record<string, string>>) {
    this.files = files;
    this.installed = installedModules(files);
  }

  private module(dir: string) {
    let known = this.modules.get(dir);
    if (known) return known;
    known = { resources: new Map(), calls: new Map() };
    this.modules.set(dir, known);
    const config = readModule(this.files, dir, (name, blocks) => name === "source" && blocks[0] === "module");
    const at = (where: string) => {
      const found = /^(.*), line (\d+)$/.exec(where);
      return found ? { name: found[1]!, line: Number(found[2]) } : undefined;
    };
    for (const resource of config.resources) {
      const place = at(resource.where);
      const prefix = resource.mode === "resource" ? "" : `${resource.mode}.`;
      if (place) known.resources.set(`${prefix}${resource.type}.${resource.name}`, place);
    }
    for (const call of config.modules) {
      known.calls.set(call.name, call.source);
      const place = at(call.where);
      if (place) known.resources.set(`module.${call.name}`, place);
    }
    return known;
  }

  /** The file (its name among the files) and line of the block declaring an address, when found. */
  find(address: string): { name: string; line: number } | undefined {
    const parts = addressParts(address);
    if (!parts) return undefined;
    let dir = "";
    const keys: string[] = [];
    for (const name of parts.modules) {
      keys.push(name);
      if (!this.module(dir).calls.has(name)) return undefined;
      const source = this.module(dir).calls.get(name);
      const next =
        source !== undefined && /^\.\.?\//.test(source) ? joinDir(dir, source) : this.installed.get(keys.join("."));
      if (next === undefined) return undefined;
      dir = next;
    }
    return this.module(dir).resources.get(parts.resource);
  }
}

/** Each top-level block of a .tf file: from its first line to its last line of code before the next one. */
function terraformBlocks(name: string, text: string): Block[] {
  const starts = readHcl(name, text, () => false).map((block) => block.line);
  const lines = text.split("\n");
  const code = (line: string) => line.trim() !== "" && !/^\s*(#|\/\/)/.test(line);
  return starts.map((start, at) => {
    let end = (starts[at + 1] ?? lines.length + 1) - 1;
    while (end > start && !code(lines[end - 1]!)) end--;
    return { start, end };
  });
}

/**
 * CloudFormation YAML's resources, each from its logical id to its last line: the keys one level
 * under a top-level `Resources:` (block style, as templates are written; a flow-style map has none).
 */
function yamlBlocks(text: string): Block[] {
  const lines = text.split("\n");
  const code = (line: string) => line.trim() !== "" && !line.trimStart().startsWith("#");
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const top = lines.findIndex((line) => /^Resources\s*:\s*(#.*)?$/.test(line));
  if (top < 0) return [];
  const blocks: Block[] = [];
  let indent: number | undefined;
  for (let at = top + 1; at < lines.length; at++) {
    const line = lines[at]!;
    if (!code(line)) continue;
    const own = indentOf(line);
    if (own === 0) break;
    indent ??= own;
    if (own < indent) break;
    if (own === indent) {
      const previous = blocks.at(-1);
      if (previous) blocks[blocks.length - 1] = { start: previous.start, end: lastCode(lines, at) };
      blocks.push({ start: at + 1, end: at + 1 });
    }
  }
  const end = lines.findIndex((line, at) => at > top && code(line) && indentOf(line) === 0);
  const previous = blocks.at(-1);
  if (previous)
    blocks[blocks.length - 1] = { start: previous.start, end: lastCode(lines, end < 0 ? lines.length : end) };
  return blocks;
}

/** The 1-based number of the last line of code before the 0-based line `before`. */
function lastCode(lines: readonly string[], before: number): number {
  for (let at = before - 1; at >= 0; at--)
    if (lines[at]!.trim() !== "" && !lines[at]!.trimStart().startsWith("#")) return at + 1;
  return before;
}

/** JSON (comments allowed): CloudFormation's `Resources` entries and ARM's `resources` objects, nested ones too. */
function jsonBlocks(text: string, index: TextIndex): Block[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root?.type !== "object") return [];
  const blocks: Block[] = [];
  const span = (node: Node, from: Node = node) =>
    blocks.push({
      start: index.position(from.offset).startLine,
      end: index.position(node.offset + node.length).startLine,
    });
  const property = (node: Node, key: string) =>
    node.children?.find((child) => child.type === "property" && child.children?.[0]?.value === key)?.children?.[1];
  const resources = property(root, "Resources");
  if (resources?.type === "object")
    for (const entry of resources.children ?? []) if (entry.children?.[1]) span(entry.children[1], entry);
  const arm = (list: Node | undefined) => {
    if (list?.type !== "array") return;
    for (const item of list.children ?? [])
      if (item.type === "object") {
        span(item);
        arm(property(item, "resources"));
      }
  };
  arm(property(root, "resources"));
  return blocks;
}

/** The innermost block holding a line, if any. */
export const blockAt = (blocks: readonly Block[], line: number): Block | undefined =>
  blocks
    .filter((block) => block.start <= line && line <= block.end)
    .sort((a, b) => b.start - a.start || a.end - b.end)[0];

/** Each file's blocks and index, and where each finding of an answer stands among them. */
export class SourcePlaces {
  private readonly entries: { file: SourceText; index: TextIndex; blocks: Block[] }[];
  private readonly terraform?: TerraformPlaces;

  /** `terraform`: the files are a Terraform configuration (the answer's format is terraform-config). */
  constructor(files: readonly SourceText[], terraform: boolean) {
    this.entries = files.map((file) => {
      const index = new TextIndex(file.text);
      return { file, index, blocks: safely(() => blocksOf(file, index, terraform)) ?? [] };
    });
    if (terraform)
      this.terraform = new TerraformPlaces(Object.fromEntries(files.map((file) => [file.name, file.text])));
  }

  /** The files, with their blocks (what inline suppressions attach to). */
  get files(): readonly { readonly file: SourceText; readonly blocks: readonly Block[] }[] {
    return this.entries;
  }

  /** Where a finding stands: its resource's block, else its name found in a file, else the first file. */
  place(finding: Finding): Place | undefined {
    const first = this.entries[0];
    if (!first) return undefined;
    const resource = finding.resource === undefined ? undefined : bare(finding.resource);
    if (this.terraform) {
      const declared =
        (resource !== undefined ? safely(() => this.terraform!.find(resource)) : undefined) ??
        safely(() => this.terraform!.find(finding.item)) ??
        this.said(finding.message);
      const entry = declared && this.entries.find((candidate) => candidate.file.name === declared.name);
      if (entry && declared) {
        const text = entry.file.text;
        const start = entry.index.lineStarts[declared.line - 1] ?? 0;
        const column = text.slice(start, start + 200).search(/\S/) + 1;
        return { file: entry.file.path, line: declared.line, column: Math.max(column, 1), block: declared.line };
      }
    }
    for (const entry of this.entries) {
      const found = (resource !== undefined ? entry.index.find(resource) : undefined) ?? entry.index.find(finding.item);
      if (found) {
        const block = blockAt(entry.blocks, found.startLine);
        return {
          file: entry.file.path,
          line: found.startLine,
          column: found.startColumn,
          ...(block ? { block: block.start } : {}),
        };
      }
    }
    return { file: first.file.path };
  }

  /** The answer's own "(main.tf, line 3)" of what it did not read (a module block, a count). */
  private said(message: string): { name: string; line: number } | undefined {
    const found = /\(([^(),]+), line (\d+)\)/.exec(message);
    return found ? { name: found[1]!, line: Number(found[2]) } : undefined;
  }

  /** Each finding with its place. */
  placeAll(findings: readonly Finding[]): PlacedFinding[] {
    return findings.map((finding) => {
      const place = this.place(finding);
      return place ? { ...finding, place } : finding;
    });
  }
}

function blocksOf(file: SourceText, index: TextIndex, terraform: boolean): Block[] {
  if (terraform) return file.name.endsWith(".tf") ? terraformBlocks(file.name, file.text) : [];
  return /^\s*[[{]/.test(file.text) ? jsonBlocks(file.text, index) : yamlBlocks(file.text);
}

/** A structure the evaluator already read, read again for places: should it fail after all, no place is given. */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
