/**
 * The served OpenAPI document as checks and generators for the contract tests: ajv validators of
 * each operation's request body, parameters and responses (parameters coerced from strings, as a
 * query string carries them), and fast-check arbitraries of the values a schema accepts. Nothing
 * here knows the server's zod schemas: what is valid is what the document says.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { URLS } from "../helpers/app.ts";

export type Json = Record<string, unknown>;
export interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header";
  readonly required: boolean;
  readonly schema: Json;
  readonly example?: unknown;
}
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body?: Json;
  readonly bodyExample?: unknown;
}

export const DOC = JSON.parse(JSON.stringify(openApiDocument(URLS, ENDPOINTS))) as {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: Json; example?: unknown }> };
        responses: Record<string, Json>;
      }
    >
  >;
  components: { schemas: Record<string, Json> };
};

/** Every operation of the document. */
export const OPERATIONS: readonly Operation[] = Object.entries(DOC.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => {
    const media = operation.requestBody?.content["application/json"];
    return {
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      ...(media ? { body: media.schema, bodyExample: media.example } : {}),
    };
  }),
);

function validator(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "openapi.json", components: DOC.components });
  return ajv;
}
const bodies = validator(false);
const parameters = validator(true);

/** `$ref`s made absolute, so a schema taken out of the document compiles on its own. */
function absolute(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolute);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" ? `openapi.json${value}` : absolute(value),
    ]),
  );
}

const compiled = new Map<object, ValidateFunction>();
function compile(ajv: Ajv2020, schema: Json): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(absolute(schema) as Json)));
  return validate;
}

/** Why the document rejects a request's parameters and body, or [] when it accepts them. */
export function documentRejects(
  operation: Operation,
  request: { query: Record<string, string>; headers: Record<string, string>; body?: unknown; rawBody?: string },
): string[] {
  const problems: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === "path") continue;
    const value = parameter.in === "query" ? request.query[parameter.name] : request.headers[parameter.name];
    if (value === undefined) {
      if (parameter.required) problems.push(`${parameter.in} ${parameter.name} is required`);
      continue;
    }
    // Coerced in a wrapper object, as a query string's "5" stands for the integer 5.
    const holder = { value };
    const validate = compile(parameters, { type: "object", properties: { value: parameter.schema } });
    if (!validate(holder))
      problems.push(`${parameter.in} ${parameter.name}: ${parameters.errorsText(validate.errors)}`);
  }
  if (operation.body) {
    if (request.rawBody !== undefined) problems.push("the body is not JSON");
    else {
      const validate = compile(bodies, operation.body);
      if (!validate(request.body)) problems.push(`body: ${bodies.errorsText(validate.errors)}`);
    }
  }
  return problems;
}

/** Values for names the document leaves as plain strings but the server looks up (ids, slugs). */
export interface Hints {
  readonly [name: string]: fc.Arbitrary<unknown> | undefined;
}

function resolve(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  return resolve(DOC.components.schemas[ref.replace("#/components/schemas/", "")]!);
}

const anyString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);

/** A string of `schema` (length bounds, pattern, format, enum), or a plain string when the pattern is beyond fast-check. */
function stringOf(schema: Json): fc.Arbitrary<string> {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Math.max(min, 40);
  if (schema.format === "email") return fc.emailAddress();
  if (schema.format === "uri")
    return fc.webUrl({ validSchemes: ["https", "http"], withQueryParameters: true, withFragments: true });
  if (typeof schema.pattern === "string") {
    try {
      const fits = (value: string) => [...value].length >= min && [...value].length <= max;
      return fc.stringMatching(new RegExp(schema.pattern, "u"), { size: "small" }).filter(fits);
    } catch {
      // Beyond stringMatching (a lookahead): the bounds alone.
    }
  }
  const lengths = fc.oneof(
    fc.string({ minLength: min, maxLength: Math.min(max, min + 40) }),
    fc.string({ unit: "grapheme-composite", minLength: min, maxLength: Math.min(max, min + 20) }),
    // The bounds themselves, where the two sides could count differently.
    fc.constantFrom(min, max).chain((length) => fc.string({ minLength: length, maxLength: length })),
    fc.constantFrom(min, max).chain((length) => fc.constant("😀".repeat(length))),
  );
  return lengths.filter((value) => typeof schema.pattern !== "string" || new RegExp(schema.pattern, "u").test(value));
}

