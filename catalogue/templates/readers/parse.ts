/**
 * A template's text as a value, with its cost bounded: JSON (comments allowed, as ARM's are) or YAML
 * (CloudFormation's short-form tags, merge keys), duplicate keys refused as CloudFormation's linter
 * flags them (a parser would keep the last and drop a whole Resources block without a word), nesting
 * refused past TEMPLATE_MAX_DEPTH while parsing, and the value's size after aliases counted in values
 * before anything walks it. js-yaml builds plain values (a 4 MiB template in ~15 MB and 0.25 s, where
 * a document model took ~250 MB and 3 s) and makes an alias a shared reference, so parsing costs the
 * text's length; walking what the aliases share is what TEMPLATE_VALUES_MAX (base/limits.ts) bounds.
 */
import yaml from "js-yaml";
import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { TEMPLATE_MAX_DEPTH, TEMPLATE_VALUES_MAX } from "../../base/limits.ts";
import { TemplateBudgetError, TemplateDepthError, TemplateError, TemplateSyntaxError } from "../model/errors.ts";

// CloudFormation's short forms (!Ref, !Sub, !GetAtt …) read as the long form's object, so a template
// written with them parses; their values are not evaluated. The rule functions are Rules' own.
const INTRINSICS = [
  "Ref",
  "Condition",
  "Base64",
  "Cidr",
  "FindInMap",
  "GetAtt",
  "GetAZs",
  "ImportValue",
  "Join",
  "Select",
  "Split",
  "Sub",
  "Transform",
  "And",
  "Equals",
  "If",
  "Not",
  "Or",
  "ToJsonString",
  "Length",
  "Contains",
  "EachMemberEquals",
  "EachMemberIn",
  "RefAll",
  "ValueOf",
  "ValueOfAll",
];
const longName = (name: string) => (name === "Ref" || name === "Condition" ? name : `Fn::${name}`);
const KINDS = ["scalar", "sequence", "mapping"] as const;
const CLOUDFORMATION_SCHEMA = yaml.DEFAULT_SCHEMA.extend(
  INTRINSICS.flatMap((name) =>
    KINDS.map(
      (kind) => new yaml.Type(`!${name}`, { kind, construct: (data: unknown) => ({ [longName(name)]: data }) }),
    ),
  ),
);

const GOOGLE_API = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.googleapis\.com$/;
export const isGoogleApi = (word: unknown): word is string => typeof word === "string" && GOOGLE_API.test(word);

const tooManyValues = () =>
  new TemplateBudgetError(
    `The template expands to more than ${TEMPLATE_VALUES_MAX.toLocaleString("en")} values (each use of a YAML alias counts its values again); a 4 MiB vendor template holds about 200,000. Check it in parts.`,
  );

const DEPTH_MESSAGE = `The template nests more than ${TEMPLATE_MAX_DEPTH} levels deep; no vendor template does.`;

/** The input as a value: parsed JSON or YAML, or the words of a plain API list. */
export function parseTemplateText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") throw new TemplateError("The template is empty.");
  // Split into words only when the first is an API name: a template's words would be millions.
  // (A text starting with a comma has no first word.)
  if (isGoogleApi(/^[^\s,]+/.exec(trimmed)?.[0])) {
    const words = trimmed.split(/[\s,]+/).filter((word) => word !== "");
    if (words.every(isGoogleApi)) return words;
  }
  const value = trimmed.startsWith("{") || trimmed.startsWith("[") ? parseJsonTemplate(trimmed) : parseYaml(trimmed);
  refuseCostly(value);
  return value;
}

function parseYaml(text: string): unknown {
  let nodes = 0;
  try {
    return yaml.load(text, {
      schema: CLOUDFORMATION_SCHEMA,
      // Counted as they are read, so a text of many small values stops before it is all built.
      listener: (event) => {
        if (event === "open" && ++nodes > TEMPLATE_VALUES_MAX) throw tooManyValues();
      },
      // maxDepth (js-yaml 4.1.1+) is not in @types/js-yaml yet. It counts every node, the scalar
      // inside the deepest collection too: one more than the collections JSON's bound counts.
      maxDepth: TEMPLATE_MAX_DEPTH + 1,
    } as yaml.LoadOptions);
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error;
    const { reason, mark } = error;
    if (reason.startsWith("nesting exceeded")) throw new TemplateDepthError(DEPTH_MESSAGE);
    if (reason === "duplicated mapping key")
      throw new TemplateError(
        duplicateKeyMessage(yamlKeyAt(mark.buffer, mark.position), yamlPathAt(mark.buffer, mark.line), mark.line + 1),
      );
    throw new TemplateError(
      `The template is neither JSON nor YAML: ${reason} at line ${mark.line + 1}, column ${mark.column + 1}.`,
    );
  }
}

const duplicateKeyMessage = (key: string, path: string, line: number) =>
  `The key "${key.slice(0, 80)}" appears twice in ${path || "the top level"} (line ${line}); a parser would keep only the last, so the check refuses it as CloudFormation's linter does (E0000 duplicate key). Remove or rename one.`;

