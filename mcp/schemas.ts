/**
 * The JSON Schemas tools/list sends: each tool's input in full (clients check arguments with it),
 * and its output shallowly (the answer's top-level fields, their types and meaning) so that the
 * listing stays small in an assistant's context; an answer is that object, or the API's Error shape
 * when the call is refused (isError), which clients validate too.
 */
import { z } from "zod";

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  $ref?: string;
  required?: string[];
  anyOf?: JsonSchema[];
  type?: string | string[];
};

const OPTIONS = { target: "draft-7", unrepresentable: "any" } as const;

/**
 * The tool's input as JSON Schema (draft 7, which the SDK's validator reads), flat: every `$ref`
 * replaced by its definition, since clients that do not follow references (the Inspector's CLI,
 * some assistants) could neither type nor send such an argument. Tool inputs hold no cycles.
 */
export function inputSchema(shape: z.ZodRawShape): Record<string, unknown> {
  const {
    $schema: _schema,
    definitions = {},
    ...schema
  } = z.toJSONSchema(z.object(shape), { ...OPTIONS, io: "input" }) as JsonSchema;
  return inlined(schema, definitions) as Record<string, unknown>;
}

/** `value` with each `{ $ref: "#/definitions/X", …}` replaced by definition X (its own keys kept beside). */
function inlined(value: unknown, definitions: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(item, definitions));
  if (!value || typeof value !== "object") return value;
  const { $ref, ...rest } = value as JsonSchema;
  const target = typeof $ref === "string" ? definitions[$ref.replace("#/definitions/", "")] : undefined;
  const merged = target ? { ...(inlined(target, definitions) as object), ...rest } : rest;
  return Object.fromEntries(Object.entries(merged).map(([key, item]) => [key, inlined(item, definitions)]));
}

function resolved(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const name = schema.$ref?.replace("#/definitions/", "");
  return name && definitions[name] ? resolved(definitions[name], definitions) : schema;
}

/** A property's type(s), also through anyOf (a nullable field), without its inner structure. */
function shallow(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const own = resolved(schema, definitions);
  const types = new Set<string>();
  for (const part of own.anyOf ? own.anyOf.map((each) => resolved(each, definitions)) : [own])
    for (const type of [part.type ?? []].flat()) types.add(type);
  return {
    ...(types.size > 0 ? { type: types.size === 1 ? [...types][0] : [...types] } : {}),
    ...(typeof own.description === "string" ? { description: own.description } : {}),
  };
}

/** The tool's answer, top level only, or the Error shape. */
export function outputSchema(output: z.ZodObject): Record<string, unknown> {
  const full = z.toJSONSchema(output, { ...OPTIONS, io: "output" }) as JsonSchema;
  const definitions = full.definitions ?? {};
  const root = resolved(full, definitions);
  const properties = Object.fromEntries(
    Object.entries(root.properties ?? {}).map(([name, schema]) => [name, shallow(schema, definitions)]),
  );
  return {
    type: "object",
    properties: {
      ...properties,
      continuation: {
        type: "object",
        description:
          "Only in a part of an answer longer than maxLength: startIndex, nextIndex (null on the last part) and totalLength of its JSON, whose slice is the text",
      },
    },
    anyOf: [
      { required: root.required ?? [] },
      { required: ["continuation"], description: "A part of a long answer (maxLength, startIndex)" },
      {
        required: ["error", "status"],
        properties: { error: { type: "string" }, status: { type: "integer" }, details: { type: "string" } },
        description: "A refusal (isError: true): the API's Error shape",
      },
    ],
  };
}