/** Values the schema accepts (mostly: a pattern fast-check cannot follow is filtered, not generated). */
export function valid(schema: Json, hints: Hints = {}, name = ""): fc.Arbitrary<unknown> {
  const hint = hints[name];
  if (hint) return hint;
  const s = resolve(schema);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ("const" in s) return fc.constant(s.const);
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[key])) return fc.oneof(...(s[key] as Json[]).map((option) => valid(option, hints, name)));
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case "null":
          return fc.constant(null);
        case "boolean":
          return fc.boolean();
        case "integer":
          return fc.integer({
            min: typeof s.minimum === "number" ? s.minimum : -1000,
            max: typeof s.maximum === "number" ? Math.min(s.maximum, 1_000_000) : 1000,
          });
        case "number":
          return fc.double({ noNaN: true, noDefaultInfinity: true });
        case "array": {
          const items = valid((s.items as Json | undefined) ?? {}, hints, `${name}[]`);
          return fc.array(items, {
            minLength: typeof s.minItems === "number" ? s.minItems : 0,
            maxLength: typeof s.maxItems === "number" ? Math.min(s.maxItems, 12) : 5,
          });
        }
        case "object": {
          const properties = (s.properties ?? {}) as Record<string, Json>;
          const required = new Set((s.required ?? []) as string[]);
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [key, property] of Object.entries(properties)) record[key] = valid(property, hints, key);
          return fc.record(record, { requiredKeys: [...required].filter((key) => key in properties) });
        }
        case "string":
          return stringOf(s);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

/** Any JSON, nasty strings included: what a client might send whatever the document says. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    anyString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A body near the schema: valid, one property replaced, one removed, one added, or anything. */
export function nearBody(schema: Json, hints: Hints): fc.Arbitrary<unknown> {
  // A body of one of several forms (/mcp: a message, or a batch of them): near its first form.
  const whole = resolve(schema);
  const s = !whole.properties && Array.isArray(whole.anyOf) ? resolve(whole.anyOf[0] as Json) : whole;
  const keys = Object.keys(s.properties ?? {});
  const { oneOf: _alternatives, allOf: _groups, ...fields } = s;
  const all = valid(fields, hints) as fc.Arbitrary<Record<string, unknown>>;
  // A body that takes one of several fields (oneOf of `required`, or several such oneOf in allOf:
  // the deployment check's template or files, and approvedServiceIds or listId): a valid one keeps
  // one of each.
  const groups = [whole.oneOf, ...((whole.allOf ?? []) as Json[]).map((group) => group.oneOf)]
    .filter((group): group is Json[] => Array.isArray(group))
    .map((group) => group.map((alternative) => (alternative.required ?? []) as string[]));
  // A field that needs another (if/then in allOf: the deployment check's root needs files) is left
  // out of a valid body that lacks the other.
  const conditions = ((whole.allOf ?? []) as Json[]).flatMap((group) =>
    group.if && group.then
      ? [
          {
            when: ((group.if as Json).required ?? []) as string[],
            needs: ((group.then as Json).required ?? []) as string[],
          },
        ]
      : [],
  );
  const kept =
    groups.length === 0
      ? all
      : fc.tuple(all, fc.tuple(...groups.map((group) => fc.nat(group.length - 1)))).map(([body, kept]) => {
          const copy = { ...body };
          groups.forEach((alternatives, group) =>
            alternatives.forEach((keys, i) => {
              if (i !== kept[group]) for (const key of keys) delete copy[key];
            }),
          );
          return copy;
        });
  const base = kept.map((body) => {
    const copy = { ...body };
    for (const { when, needs } of conditions)
      if (when.every((key) => key in copy) && !needs.every((key) => key in copy))
        for (const key of when) delete copy[key];
    return copy;
  });
  return fc.oneof(
    // A valid body the most often: with the bodies closed, an added key is a rejected case too.
    { arbitrary: base, weight: 5 },
    {
      arbitrary: fc
        .tuple(base, fc.constantFrom(...keys), anyJson)
        .map(([body, key, value]) => ({ ...body, [key]: value })),
      weight: 3,
    },
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...keys)).map(([body, key]) => {
        const copy = { ...body };
        delete copy[key];
        return copy;
      }),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(base, anyString, anyJson).map(([body, key, value]) => ({ ...body, [`x-${key}`]: value })),
      weight: 1,
    },
    { arbitrary: anyJson, weight: 1 },
  );
}

/** A parameter's value as a string: valid for its schema, or any string. */
export function nearParameter(parameter: Parameter, hints: Hints): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: valid(parameter.schema, hints, parameter.name).map(String), weight: 3 },
    { arbitrary: anyString, weight: 1 },
  );
}
