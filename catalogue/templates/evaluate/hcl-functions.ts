/**
 * Terraform's built-in functions that a deployment's names, places, versions and counts are written
 * with (https://developer.hashicorp.com/terraform/language/functions): strings, collections, type
 * conversions, numbers and JSON. A function reading files, the clock, randomness or the network
 * (file, templatefile, timestamp, uuid) or computing addresses (cidrsubnet) answers Unknown naming
 * it; an unknown argument makes the answer Unknown. A call Terraform would refuse is an
 * EvaluationError, which the evaluator turns into an Unknown with the reason.
 */
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
  type Value,
  type ValueObject,
} from "./values.ts";

/** A call Terraform would refuse, or an access that fails: the evaluator makes it an Unknown with this message. */
export class EvaluationError extends Error {}

const MAX_RANGE = 10_000;

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

/** A set as Terraform orders one: known items, duplicates dropped, strings sorted. */
function toSet(items: readonly Value[]): Value[] {
  const kept: Value[] = [];
  for (const item of items) if (!kept.some((other) => valuesEqual(other, item) === true)) kept.push(item);
  return kept.every((item) => typeof item === "string") ? kept.sort() : kept;
}

/** Go's fmt verbs as Terraform's format() takes them: %s %d %v %q %%, with widths read and ignored. */
function format(pattern: string, args: readonly Value[]): string {
  let next = 0;
  return pattern.replace(/%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([sdvqftx%])/g, (_match, position, verb: string) => {
    if (verb === "%") return "%";
    const value = args[position === undefined ? next++ : Number(position) - 1];
    if (value === undefined) fail("format() has fewer arguments than its verbs");
    if (verb === "q") return JSON.stringify(text(value!, "format"));
    if (verb === "d") return String(Math.trunc(number(value!, "format")));
    if (verb === "v" && typeof value === "object" && value !== null) return JSON.stringify(value);
    return text(value!, "format");
  });
}

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
    // "/…/" is a regular expression (RE2's syntax; JavaScript's reads the common cases alike).
    if (s.length > 1 && s.startsWith("/") && s.endsWith("/")) {
      try {
        return v.replace(new RegExp(s.slice(1, -1), "g"), r.replace(/\$\{?(\d+)\}?/g, "$$$1"));
      } catch {
        return fail("replace() with a pattern this check cannot read");
      }
    }
    return s === "" ? v : v.split(s).join(r);
  },
  split: ([separator, value]) => text(value!, "split").split(text(separator!, "split")),
  join: ([separator, ...lists]) =>
    lists.flatMap((item) => list(item, "join").map((part) => text(part, "join"))).join(text(separator!, "join")),
  format: ([pattern, ...args]) => format(text(pattern!, "format"), args),
  formatlist: ([pattern, ...args]) => {
    const lengths = args.filter((arg) => Array.isArray(arg)).map((arg) => (arg as Value[]).length);
    const size = lengths.length > 0 ? Math.min(...lengths) : 1;
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
  concat: (lists) => lists.flatMap((item) => list(item, "concat")),
  merge: (objects) =>
    valueObject(objects.filter((item) => item !== null).flatMap((item) => Object.entries(object(item, "merge")))),
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
    const walk = (items: readonly Value[], depth: number) => {
      for (const item of items)
        if (Array.isArray(item) && depth < 32) walk(item as Value[], depth + 1);
        else out.push(item);
    };
    walk(list(values!, "flatten"), 0);
    return out;
  },
  distinct: ([values]) => {
    const kept: Value[] = [];
    for (const item of list(values!, "distinct")) if (!kept.some((k) => valuesEqual(k, item) === true)) kept.push(item);
    return kept;
  },
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
    const count = Math.ceil((end - start) / step);
    if (count > MAX_RANGE) fail("range() of too many numbers");
    return Array.from({ length: Math.max(0, count) }, (_, i) => start + i * step);
  },
  slice: ([values, start, end]) => list(values!, "slice").slice(number(start!, "slice"), number(end!, "slice")),
  sort: ([values]) =>
    list(values!, "sort")
      .map((item) => text(item, "sort"))
      .sort(),
  reverse: ([values]) => [...list(values!, "reverse")].reverse(),
  setunion: (sets) => toSet(sets.flatMap((item) => list(item, "setunion"))),
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
    const match = pattern(text(expression!, "regex")).exec(text(value!, "regex"));
    return match ? matchValue(match) : fail("regex() found no match");
  },
  regexall: ([expression, value]) =>
    [...text(value!, "regexall").matchAll(pattern(text(expression!, "regexall"), "g"))]
      .slice(0, MAX_RANGE)
      .map(matchValue),
  jsonencode: ([value]) => JSON.stringify(value),
  jsondecode: ([value]) => {
    try {
      return fromJson(JSON.parse(text(value!, "jsondecode")));
    } catch (error) {
      return error instanceof EvaluationError ? fail(error.message) : fail("jsondecode() of text that is not JSON");
    }
  },
};

/** A pattern in RE2's syntax as JavaScript reads it ((?P<name>…) is (?<name>…)); one it cannot read fails the call. */
function pattern(text: string, flags = ""): RegExp {
  try {
    return new RegExp(text.replace(/\(\?P</g, "(?<"), flags);
  } catch {
    return fail("a regular expression this check cannot read");
  }
}

/** What regex() answers for one match: the whole match, its groups as a list, or its named groups as an object. */
function matchValue(match: RegExpExecArray): Value {
  if (match.groups) return valueObject(Object.entries(match.groups).map(([key, group]) => [key, group ?? null]));
  if (match.length > 1) return match.slice(1).map((group) => group ?? null);
  return match[0];
}

/** A parsed JSON value as a Value (objects without a prototype). */
export function fromJson(value: unknown, depth = 0): Value {
  if (depth > 64) return fail("JSON nested too deeply");
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