/** The key a duplicate-key mark points at (js-yaml marks the key's first character). */
function yamlKeyAt(buffer: string, position: number): string {
  const rest = buffer.slice(position, position + 200);
  const quoted = /^(["'])(.*?)\1/.exec(rest);
  return quoted ? quoted[2]! : (/^[^:\n]*/.exec(rest)?.[0] ?? "").trim();
}

/** The block-style keys above `line` (0-based), each less indented than the last: the duplicate's path. */
function yamlPathAt(buffer: string, line: number): string {
  const lines = buffer.split("\n", line + 1);
  let indent = /^[ -]*/.exec(lines[line] ?? "")![0].length;
  const path: string[] = [];
  for (let at = line - 1; at >= 0 && indent > 0; at--) {
    const match = /^([ -]*)([^\s#:][^:]*):(\s|$)/.exec(lines[at]!);
    if (!match || match[1]!.length >= indent) continue;
    path.unshift(match[2]!.trim().replace(/^["']|["']$/g, ""));
    indent = match[1]!.length;
  }
  return path.join(".");
}

/**
 * JSON, or JSON with comments (ARM templates may hold them: Microsoft's "Template syntax: Comments"),
 * nothing looser; scanned first (scanJson), so a key twice in one object, nesting past the bound or
 * too many values are refused before any value is built.
 */
export function parseJsonTemplate(text: string): unknown {
  scanJson(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    const errors: ParseError[] = [];
    const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false });
    if (errors.length === 0) return value;
    throw new TemplateSyntaxError(`The template starts like JSON but is not valid JSON: ${(error as Error).message}`);
  }
}

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const startsLiteral = (code: number) =>
  (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x74 || code === 0x66 || code === 0x6e;

/**
 * One pass over JSON text's characters, building nothing but each object's keys: refuses a key
 * twice in one object (with the path to it and its line), nesting past TEMPLATE_MAX_DEPTH (a recursive
 * walk of 100,000 `[` overflows the stack) and more than TEMPLATE_VALUES_MAX values. Comments are
 * skipped; what is not JSON is left for JSON.parse to name.
 */
function scanJson(text: string): void {
  const open: { keys: Set<string> | undefined; at: string | number }[] = [];
  let values = 0;
  let line = 1;
  const count = () => {
    if (++values > TEMPLATE_VALUES_MAX) throw tooManyValues();
  };
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a) line++;
    else if (code === 0x22) {
      const start = at;
      for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++) if (text.charCodeAt(at) === 0x5c) at++;
      let next = at + 1;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      const top = open.at(-1);
      if (text.charCodeAt(next) !== 0x3a || !top?.keys) {
        count();
        continue;
      }
      let key = text.slice(start + 1, at);
      if (key.includes("\\"))
        try {
          key = JSON.parse(text.slice(start, at + 1)) as string;
        } catch {
          // Not JSON: JSON.parse names it below.
        }
      if (top.keys.has(key))
        throw new TemplateError(
          duplicateKeyMessage(
            key,
            open
              .slice(0, -1)
              .map((entry) => entry.at)
              .join("."),
            line,
          ),
        );
      top.keys.add(key);
      top.at = key;
    } else if (code === 0x2f && text.charCodeAt(at + 1) === 0x2f) {
      while (at + 1 < text.length && text.charCodeAt(at + 1) !== 0x0a) at++;
    } else if (code === 0x2f && text.charCodeAt(at + 1) === 0x2a) {
      const end = text.indexOf("*/", at + 2);
      const stop = end < 0 ? text.length : end + 1;
      for (; at < stop; at++) if (text.charCodeAt(at) === 0x0a) line++;
    } else if (code === 0x7b || code === 0x5b) {
      count();
      if (open.length >= TEMPLATE_MAX_DEPTH) throw new TemplateDepthError(DEPTH_MESSAGE);
      open.push({ keys: code === 0x7b ? new Set() : undefined, at: 0 });
    } else if (code === 0x7d || code === 0x5d) open.pop();
    else if (code === 0x2c) {
      const top = open.at(-1);
      if (top && !top.keys) top.at = (top.at as number) + 1;
    } else if (startsLiteral(code)) {
      count();
      while (at + 1 < text.length && /[\w.+-]/.test(text[at + 1]!)) at++;
    }
  }
}

/**
 * Refuses a value nested past TEMPLATE_MAX_DEPTH or expanding (aliases counted at every use) to more
 * than TEMPLATE_VALUES_MAX values; the walk stops at the bound, so its own cost is bounded too.
 */
export function refuseCostly(value: unknown): void {
  let count = 0;
  const walk = (inner: unknown, depth: number): void => {
    if (++count > TEMPLATE_VALUES_MAX) throw tooManyValues();
    if (inner === null || typeof inner !== "object") return;
    if (depth >= TEMPLATE_MAX_DEPTH) throw new TemplateDepthError(DEPTH_MESSAGE);
    for (const child of Array.isArray(inner) ? inner : Object.values(inner)) walk(child, depth + 1);
  };
  walk(value, 0);
}
