/**
 * Suppressions kept where users keep them (docs/ci-check.md, "Suppressions"), beside the baseline:
 *
 * - Inline comments in the files checked: `# cloud-catalogue:ignore RULE[,RULE…] [expires=YYYY-MM-DD]
 *   reason` in a `.tf` file (`//` and `/* … *\/` too) or CloudFormation YAML, `// cloud-catalogue:ignore …`
 *   in JSON with comments (ARM templates; CloudFormation JSON). A comment applies to the resource
 *   block it sits in, or to the one just below it (nothing but comments and blank lines between),
 *   as checkov's `#checkov:skip` and tflint's `# tflint-ignore` do. Read strictly: a rule the check
 *   does not have, no reason, a date that is not one, or a comment that sits in no resource and
 *   above none is a usage error (exit 2) naming the file and line — a typo never silently lets a
 *   finding through, nor keeps one failing unexplained.
 * - Rules skipped (--skip-rule, the configuration's skip-rules) or left out by a selection (--rule,
 *   rules): each finding of them is suppressed with that reason, and said so in every output.
 */
import { visit } from "jsonc-parser";
import { editDistance } from "../../catalogue/base/edit-distance.ts";
import { FINDING_RULES, type FindingRule } from "../../catalogue/templates/answer/findings.ts";
import type { Suppression, SuppressionSource } from "../../catalogue/templates/answer/judge.ts";
import { blockAt, type Block, type SourceText } from "../../catalogue/templates/answer/places.ts";
import { CheckUsageError } from "./errors.ts";
import type { RuleChoice } from "./options.ts";

export const DIRECTIVE = "cloud-catalogue:ignore";

/** A comment of a file: its 1-based line, its text, and whether it is all the line holds (beside spaces). */
interface Comment {
  readonly line: number;
  readonly text: string;
  readonly whole: boolean;
}

/** Comments of JSON with comments, as jsonc-parser scans them (never a `//` inside a string). */
function jsonComments(text: string): Comment[] {
  const comments: Comment[] = [];
  const lineStarts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  visit(
    text,
    {
      onComment: (offset, length, startLine) => {
        const before = text.slice(lineStarts[startLine] ?? 0, offset);
        comments.push({ line: startLine + 1, text: text.slice(offset, offset + length), whole: before.trim() === "" });
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return comments;
}

/**
 * Comments of a line-based language: YAML (`#` at the start or after a space, outside quotes) or
 * HCL (`#`, `//` and `/* … *\/` outside strings; a heredoc's lines are text, not comments).
 */
function lineComments(text: string, hcl: boolean): Comment[] {
  const comments: Comment[] = [];
  let heredoc: string | undefined;
  let blockComment = false;
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (heredoc !== undefined) {
      if (line.trim() === heredoc) heredoc = undefined;
      return;
    }
    let quote: string | undefined;
    for (let at = 0; at < line.length; at++) {
      const char = line[at]!;
      if (blockComment) {
        const end = line.indexOf("*/", at);
        comments.push({ line: index + 1, text: line.slice(at, end < 0 ? undefined : end), whole: true });
        if (end < 0) return;
        blockComment = false;
        at = end + 1;
        continue;
      }
      if (quote !== undefined) {
        if (char === "\\" && quote === '"') at++;
        else if (char === quote) quote = undefined;
        continue;
      }
      if (char === '"' || (!hcl && char === "'")) {
        quote = char;
        continue;
      }
      const whole = line.slice(0, at).trim() === "";
      if (char === "#" && (hcl || at === 0 || /\s/.test(line[at - 1]!))) {
        comments.push({ line: index + 1, text: line.slice(at), whole });
        return;
      }
      if (hcl && char === "/" && line[at + 1] === "/") {
        comments.push({ line: index + 1, text: line.slice(at), whole });
        return;
      }
      if (hcl && char === "/" && line[at + 1] === "*") {
        blockComment = true;
        at++;
        continue;
      }
    }
    const opener = hcl ? /<<-?\s*"?([A-Za-z_][\w-]*)"?\s*$/.exec(line) : null;
    if (opener) heredoc = opener[1];
  });
  return comments;
}

/** The nearest rule to a word, for a misspelt one. */
function nearestRule(word: string): string | undefined {
  const [best] = [...FINDING_RULES].sort((a, b) => editDistance(word, a) - editDistance(word, b));
  return best !== undefined && editDistance(word, best) <= 3 ? best : undefined;
}

/** What one directive says: its rules, its expiry and its reason; refused with where it is. */
function directiveOf(comment: Comment, where: string): { rules: FindingRule[]; expires?: string; reason: string } {
  const at = comment.text.indexOf(DIRECTIVE);
  const rest = comment.text
    .slice(at + DIRECTIVE.length)
    .replace(/\*\/\s*$/, "")
    .trim();
  const [first = "", ...words] = rest.split(/\s+/);
  const refuse = (why: string) =>
    new CheckUsageError(
      `${where}: ${why} (write # ${DIRECTIVE} RULE[,RULE…] [expires=YYYY-MM-DD] reason; docs/ci-check.md, "Suppressions")`,
    );
  if (first === "") throw refuse(`${DIRECTIVE} names no rule`);
  const rules = first.split(",").filter(Boolean);
  for (const rule of rules)
    if (!(FINDING_RULES as readonly string[]).includes(rule)) {
      const near = nearestRule(rule);
      throw refuse(`${rule} is not a rule of the check${near ? ` (did you mean ${near}?)` : ""}`);
    }
  let expires: string | undefined;
  if (words[0]?.startsWith("expires=")) {
    expires = words.shift()!.slice("expires=".length);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))
      throw refuse(`expires=${expires} is not a day (YYYY-MM-DD)`);
  }
  const reason = words.join(" ").trim();
  if (!reason) throw refuse("say why it is accepted, after the rule");
  return { rules: rules as FindingRule[], ...(expires ? { expires } : {}), reason };
}

