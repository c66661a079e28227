/**
 * HCL's native syntax (what `.tf` files hold, https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md)
 * read for its structure: every block with its type, labels and line, every attribute with its
 * expression's tokens when the caller asks for that attribute, nothing else built. The whole text is
 * still checked as HCL's parser checks its structure: unclosed blocks, brackets, strings, heredocs and
 * interpolations, a block or attribute where neither can stand, an attribute without a value, labels
 * that are not names or plain strings; each refused with the file and line (TemplateError).
 *
 * Why not HashiCorp's parser itself: @cdktf/hcl2json (hcl v2 in Go's WebAssembly) took 0.4 s and
 * 28 MB of WebAssembly memory for a 92-byte file and 6.5 s and ~600 MB for 1.9 MB, memory outside the
 * reading thread's heap limit (TEMPLATE_READ_HEAP_MB) and past its time; hcl2-parser (GopherJS) ran
 * out of a 48 MB heap on 1.9 MB (51 s and 650 MB of heap without the limit); tree-sitter-hcl took
 * 2.1 s and 211 MB of WebAssembly memory. This reader takes ~0.1 s and a few MB for the same 1.9 MB;
 * the tests compare what it reads of real vendor configurations with @cdktf/hcl2json's reading.
 */
import { TEMPLATE_MAX_DEPTH, TEMPLATE_VALUES_MAX } from "../../base/limits.ts";
import { TemplateBudgetError, TemplateDepthError, TemplateError } from "../model/errors.ts";

export type HclTokenKind = "ident" | "number" | "string" | "template" | "punct" | "newline" | "eof";

/** A template's part: literal text, or an interpolation's (`${…}`) or a directive's (`%{…}`) tokens. */
export type HclTemplatePart = string | { readonly tokens: readonly HclToken[]; readonly directive: boolean };

export interface HclToken {
  readonly kind: HclTokenKind;
  /** ident, number and punct: the text; string: its value (a quoted string or heredoc without interpolation). */
  readonly text?: string;
  /** template: a quoted string or heredoc holding interpolations or directives, in parts. */
  readonly parts?: readonly HclTemplatePart[];
  readonly line: number;
}

/**
 * Which attributes' expressions are kept, by name and the types of the blocks holding them from the
 * top (["resource"], ["resource", "site_config"], ["locals"]); every other one is checked and dropped.
 */
export type KeepAttribute = (name: string, blocks: readonly string[]) => boolean;

export interface HclBlock {
  readonly type: string;
  readonly labels: readonly string[];
  readonly line: number;
  /** The attributes asked for, each with its expression's tokens (newlines inside brackets dropped). */
  readonly attributes: ReadonlyMap<string, readonly HclToken[]>;
  readonly blocks: readonly HclBlock[];
}

const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PUNCT3 = ["..."];
const STRING_STOP = new Set(['"', "\\", "\n", "$", "%"]);
const PUNCT2 = ["==", "!=", "<=", ">=", "&&", "||", "=>", "${", "%{"];
const PUNCT1 = "{}[]()=,.:?!+-*/%<>~";

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isIdentStart = (code: number) => isLetter(code) || code > 0x7f;
const isIdentPart = (code: number) => isLetter(code) || isDigit(code) || code === 0x2d || code > 0x7f;

/** Reads one file's blocks, keeping the expressions of the attributes `keep` names. */
export function readHcl(file: string, text: string, keep: KeepAttribute): HclBlock[] {
  return new HclReader(file, text, keep).read().blocks;
}

/** Reads a file of attributes and blocks (a variable file), every attribute's expression kept. */
export function readHclBody(file: string, text: string): Omit<HclBlock, "type" | "labels" | "line"> {
  return new HclReader(file, text, () => true).read();
}

class HclReader {
  private at = 0;
  private line = 1;
  private values = 0;
  private depth = 0;
  private peeked: HclToken | undefined;

  private readonly file: string;
  private readonly text: string;
  private readonly keep: KeepAttribute;
  /** The types of the blocks being read, from the top. */
  private readonly blockTypes: string[] = [];

  /** `firstLine`: a heredoc's body is read by a reader of its own, its lines counted from the heredoc's. */
  constructor(file: string, text: string, keep: KeepAttribute, firstLine = 1) {
    this.file = file;
    this.text = text;
    this.keep = keep;
    this.line = firstLine;
  }

