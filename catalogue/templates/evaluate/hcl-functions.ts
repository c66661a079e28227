/**
 * Terraform's built-in functions that a deployment's names, places, versions and counts are written
 * with (https://developer.hashicorp.com/terraform/language/functions): strings, collections, type
 * conversions, numbers and JSON. A function reading files, the clock, randomness or the network
 * (file, templatefile, timestamp, uuid) or computing addresses (cidrsubnet) answers Unknown naming
 * it; an unknown argument makes the answer Unknown. A call Terraform would refuse is an
 * EvaluationError, which the evaluator turns into an Unknown with the reason.
 */
import { RE2JS, RE2JSException, type Matcher } from "re2js";
import { TEMPLATE_BUDGETS, TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { budget } from "./budget.ts";
import {
  asText,
  isUnknown,
  isValueObject,
  own,
  Unknown,
  unknownInside,
  unknownOf,
  valueObject,
  valuesEqual,
  jsonText,
  type Value,
  type ValueObject,
} from "./values.ts";

/** A call Terraform would refuse, or an access that fails: the evaluator makes it an Unknown with this message. */
export class EvaluationError extends Error {}

const fail = (message: string): never => {
  throw new EvaluationError(message);
};

/** An argument that is not text (asText's Unknown for a list) ends the call, which answers that Unknown. */
class UnknownArgument extends Error {
  readonly unknown: Unknown;
  constructor(unknown: Unknown) {
    super("an argument that is not text");
    this.unknown = unknown;
  }
}
const text = (value: Value, name: string): string => {
  const found = asText(value);
  if (isUnknown(found)) throw new UnknownArgument(unknownOf([found], `${name}() of a list or object`));
  return found;
};
const list = (value: Value, name: string): Value[] =>
  Array.isArray(value) ? (value as Value[]) : fail(`${name}() takes a list`);
const object = (value: Value, name: string): ValueObject =>
  isValueObject(value) ? value : fail(`${name}() takes a map`);
const number = (value: Value, name: string): number => {
  const found = typeof value === "string" ? Number(value) : value;
  return typeof found === "number" && Number.isFinite(found) ? found : fail(`${name}() takes a number`);
};

/** Items without duplicates, in their order: scalars by a key at once, lists and objects compared (each comparison a step). */
function distinctItems(items: readonly Value[]): Value[] {
  const kept: Value[] = [];
  const scalars = new Set<string>();
  for (const item of items) {
    if (item === null || typeof item !== "object") {
      const key = `${typeof item}:${String(item)}`;
      if (!scalars.has(key)) {
        scalars.add(key);
        kept.push(item);
      }
    } else if (!kept.some((other) => valuesEqual(other, item) === true)) kept.push(item);
  }
  return kept;
}

/** A set as Terraform orders one: known items, duplicates dropped, strings sorted. */
function toSet(items: readonly Value[]): Value[] {
  const kept = distinctItems(items);
  return kept.every((item) => typeof item === "string") ? kept.sort() : kept;
}

/** A string about to be made by `what`, its length checked first. */
const sized = (length: number, what: string): void => budget().string(length, what);

/** The text `parts` join to, its length checked before it is made. */
function joined(parts: readonly string[], separator: string, what: string): string {
  let length = parts.length > 0 ? separator.length * (parts.length - 1) : 0;
  for (const part of parts) length += part.length;
  sized(length, what);
  return parts.join(separator);
}

/** How many times `search` is found in `text` (as split counts them: "" between every character). */
function occurrences(text: string, search: string): number {
  if (search === "") return Math.max(0, text.length - 1);
  let found = 0;
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) found++;
  return found;
}

/** One of Go's fmt verbs as Terraform's format() writes it, padded to its width. */
function verbText(verb: string, flags: string, width: number, value: Value): string {
  let out: string;
  if (verb === "q") out = JSON.stringify(text(value, "format"));
  else if (verb === "d") out = String(Math.trunc(number(value, "format")));
  else if (verb === "v" && typeof value === "object" && value !== null) out = jsonText(value, "format()'s %v");
  else out = text(value, "format");
  if (out.length >= width) return out;
  sized(width, `format()'s width of ${width}`);
  if (flags.includes("-")) return out.padEnd(width, " ");
  if (flags.includes("0") && verb === "d")
    return out.startsWith("-") ? `-${out.slice(1).padStart(width - 1, "0")}` : out.padStart(width, "0");
  return out.padStart(width, " ");
}

