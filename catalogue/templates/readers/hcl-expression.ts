/**
 * HCL's expression syntax (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md#expressions)
 * parsed from the tokens ./hcl.ts keeps of an attribute: literals, templates, tuples and objects,
 * variables with attribute, index and splat access, function calls, unary and binary operators by
 * HCL's precedence, conditionals and `for` expressions. An expression it cannot parse is refused
 * with the file and line, as `terraform validate` would refuse it.
 */
import { TemplateError } from "../model/errors.ts";
import type { HclTemplatePart, HclToken } from "./hcl.ts";

export type Expression =
  | { readonly kind: "literal"; readonly value: null | boolean | number | string }
  | { readonly kind: "template"; readonly parts: readonly (string | Expression)[]; readonly directive: boolean }
  | { readonly kind: "tuple"; readonly items: readonly Expression[] }
  | { readonly kind: "object"; readonly items: readonly (readonly [Expression, Expression])[] }
  | { readonly kind: "variable"; readonly name: string }
  | { readonly kind: "attribute"; readonly of: Expression; readonly name: string }
  | { readonly kind: "index"; readonly of: Expression; readonly key: Expression }
  | { readonly kind: "splat"; readonly of: Expression; readonly each: Expression }
  | {
      readonly kind: "call";
      readonly name: string;
      readonly args: readonly Expression[];
      readonly expand: boolean;
      /** Its file and line, for what a budget's refusal names. */
      readonly file?: string;
      readonly line?: number;
    }
  | { readonly kind: "unary"; readonly op: "-" | "!"; readonly operand: Expression }
  | { readonly kind: "binary"; readonly op: string; readonly left: Expression; readonly right: Expression }
  | { readonly kind: "conditional"; readonly test: Expression; readonly then: Expression; readonly else: Expression }
  | {
      readonly kind: "for";
      readonly object: boolean;
      readonly keyName: string | undefined;
      readonly valueName: string;
      readonly collection: Expression;
      readonly key: Expression | undefined;
      readonly value: Expression;
      readonly condition: Expression | undefined;
      readonly group: boolean;
      readonly file?: string;
      readonly line?: number;
    };

/** The placeholder a splat's per-item expression reads (`list[*].id` is `each item: item.id`). */
export const SPLAT_ITEM = "\u0000item";

/** Binary operators by precedence, lowest first (HCL's spec, "Operations"). */
const LEVELS: readonly (readonly string[])[] = [
  ["||"],
  ["&&"],
  ["==", "!="],
  [">", ">=", "<", "<="],
  ["+", "-"],
  ["*", "/", "%"],
];

/** Parses an attribute's tokens (from ../hcl.ts) as one expression. */
export function parseExpression(tokens: readonly HclToken[], file: string): Expression {
  const parser = new ExpressionParser(tokens, file);
  const expression = parser.expression();
  parser.end();
  return expression;
}

class ExpressionParser {
  private at = 0;
  private readonly tokens: readonly HclToken[];
  private readonly file: string;

  constructor(tokens: readonly HclToken[], file: string) {
    this.tokens = tokens.filter((token) => token.kind !== "newline");
    this.file = file;
  }

  private fail(message: string, token = this.peek()): never {
    const line = token?.line ?? this.tokens.at(-1)?.line ?? 0;
    throw new TemplateError(`${this.file}, line ${line}: ${message}`);
  }

  private peek(offset = 0): HclToken | undefined {
    return this.tokens[this.at + offset];
  }

  private is(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token !== undefined && token.kind === "punct" && token.text === text;
  }

  private take(text: string): void {
    if (!this.is(text)) this.fail(`expected "${text}" in this expression, found ${describe(this.peek())}.`);
    this.at++;
  }

  end(): void {
    if (this.at < this.tokens.length) this.fail(`unexpected ${describe(this.peek())} after the expression.`);
  }

  expression(): Expression {
    const test = this.binary(0);
    if (!this.is("?")) return test;
    this.at++;
    const then = this.expression();
    this.take(":");
    return { kind: "conditional", test, then, else: this.expression() };
  }

  private binary(level: number): Expression {
    if (level === LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const token = this.peek();
      if (token?.kind !== "punct" || !LEVELS[level]!.includes(token.text!)) return left;
      this.at++;
      left = { kind: "binary", op: token.text!, left, right: this.binary(level + 1) };
    }
  }

  private unary(): Expression {
    if (this.is("-") || this.is("!")) {
      const op = this.peek()!.text as "-" | "!";
      this.at++;
      return { kind: "unary", op, operand: this.unary() };
    }
    return this.postfix(this.term());
  }

  /** Attribute, index and splat access after a term. */
  private postfix(term: Expression): Expression {
    let of = term;
    for (;;) {
      if (this.is(".")) {
        const next = this.peek(1);
        if (next?.kind === "punct" && next.text === "*") {
          this.at += 2;
          return { kind: "splat", of, each: this.splatRest({ kind: "variable", name: SPLAT_ITEM }, true) };
        }
        this.at++;
        const name = this.peek();
        // Legacy index syntax: list.0.
        if (name?.kind === "number") {
          this.at++;
          of = { kind: "index", of, key: { kind: "literal", value: Number(name.text) } };
        } else if (name?.kind === "ident") {
          this.at++;
          of = { kind: "attribute", of, name: name.text! };
        } else this.fail(`an attribute name must follow ".", found ${describe(name)}.`);
      } else if (this.is("[")) {
        if (this.is("*", 1) && this.is("]", 2)) {
          this.at += 3;
          return { kind: "splat", of, each: this.splatRest({ kind: "variable", name: SPLAT_ITEM }, false) };
        }
        this.at++;
        const key = this.expression();
        this.take("]");
        of = { kind: "index", of, key };
      } else return of;
    }
  }