  private fail(message: string, line = this.line): never {
    throw new TemplateError(`${this.file}, line ${line}: ${message}`);
  }

  /** Refuses what starts at the reading position, naming its column too. */
  private failAt(message: string): never {
    const column = this.at - this.text.lastIndexOf("\n", this.at - 1);
    throw new TemplateError(`${this.file}, line ${this.line}, column ${column}: ${message}`);
  }

  private count() {
    if (++this.values > TEMPLATE_VALUES_MAX)
      throw new TemplateBudgetError(
        `The configuration holds more than ${TEMPLATE_VALUES_MAX.toLocaleString("en")} blocks, attributes and values; check it in parts.`,
      );
  }

  private enter(line: number) {
    if (++this.depth > TEMPLATE_MAX_DEPTH)
      throw new TemplateDepthError(
        `${this.file}, line ${line}: the configuration nests more than ${TEMPLATE_MAX_DEPTH} levels deep.`,
      );
  }

  private peek(): HclToken {
    this.peeked ??= this.scan();
    return this.peeked;
  }

  private next(): HclToken {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  private describe(token: HclToken): string {
    if (token.kind === "eof") return "the end of the file";
    if (token.kind === "newline") return "a new line";
    if (token.kind === "string" || token.kind === "template") return "a string";
    return `"${token.text}"`;
  }

  /** The next token; spaces and comments skipped (a line comment's newline is still a token). */
  private scan(): HclToken {
    const text = this.text;
    for (;;) {
      const char = text[this.at];
      if (char === undefined) return { kind: "eof", line: this.line };
      if (char === " " || char === "\t" || char === "\r" || char === "\uFEFF") this.at++;
      else if (char === "#" || (char === "/" && text[this.at + 1] === "/")) {
        const end = text.indexOf("\n", this.at);
        this.at = end < 0 ? text.length : end;
      } else if (char === "/" && text[this.at + 1] === "*") {
        const end = text.indexOf("*/", this.at + 2);
        if (end < 0) this.fail("a comment starting here is never closed (*/).");
        for (let at = this.at; at < end; at++) if (text.charCodeAt(at) === 0x0a) this.line++;
        this.at = end + 2;
      } else break;
    }
    const line = this.line;
    const char = text[this.at]!;
    if (char === "\n") {
      this.at++;
      this.line++;
      return { kind: "newline", line };
    }
    if (isIdentStart(char.charCodeAt(0))) {
      const start = this.at;
      while (this.at < text.length && isIdentPart(text.charCodeAt(this.at))) this.at++;
      this.count();
      return { kind: "ident", text: text.slice(start, this.at), line };
    }
    if (isDigit(char.charCodeAt(0))) {
      NUMBER.lastIndex = this.at;
      const match = NUMBER.exec(text)!;
      this.at += match[0].length;
      this.count();
      return { kind: "number", text: match[0], line };
    }
    if (char === '"') {
      this.at++;
      this.count();
      return this.templateToken(this.quoted(line), line);
    }
    const three = text.slice(this.at, this.at + 3);
    if (char === "<" && /^<<-?[A-Za-z_]/.test(text.slice(this.at, this.at + 4))) {
      const parts = this.heredoc(line);
      this.count();
      return this.templateToken(parts, line);
    }
    const punct =
      PUNCT3.find((word) => word === three) ??
      PUNCT2.find((word) => word === three.slice(0, 2)) ??
      (PUNCT1.includes(char) ? char : undefined);
    if (!punct || punct === "${" || punct === "%{")
      this.fail(`"${char}" cannot stand here (HCL's native syntax has no such character outside strings).`);
    this.at += punct.length;
    return { kind: "punct", text: punct, line };
  }

  /** A string token when the template is literal text alone, else a template token. */
  private templateToken(parts: HclTemplatePart[], line: number): HclToken {
    if (parts.every((part) => typeof part === "string")) return { kind: "string", text: parts.join(""), line };
    return { kind: "template", parts, line };
  }

  /** A quoted template after its opening quote, in parts. */
  private quoted(line: number): HclTemplatePart[] {
    const text = this.text;
    const parts: HclTemplatePart[] = [];
    let value = "";
    for (;;) {
      const char = text[this.at];
      if (char === undefined || char === "\n")
        this.fail("a string starting here is not closed on its line (a quoted string cannot span lines).", line);
      if (char === '"') {
        this.at++;
        if (value !== "" || parts.length === 0) parts.push(value);
        return parts;
      }
      if (char === "\\") {
        const escaped = text[this.at + 1];
        const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
        if (escaped !== undefined && escaped in simple) {
          value += simple[escaped];
          this.at += 2;
        } else if (escaped === "u" || escaped === "U") {
          const digits = escaped === "u" ? 4 : 8;
          const hex = text.slice(this.at + 2, this.at + 2 + digits);
          const written = `"\\${escaped}${hex.replace(/[^0-9A-Za-z]/g, "")}"`;
          if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex))
            this.failAt(`${written} is not an escape: \\${escaped} takes ${digits} hexadecimal digits.`);
          const code = parseInt(hex, 16);
          // As HCL's own parser: a code point UTF-8 cannot encode (a surrogate half, past U+10FFFF) is refused.
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
            this.failAt(`${written} is not a character (U+${hex.toUpperCase()} cannot be encoded in UTF-8).`);
          value += String.fromCodePoint(code);
          this.at += 2 + digits;
        } else this.failAt(`"\\${escaped ?? ""}" is not an escape HCL knows.`);
      } else if ((char === "$" || char === "%") && text[this.at + 1] === char && text[this.at + 2] === "{") {
        value += `${char}{`;
        this.at += 3;
      } else if ((char === "$" || char === "%") && text[this.at + 1] === "{") {
        if (value !== "") parts.push(value);
        value = "";
        this.at += 2;
        parts.push({ tokens: this.interpolation(this.line), directive: char === "%" });
      } else {
        // A run of plain characters at once.
        const start = this.at;
        this.at++;
        while (this.at < text.length && !STRING_STOP.has(text[this.at]!)) this.at++;
        value += text.slice(start, this.at);
      }
    }
  }

  /** An interpolation or directive after its `${` or `%{`, up to its closing brace: its tokens. */
  private interpolation(line: number): HclToken[] {
    this.enter(line);
    const tokens: HclToken[] = [];
    const close: string[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === "eof") this.fail("an interpolation (${ or %{) starting here is never closed.", line);
      if (token.kind === "newline") continue;
      if (token.kind === "punct") {
        const text = token.text!;
        if (text === "{" || text === "[" || text === "(") {
          this.enter(token.line);
          close.push(text === "{" ? "}" : text === "[" ? "]" : ")");
        } else if (text === "}" || text === "]" || text === ")") {
          if (close.length === 0 && text === "}") break;
          if (close.pop() !== text) this.fail(`"${text}" closes nothing opened here.`, token.line);
          this.depth--;
        }
      }
      tokens.push(token);
    }
    this.depth--;
    // A template's strip markers (${~ and ~}) change only spaces around it.
    if (tokens[0]?.kind === "punct" && tokens[0].text === "~") tokens.shift();
    if (tokens.at(-1)?.kind === "punct" && tokens.at(-1)!.text === "~") tokens.pop();
    return tokens;
  }

  /**
   * A heredoc from its `<<`: the rest of its line names the marker, a line holding only the marker
   * ends it. Its body is a template (no escapes); `<<-` takes the least indentation off every line.
   */
  private heredoc(line: number): HclTemplatePart[] {
    const text = this.text;
    const start = /^<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/.exec(text.slice(this.at, this.at + 300));
    if (!start) this.fail("a heredoc's marker (<<EOT) must end its line.");
    const marker = start[2]!;
    this.at += start[0].length;
    this.line++;
    const bodyLine = this.line;
    const rows: string[] = [];
    for (;;) {
      if (this.at >= text.length)
        this.fail(`the heredoc starting here never ends (no line holding only ${marker}).`, line);
      const end = text.indexOf("\n", this.at);
      const row = text.slice(this.at, end < 0 ? text.length : end);
      this.at = end < 0 ? text.length : end;
      if (row.trim() === marker) break;
      rows.push(row.replace(/\r$/, ""));
      if (end >= 0) {
        this.at++;
        this.line++;
      }
    }
    if (start[1] === "-") {
      const indent = Math.min(...rows.filter((row) => row.trim() !== "").map((row) => /^[ \t]*/.exec(row)![0].length));
      if (Number.isFinite(indent)) for (let i = 0; i < rows.length; i++) rows[i] = rows[i]!.slice(indent);
    }
    const body = rows.map((row) => `${row}\n`).join("");
    if (!/[$%]\{/.test(body)) return [body];
    return new HclReader(this.file, body, this.keep, bodyLine).templateBody();
  }

  /** This reader's whole text as a heredoc's template body: literal text and interpolations, no escapes. */
  private templateBody(): HclTemplatePart[] {
    const text = this.text;
    const parts: HclTemplatePart[] = [];
    let value = "";
    while (this.at < text.length) {
      const char = text[this.at]!;
      if ((char === "$" || char === "%") && text[this.at + 1] === char && text[this.at + 2] === "{") {
        value += `${char}{`;
        this.at += 3;
      } else if ((char === "$" || char === "%") && text[this.at + 1] === "{") {
        if (value !== "") parts.push(value);
        value = "";
        this.at += 2;
        parts.push({ tokens: this.interpolation(this.line), directive: char === "%" });
      } else {
        if (char === "\n") this.line++;
        value += char;
        this.at++;
      }
    }
    if (value !== "") parts.push(value);
    return parts;
  }

  read(): { blocks: HclBlock[]; attributes: Map<string, HclToken[]> } {
    return this.body(undefined);
  }

  /** A body's items up to its closing brace (or the end of the file): its blocks, its attributes kept. */
  private body(open: number | undefined): { blocks: HclBlock[]; attributes: Map<string, HclToken[]> } {
    const blocks: HclBlock[] = [];
    const attributes = new Map<string, HclToken[]>();
    for (;;) {
      const token = this.next();
      if (token.kind === "newline") continue;
      if (token.kind === "eof") {
        if (open !== undefined) this.fail("the block opened here is never closed (no matching }).", open);
        return { blocks, attributes };
      }
      if (token.kind === "punct" && token.text === "}" && open !== undefined) return { blocks, attributes };
      if (token.kind !== "ident")
        this.fail(`expected an attribute or a block, found ${this.describe(token)}.`, token.line);
      const name = token.text!;
      const after = this.peek();
      if (after.kind === "punct" && after.text === "=") {
        this.next();
        const tokens = this.expression(token.line, open !== undefined);
        if (attributes.has(name)) this.fail(`the attribute "${name}" is set twice in one block.`, token.line);
        attributes.set(name, this.keep(name, this.blockTypes) ? tokens : []);
        continue;
      }
      const labels: string[] = [];
      for (;;) {
        const label = this.next();
        if (label.kind === "ident" || (label.kind === "string" && label.text !== undefined)) labels.push(label.text!);
        else if (label.kind === "punct" && label.text === "{") break;
        else
          this.fail(
            `"${name}" is followed by ${this.describe(label)}: an attribute needs "=", a block its labels (names or plain strings) and "{".`,
            label.line,
          );
      }
      this.enter(token.line);
      this.blockTypes.push(name);
      const inner = this.body(token.line);
      this.blockTypes.pop();
      this.depth--;
      const closing = this.peek();
      if (closing.kind !== "newline" && closing.kind !== "eof" && !(closing.kind === "punct" && closing.text === "}"))
        this.fail(`a block's closing brace must end its line; found ${this.describe(closing)}.`, closing.line);
      blocks.push({ type: name, labels, line: token.line, ...inner });
    }
  }

  /**
   * An attribute's expression up to the newline (or a one-line block's closing brace) outside
   * brackets; its tokens, newlines inside brackets left out. Brackets must pair.
   */
  private expression(line: number, inBlock: boolean): HclToken[] {
    const tokens: HclToken[] = [];
    const close: string[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === "eof") {
        if (close.length > 0) this.fail(`a "${close.at(-1)}" is missing for a bracket opened on this attribute.`, line);
        break;
      }
      if (token.kind === "newline") {
        if (close.length === 0) break;
        this.next();
        continue;
      }
      if (token.kind === "punct") {
        const text = token.text!;
        if (text === "{" || text === "[" || text === "(") {
          this.enter(token.line);
          close.push(text === "{" ? "}" : text === "[" ? "]" : ")");
        } else if (text === "}" || text === "]" || text === ")") {
          if (close.length === 0) {
            if (text === "}" && inBlock) break;
            this.fail(`"${text}" closes nothing opened here.`, token.line);
          }
          if (close.pop() !== text) this.fail(`"${text}" does not close the bracket opened before it.`, token.line);
          this.depth--;
        }
      }
      tokens.push(this.next());
    }
    if (tokens.length === 0) this.fail("the attribute has no value: an expression must follow =.", line);
    return tokens;
  }
}