const VERBS = /%(?:\[(\d+)\])?([-+# 0]*)(\d*)(?:\.\d+)?([sdvqftx%])/g;

/** Go's fmt verbs as Terraform's format() takes them: %s %d %v %q %%, with widths; its length checked before it is made. */
function format(pattern: string, args: readonly Value[]): string {
  let next = 0;
  const parts: string[] = [];
  let last = 0;
  let length = 0;
  for (const match of pattern.matchAll(VERBS)) {
    const [whole, position, flags, width, verb] = match as unknown as [
      string,
      string | undefined,
      string,
      string,
      string,
    ];
    parts.push(pattern.slice(last, match.index));
    last = match.index + whole.length;
    let piece: string;
    if (verb === "%") piece = "%";
    else {
      const value = args[position === undefined ? next++ : Number(position) - 1];
      if (value === undefined) fail("format() has fewer arguments than its verbs");
      piece = verbText(verb, flags, width === "" ? 0 : Number(width), value!);
    }
    length += piece.length + (parts.at(-1)?.length ?? 0);
    sized(length, "format()");
    parts.push(piece);
  }
  parts.push(pattern.slice(last));
  return joined(parts, "", "format()");
}

/** Checks a list about to be made by `what` has few enough items. */
const itemsOf = (n: number, what: string): void => budget().items(n, what);

type Implementation = (args: Value[]) => Value;

const NOT_EVALUATED: Readonly<Record<string, string>> = {
  file: "reads a file",
  filebase64: "reads a file",
  fileexists: "reads the file system",
  fileset: "reads the file system",
  templatefile: "reads a template file",
  timestamp: "reads the clock",
  plantimestamp: "reads the clock",
  uuid: "is random",
  bcrypt: "is random",
  cidrsubnet: "computes addresses",
  cidrsubnets: "computes addresses",
  cidrhost: "computes addresses",
  cidrnetmask: "computes addresses",
  md5: "computes a hash",
  sha1: "computes a hash",
  sha256: "computes a hash",
  sha512: "computes a hash",
  base64sha256: "computes a hash",
  filemd5: "reads a file",
  filesha256: "reads a file",
  uuidv5: "computes a hash",
  yamldecode: "decodes YAML",
  yamlencode: "encodes YAML",
  base64encode: "encodes base64",
  base64decode: "decodes base64",
  formatdate: "formats dates",
  timeadd: "computes dates",
  sensitive: "",
  ephemeralasnull: "",
};

const FUNCTIONS: Readonly<Record<string, Implementation>> = {
  lower: ([value]) => text(value!, "lower").toLowerCase(),
  upper: ([value]) => text(value!, "upper").toUpperCase(),
  title: ([value]) => text(value!, "title").replace(/\b\w/g, (c) => c.toUpperCase()),
  trimspace: ([value]) => text(value!, "trimspace").trim(),
  chomp: ([value]) => text(value!, "chomp").replace(/(\r?\n)+$/, ""),
  trim: ([value, chars]) => {
    const set = new Set(text(chars!, "trim"));
    let out = text(value!, "trim");
    while (out && set.has(out[0]!)) out = out.slice(1);
    while (out && set.has(out.at(-1)!)) out = out.slice(0, -1);
    return out;
  },
  trimprefix: ([value, prefix]) => {
    const [v, p] = [text(value!, "trimprefix"), text(prefix!, "trimprefix")];
    return v.startsWith(p) ? v.slice(p.length) : v;
  },
  trimsuffix: ([value, suffix]) => {
    const [v, s] = [text(value!, "trimsuffix"), text(suffix!, "trimsuffix")];
    return s !== "" && v.endsWith(s) ? v.slice(0, -s.length) : v;
  },
  startswith: ([value, prefix]) => text(value!, "startswith").startsWith(text(prefix!, "startswith")),
  endswith: ([value, suffix]) => text(value!, "endswith").endsWith(text(suffix!, "endswith")),
  strcontains: ([value, part]) => text(value!, "strcontains").includes(text(part!, "strcontains")),
  substr: ([value, offset, length]) => {
    const chars = [...text(value!, "substr")];
    let start = number(offset!, "substr");
    if (start < 0) start += chars.length;
    const count = number(length!, "substr");
    return chars.slice(start, count < 0 ? undefined : start + count).join("");
  },
  replace: ([value, search, replacement]) => {
    const [v, s, r] = [text(value!, "replace"), text(search!, "replace"), text(replacement!, "replace")];
    // "/…/" is a regular expression in RE2's syntax, run by RE2's linear-time engine.
    if (s.length > 1 && s.startsWith("/") && s.endsWith("/")) return replacePattern(v, pattern(s.slice(1, -1)), r);
    if (s === "") return v;
    sized(v.length + occurrences(v, s) * (r.length - s.length), "replace()");
    return v.split(s).join(r);
  },
  split: ([separator, value]) => {
    const [v, s] = [text(value!, "split"), text(separator!, "split")];
    itemsOf(occurrences(v, s) + 1, "split()");
    return v.split(s);
  },
  join: ([separator, ...lists]) => {
    const parts = lists.map((item) => list(item, "join"));
    itemsOf(
      parts.reduce((sum, part) => sum + part.length, 0),
      "join()'s lists",
    );
    return joined(
      parts.flatMap((part) => part.map((item) => text(item, "join"))),
      text(separator!, "join"),
      "join()",
    );
  },
  format: ([pattern, ...args]) => format(text(pattern!, "format"), args),
  formatlist: ([pattern, ...args]) => {
    const lengths = args.filter((arg) => Array.isArray(arg)).map((arg) => (arg as Value[]).length);
    const size = lengths.length > 0 ? Math.min(...lengths) : 1;
    itemsOf(size, "formatlist()");
    return Array.from({ length: size }, (_, i) =>
      format(
        text(pattern!, "formatlist"),
        args.map((arg) => (Array.isArray(arg) ? (arg as Value[])[i]! : arg)),
      ),
    );
  },
  tostring: ([value]) => (value === null ? null : text(value!, "tostring")),
  tonumber: ([value]) => (value === null ? null : number(value!, "tonumber")),
  tobool: ([value]) =>
    value === null || typeof value === "boolean"
      ? value
      : value === "true" || value === "false"
        ? value === "true"
        : fail("tobool() takes true or false"),
  tolist: ([value]) => list(value!, "tolist"),
  toset: ([value]) => toSet(list(value!, "toset")),
  tomap: ([value]) => object(value!, "tomap"),
  length: ([value]) =>
    typeof value === "string"
      ? [...value].length
      : Array.isArray(value)
        ? value.length
        : Object.keys(object(value!, "length")).length,
  concat: (lists) => {
    const parts = lists.map((item) => list(item, "concat"));
    itemsOf(
      parts.reduce((sum, part) => sum + part.length, 0),
      "concat()",
    );
    return parts.flat();
  },
  merge: (objects) => {
    const parts = objects.filter((item) => item !== null).map((item) => Object.keys(object(item, "merge")));
    itemsOf(
      parts.reduce((sum, keys) => sum + keys.length, 0),
      "merge()",
    );
    return valueObject(objects.filter((item) => item !== null).flatMap((item) => Object.entries(item as ValueObject)));
  },
  lookup: ([map, key, fallback]) => {
    const found = own(object(map!, "lookup"), text(key!, "lookup"));
    return found !== undefined ? found : fallback !== undefined ? fallback : fail("lookup() found no such key");
  },
  element: ([values, index]) => {
    const items = list(values!, "element");
    if (items.length === 0) fail("element() of an empty list");
    const at = number(index!, "element");
    return items[((at % items.length) + items.length) % items.length]!;
  },
  index: ([values, value]) => {
    const at = list(values!, "index").findIndex((item) => valuesEqual(item, value!) === true);
    return at >= 0 ? at : fail("index() found no such item");
  },
  contains: ([values, value]) => list(values!, "contains").some((item) => valuesEqual(item, value!) === true),
  keys: ([map]) => Object.keys(object(map!, "keys")).sort(),
  values: ([map]) => {
    const found = object(map!, "values");
    return Object.keys(found)
      .sort()
      .map((key) => found[key]!);
  },
  flatten: ([values]) => {
    const out: Value[] = [];
    // Counted as it goes, before each item is added: a list holding one long list many times is refused at the bound.
    const walk = (items: readonly Value[], depth: number) => {
      for (const item of items)
        if (Array.isArray(item) && depth < TEMPLATE_MAX_DEPTH) walk(item as Value[], depth + 1);
        else {
          if (out.length >= TEMPLATE_BUDGETS.items) itemsOf(out.length + 1, "flatten()");
          out.push(item);
        }
    };
    walk(list(values!, "flatten"), 0);
    itemsOf(out.length, "flatten()");
    return out;
  },
  distinct: ([values]) => distinctItems(list(values!, "distinct")),
  compact: ([values]) => list(values!, "compact").filter((item) => item !== null && item !== ""),
  coalesce: (args) => args.find((item) => item !== null && item !== "") ?? fail("coalesce() found no value"),
  coalescelist: (args) =>
    args.find((item) => Array.isArray(item) && item.length > 0) ?? fail("coalescelist() found no list"),
  one: ([values]) => {
    const items = list(values!, "one");
    return items.length === 0 ? null : items.length === 1 ? items[0]! : fail("one() of more than one item");
  },
  zipmap: ([keys, values]) => {
    const names = list(keys!, "zipmap").map((key) => text(key, "zipmap"));
    const items = list(values!, "zipmap");
    return valueObject(names.map((name, i) => [name, items[i] ?? null]));
  },
  range: (args) => {
    const [start, end, step] =
      args.length === 1
        ? [0, number(args[0]!, "range"), 1]
        : [number(args[0]!, "range"), number(args[1]!, "range"), args[2] === undefined ? 1 : number(args[2], "range")];
    if (step === 0) fail("range() with a step of 0");
    const count = Math.max(0, Math.ceil((end - start) / step));
    itemsOf(count, `range(${[start, end, step].join(", ")})`);
    return Array.from({ length: count }, (_, i) => start + i * step);
  },
  setproduct: (sets) => {
    const lists = sets.map((item) => list(item, "setproduct"));
    // The product's size, known before any of it is made.
    itemsOf(
      lists.reduce((product, items) => product * items.length, lists.length > 0 ? 1 : 0),
      "setproduct()",
    );
    return lists.reduce<Value[][]>(
      (product, items) => product.flatMap((row) => items.map((item) => [...row, item])),
      [[]],
    );
  },
  slice: ([values, start, end]) => list(values!, "slice").slice(number(start!, "slice"), number(end!, "slice")),
  sort: ([values]) =>
    list(values!, "sort")
      .map((item) => text(item, "sort"))
      .sort(),
  reverse: ([values]) => [...list(values!, "reverse")].reverse(),
  setunion: (sets) => {
    const lists = sets.map((item) => list(item, "setunion"));
    itemsOf(
      lists.reduce((sum, items) => sum + items.length, 0),
      "setunion()",
    );
    return toSet(lists.flat());
  },
  setintersection: ([first, ...rest]) =>
    toSet(
      list(first!, "setintersection").filter((item) =>
        rest.every((set) => list(set, "setintersection").some((other) => valuesEqual(other, item) === true)),
      ),
    ),
  setsubtract: ([first, second]) =>
    toSet(
      list(first!, "setsubtract").filter(
        (item) => !list(second!, "setsubtract").some((other) => valuesEqual(other, item) === true),
      ),
    ),
  alltrue: ([values]) => list(values!, "alltrue").every((item) => item === true || item === "true"),
  anytrue: ([values]) => list(values!, "anytrue").some((item) => item === true || item === "true"),
  sum: ([values]) => list(values!, "sum").reduce<number>((total, item) => total + number(item, "sum"), 0),
  min: (args) => Math.min(...args.map((item) => number(item, "min"))),
  max: (args) => Math.max(...args.map((item) => number(item, "max"))),
  abs: ([value]) => Math.abs(number(value!, "abs")),
  ceil: ([value]) => Math.ceil(number(value!, "ceil")),
  floor: ([value]) => Math.floor(number(value!, "floor")),
  signum: ([value]) => Math.sign(number(value!, "signum")),
  regex: ([expression, value]) => {
    const found = matchesOf(pattern(text(expression!, "regex")), text(value!, "regex"), "regex()", 1);
    return found.length > 0 ? found[0]! : fail("regex() found no match");
  },
  regexall: ([expression, value]) =>
    matchesOf(pattern(text(expression!, "regexall")), text(value!, "regexall"), "regexall()", Infinity),
  jsonencode: ([value]) => jsonText(value!, "jsonencode()"),
  jsondecode: ([value]) => {
    try {
      return fromJson(JSON.parse(text(value!, "jsondecode")));
    } catch (error) {
      return error instanceof EvaluationError ? fail(error.message) : fail("jsondecode() of text that is not JSON");
    }
  },
};

/**
 * A pattern in RE2's syntax (Terraform's: https://developer.hashicorp.com/terraform/language/functions/regex),
 * compiled by re2js, RE2's engine in JavaScript: it matches in time linear in the text, so no pattern
 * backtracks (^(a+)+$ over 54 a's and a "!" answers at once), and what RE2 refuses (backreferences,
 * lookaround) Terraform refuses too. One it cannot read fails the call (Unknown, with why).
 */
function pattern(text: string): RE2JS {
  budget().string(text.length, "a regular expression");
  try {
    return RE2JS.compile(text);
  } catch (error) {
    if (error instanceof RE2JSException)
      return fail(`a regular expression RE2 refuses (${error.message.slice(0, 100)}), as Terraform does`);
    throw error;
  }
}

/** What regex() answers for one match: the whole match, its groups as a list, or its named groups as an object. */
function matchValue(matcher: Matcher, names: readonly string[]): Value {
  if (names.length > 0) return valueObject(names.map((name) => [name, matcher.group(name)]));
  const groups = matcher.groupCount();
  if (groups > 0) return Array.from({ length: groups }, (_, at) => matcher.group(at + 1));
  return matcher.group(0) ?? "";
}

/** Up to `most` matches of a pattern in a text, its work (the pattern's size times the text's length) charged first. */
function matchesOf(re: RE2JS, input: string, what: string, most: number): Value[] {
  budget().regex(re.programSize(), input.length, what);
  const names = Object.keys(re.namedGroups());
  const matcher = re.matcher(input);
  const found: Value[] = [];
  while (found.length < most && matcher.find()) {
    itemsOf(found.length + 1, what);
    found.push(matchValue(matcher, names));
  }
  return found;
}

/** replace() with a pattern: the text between matches and each replacement ($1, ${name}) added, its length checked as it grows. */
function replacePattern(input: string, re: RE2JS, replacement: string): string {
  budget().regex(re.programSize(), input.length, "replace()");
  const matcher = re.matcher(input);
  const parts: string[] = [];
  let length = 0;
  let last = 0;
  const add = (part: string) => {
    length += part.length;
    sized(length, "replace()");
    parts.push(part);
  };
  while (matcher.find()) {
    add(input.slice(last, matcher.start()));
    // Terraform's replacement refers to groups as $1, ${1} or ${name}.
    add(
      replacement.replace(/\$(?:\{(\w+)\}|(\d+))/g, (_whole, braced: string | undefined, bare: string | undefined) => {
        const group = braced ?? bare!;
        try {
          return matcher.group(/^\d+$/.test(group) ? Number(group) : group) ?? "";
        } catch {
          return "";
        }
      }),
    );
    last = matcher.end();
  }
  add(input.slice(last));
  return parts.join("");
}

/** A parsed JSON value as a Value (objects without a prototype); each value a step. */
export function fromJson(value: unknown, depth = 0): Value {
  if (depth > TEMPLATE_MAX_DEPTH) return fail("JSON nested too deeply");
  budget().step();
  if (Array.isArray(value)) return value.map((item) => fromJson(item, depth + 1));
  if (typeof value === "object" && value !== null)
    return valueObject(Object.entries(value).map(([key, item]) => [key, fromJson(item, depth + 1)]));
  return value as Value;
}

/** Calls a built-in function; Unknown in any argument (but those it never reads) makes the answer Unknown. */
export function callFunction(name: string, args: Value[]): Value {
  const bare = name.startsWith("core::") ? name.slice("core::".length) : name;
  if (Object.hasOwn(NOT_EVALUATED, bare)) {
    const why = NOT_EVALUATED[bare]!;
    // sensitive() and ephemeralasnull() hand their value through.
    if (why === "") return args[0] ?? null;
    return new Unknown(unknownInsideAll(args), `${bare}() ${why}, which this check does not do`);
  }
  const implementation = Object.hasOwn(FUNCTIONS, bare) ? FUNCTIONS[bare] : undefined;
  if (!implementation) return new Unknown([], `the function ${name.slice(0, 60)}() is not evaluated by this check`);
  const top = args.filter(isUnknown);
  if (top.length > 0) return unknownOf(top);
  // Most functions read every item of their arguments; an Unknown inside makes the answer Unknown.
  const unknown = args.map((arg) => unknownInside(arg)).filter((found): found is Unknown => found !== undefined);
  if (unknown.length > 0 && !["length", "keys", "contains", "lookup", "element", "one"].includes(bare))
    return unknownOf(unknown);
  try {
    return implementation(args);
  } catch (error) {
    if (error instanceof UnknownArgument) return error.unknown;
    throw error;
  }
}

function unknownInsideAll(args: readonly Value[]): string[] {
  return [...new Set(args.flatMap((arg) => unknownInside(arg)?.inputs ?? []))];
}