/** The block a comment applies to: the one it sits in, or the one starting on the first code line below it. */
function blockOf(
  comment: Comment,
  blocks: readonly Block[],
  comments: readonly Comment[],
  text: string,
): Block | undefined {
  const lines = text.split("\n");
  const commentOnly = new Set(comments.filter((entry) => entry.whole).map((entry) => entry.line));
  if (comment.whole) {
    let next = comment.line + 1;
    while (next <= lines.length && (lines[next - 1]!.trim() === "" || commentOnly.has(next))) next++;
    const below = blocks.find((block) => block.start === next);
    if (below) return below;
  }
  return blockAt(blocks, comment.line);
}

/** The inline suppressions of the files checked, each attached to its block. */
export function inlineSuppressions(
  files: readonly { readonly file: SourceText; readonly blocks: readonly Block[] }[],
  terraform: boolean,
): Suppression[] {
  const suppressions: Suppression[] = [];
  for (const { file, blocks } of files) {
    if (!file.text.includes(DIRECTIVE)) continue;
    if (terraform && !file.name.endsWith(".tf")) continue;
    const json = !terraform && /^\s*[[{]/.test(file.text);
    const comments = json ? jsonComments(file.text) : lineComments(file.text, terraform);
    for (const comment of comments) {
      if (!comment.text.includes(DIRECTIVE)) continue;
      const where = `${file.path}:${comment.line}`;
      const directive = directiveOf(comment, where);
      const block = blockOf(comment, blocks, comments, file.text);
      if (!block)
        throw new CheckUsageError(
          `${where}: a ${DIRECTIVE} comment applies to the resource it sits in or the one just below it, and this one has neither; move it above the resource`,
        );
      const source: SuppressionSource = { kind: "inline", file: file.path, line: comment.line, block: block.start };
      for (const rule of directive.rules)
        suppressions.push({
          rule,
          reason: directive.reason,
          ...(directive.expires ? { expires: directive.expires } : {}),
          source,
        });
    }
  }
  return suppressions;
}

/** The rules skipped, and those a selection leaves out, as suppressions with their reasons. */
export function ruleSuppressions(rules: RuleChoice): Suppression[] {
  const sourceOf = (by: string): SuppressionSource =>
    by.startsWith("--") ? { kind: "option", option: by } : { kind: "config", path: by };
  const skipped = rules.skipped.map((rule) => ({
    rule,
    reason: "the rule is skipped",
    source: sourceOf(rules.skippedBy),
  }));
  const unselected =
    rules.selected.length === 0
      ? []
      : FINDING_RULES.filter((rule) => !rules.selected.includes(rule)).map((rule) => ({
          rule,
          reason: `only ${rules.selected.join(", ")} ${rules.selected.length === 1 ? "is" : "are"} checked`,
          source: sourceOf(rules.selectedBy),
        }));
  return [...skipped, ...unselected];
}
