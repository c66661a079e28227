/**
 * The zod schemas each tool is registered with (McpServer.registerTool), built once at module load
 * since a stateless request makes a server: the input in full, strict, with the parts arguments
 * every tool takes; the output shallow (the answer's top-level fields, their types and meaning) so
 * that tools/list stays small in an assistant's context. The SDK lists both as JSON Schema.
 */
import { z } from "zod";
import { nearest, shown } from "./ids.ts";

/** An answer longer than this (structured content and text together, in characters: about 10,000 tokens) comes in parts. */
export const ANSWER_MAX_LENGTH = 40_000;

/**
 * Arguments every tool takes, as AWS's documentation server takes max_length and start_index: a
 * hard cap on the answer's size, whatever its own size arguments, and where to continue.
 */
export const PARTS = {
  maxLength: z
    .number()
    .int()
    .min(2_000)
    .max(1_000_000)
    .optional()
    .meta({
      description: `Longest answer in characters (default ${ANSWER_MAX_LENGTH}, about 10,000 tokens); a longer one comes in parts of its JSON, each naming the startIndex of the next`,
    }),
  startIndex: z.number().int().min(0).optional().meta({
    description:
      "For an answer that came in parts: the character of its JSON to go on from (the previous part's nextIndex)",
  }),
};

/** Arguments assistants send for one a tool takes under another name, in order of preference. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  id: ["slug", "ids"],
  service: ["slug", "ids"],
  serviceId: ["slug", "ids"],
  slugs: ["ids", "slug"],
  services: ["ids", "slug"],
  serviceIds: ["ids", "slug"],
  query: ["q"],
};

/** An argument a tool does not take: named, with the nearest one it does take, and the list. */
function unknownArguments(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) => {
      if (issue.code !== "unrecognized_keys" || !issue.keys) return undefined;
      const hints = issue.keys.slice(0, 5).map((key) => {
        // What an assistant means by a word the spelling cannot tell: `id` is the slug, not "equivalentsProviders".
        const [near] = (ALIASES[key] ?? []).filter((alias) => known.includes(alias)).concat(nearest(key, known, 1));
        return `"${shown(key)}"${near ? ` (did you mean "${near}"?)` : ""}`;
      });
      return `Unknown argument${issue.keys.length === 1 ? "" : "s"} ${hints.join(", ")}; this tool takes: ${known.join(", ")}`;
    },
  };
}

/**
 * A tool's arguments: its own and the parts', no other key (refused naming the nearest). Listed
 * flat by the SDK, with no `$ref` a client must follow, as long as no schema in it carries an
 * OpenAPI component id (`.meta({ id })`): tools.ts passes such a schema as `.meta({})`, a copy
 * without it (tests/mcp/fit.test.ts checks the listing).
 */
export function toolInput(shape: z.ZodRawShape) {
  const arguments_ = { ...shape, ...PARTS };
  return z.strictObject(arguments_, unknownArguments(Object.keys(arguments_)));
}

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  $ref?: string;
  required?: string[];
  anyOf?: JsonSchema[];
  type?: string | string[];
};

function resolved(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const name = schema.$ref?.replace("#/definitions/", "");
  return name && definitions[name] ? resolved(definitions[name], definitions) : schema;
}

const SHALLOW: Record<string, () => z.ZodType> = {
  string: () => z.string(),
  integer: () => z.number().int(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  null: () => z.null(),
  array: () => z.array(z.unknown()),
  object: () => z.looseObject({}),
};

/** A property's type(s), also through anyOf (a nullable field), without its inner structure. */
function shallow(schema: JsonSchema, definitions: Record<string, JsonSchema>): z.ZodType {
  const own = resolved(schema, definitions);
  const types = new Set<string>();
  for (const part of own.anyOf ? own.anyOf.map((each) => resolved(each, definitions)) : [own])
    for (const type of [part.type ?? []].flat()) types.add(type);
  const made = [...types].flatMap((type) => SHALLOW[type]?.() ?? []);
  const typed = made.length === 0 ? z.unknown() : made.length === 1 ? made[0]! : z.union(made);
  return typeof own.description === "string" ? typed.meta({ description: own.description }) : typed;
}

/**
 * A tool's answer, top level only, every field optional: the answer, a part of a long one
 * (continuation), or the API's Error shape when the call is refused (isError), which clients
 * validate too. Which fields go together is said in JSON Schema's own words (anyOf, in meta,
 * which zod writes into the schema it lists).
 */
export function toolOutput(output: z.ZodObject) {
  const full = z.toJSONSchema(output, { target: "draft-7", unrepresentable: "any", io: "output" }) as JsonSchema;
  const definitions = full.definitions ?? {};
  const root = resolved(full, definitions);
  const fields = Object.entries(root.properties ?? {}).map(([name, schema]) => [
    name,
    shallow(schema, definitions).optional(),
  ]);
  return z
    .looseObject({
      ...(Object.fromEntries(fields) as Record<string, z.ZodOptional>),
      continuation: z.looseObject({}).optional().meta({
        description:
          "Only in a part of an answer longer than maxLength: startIndex, nextIndex (null on the last part) and totalLength of its JSON, whose slice is the text",
      }),
    })
    .meta({
      anyOf: [
        { required: root.required ?? [] },
        { required: ["continuation"], description: "A part of a long answer (maxLength, startIndex)" },
        {
          required: ["error", "status"],
          properties: { error: { type: "string" }, status: { type: "integer" }, details: { type: "string" } },
          description: "A refusal (isError: true): the API's Error shape",
        },
      ],
    });
}