  /** What a splat reads of each item: the attribute (and, for [*], index) accesses after it. */
  private splatRest(item: Expression, attributesOnly: boolean): Expression {
    let each = item;
    for (;;) {
      if (this.is(".") && this.peek(1)?.kind === "ident") {
        each = { kind: "attribute", of: each, name: this.peek(1)!.text! };
        this.at += 2;
      } else if (!attributesOnly && this.is("[")) {
        this.at++;
        const key = this.expression();
        this.take("]");
        each = { kind: "index", of: each, key };
      } else return each;
    }
  }

  private term(): Expression {
    const token = this.peek();
    if (!token) this.fail("the expression ends too early.");
    this.at++;
    switch (token.kind) {
      case "number":
        return { kind: "literal", value: Number(token.text) };
      case "string":
        return { kind: "literal", value: token.text! };
      case "template":
        return this.template(token.parts!);
      case "ident":
        return this.identifier(token);
      case "punct":
        if (token.text === "(") {
          const inner = this.expression();
          this.take(")");
          return inner;
        }
        if (token.text === "[") return this.tuple();
        if (token.text === "{") return this.object();
        break;
    }
    return this.fail(`${describe(token)} cannot start an expression.`, token);
  }

  private template(parts: readonly HclTemplatePart[]): Expression {
    let directive = false;
    const parsed = parts.map((part) => {
      if (typeof part === "string") return part;
      if (part.directive) {
        directive = true;
        return "";
      }
      return parseExpression(part.tokens, this.file);
    });
    return { kind: "template", parts: parsed, directive };
  }

  private identifier(token: HclToken): Expression {
    const name = token.text!;
    if (name === "true" || name === "false") return { kind: "literal", value: name === "true" };
    if (name === "null") return { kind: "literal", value: null };
    // A provider-defined function: provider::aws::arn_parse(…).
    let callee = name;
    while (this.is(":") && this.is(":", 1) && this.peek(2)?.kind === "ident") {
      callee += `::${this.peek(2)!.text!}`;
      this.at += 3;
    }
    if (this.is("(")) return this.call(callee, token.line);
    if (callee !== name) this.fail(`the function ${callee} must be called.`);
    return { kind: "variable", name };
  }

  private call(name: string, line: number): Expression {
    this.take("(");
    const args: Expression[] = [];
    let expand = false;
    while (!this.is(")")) {
      args.push(this.expression());
      if (this.is("...")) {
        this.at++;
        expand = true;
      }
      if (this.is(",")) this.at++;
      else if (!this.is(")")) this.fail(`expected "," or ")" in the call of ${name}, found ${describe(this.peek())}.`);
    }
    this.at++;
    return { kind: "call", name, args, expand, file: this.file, line };
  }

  private tuple(): Expression {
    if (this.peek()?.kind === "ident" && this.peek()!.text === "for" && !this.is("=", 1))
      return this.forExpression(false);
    const items: Expression[] = [];
    while (!this.is("]")) {
      items.push(this.expression());
      if (this.is(",")) this.at++;
      else if (!this.is("]")) this.fail(`expected "," or "]" in this list, found ${describe(this.peek())}.`);
    }
    this.at++;
    return { kind: "tuple", items };
  }

  private object(): Expression {
    if (this.peek()?.kind === "ident" && this.peek()!.text === "for" && !this.is("=", 1) && !this.is(":", 1))
      return this.forExpression(true);
    const items: (readonly [Expression, Expression])[] = [];
    while (!this.is("}")) {
      // A bare name is the key itself, not a variable (HCL's spec: "object constructor").
      const keyToken = this.peek();
      let key: Expression;
      if (keyToken?.kind === "ident" && (this.is("=", 1) || this.is(":", 1))) {
        this.at++;
        key = { kind: "literal", value: keyToken.text! };
      } else key = this.expression();
      if (this.is("=") || this.is(":")) this.at++;
      else this.fail(`expected "=" or ":" after an object's key, found ${describe(this.peek())}.`);
      items.push([key, this.expression()]);
      // Items are separated by commas or new lines (dropped inside brackets).
      if (this.is(",")) this.at++;
    }
    this.at++;
    return { kind: "object", items };
  }

  /** `[for v in c : e if cond]`, `{for k, v in c : k => v... if cond}`, after the opening bracket. */
  private forExpression(object: boolean): Expression {
    const line = this.peek()!.line;
    this.at++;
    const first = this.name();
    let keyName: string | undefined;
    let valueName = first;
    if (this.is(",")) {
      this.at++;
      keyName = first;
      valueName = this.name();
    }
    if (this.peek()?.text !== "in") this.fail(`expected "in" in a for expression, found ${describe(this.peek())}.`);
    this.at++;
    const collection = this.expression();
    this.take(":");
    let key: Expression | undefined;
    let value = this.expression();
    let group = false;
    if (object) {
      this.take("=>");
      key = value;
      value = this.expression();
      if (this.is("...")) {
        this.at++;
        group = true;
      }
    }
    let condition: Expression | undefined;
    if (this.peek()?.kind === "ident" && this.peek()!.text === "if") {
      this.at++;
      condition = this.expression();
    }
    this.take(object ? "}" : "]");
    return { kind: "for", object, keyName, valueName, collection, key, value, condition, group, file: this.file, line };
  }

  private name(): string {
    const token = this.peek();
    if (token?.kind !== "ident") this.fail(`expected a name in a for expression, found ${describe(token)}.`);
    this.at++;
    return token.text!;
  }
}

function describe(token: HclToken | undefined): string {
  if (!token || token.kind === "eof") return "the end of the expression";
  if (token.kind === "string" || token.kind === "template") return "a string";
  return `"${token.text}"`;
}
