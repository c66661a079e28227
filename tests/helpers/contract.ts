/**
 * Validates API responses against the served OpenAPI document: the schema of the operation's
 * declared status and content type, and the Error schema for every declared error. A response
 * with an undeclared status, or JSON that does not match, is a contract violation.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { URLS } from "./urls.ts";

type Operation = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

let compiled: { ajv: Ajv2020; doc: Doc; matchers: { method: string; pattern: RegExp; path: string }[] } | undefined;

function setup() {
  if (compiled) return compiled;
  // The document the API serves at /openapi.json is this function's output (tests/build checks it byte for byte).
  const doc = JSON.parse(JSON.stringify(openApiDocument(URLS, ENDPOINTS))) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "openapi.json", components: doc.components });
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          k === "$ref" && typeof v === "string" ? `openapi.json${v}` : rewrite(v),
        ]),
      );
    }
    return value;
  };
  for (const methods of Object.values(doc.paths)) {
    for (const operation of Object.values(methods)) {
      for (const response of Object.values(operation.responses)) {
        for (const media of Object.values(response.content ?? {}))
          if (media.schema) media.schema = rewrite(media.schema) as object;
      }
    }
  }
  const matchers = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    })),
  );
  compiled = { ajv, doc, matchers };
  return compiled;
}

/** Problems with one response, or [] when it matches the contract. */
export function contractProblems(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: string,
): string[] {
  const { ajv, doc, matchers } = setup();
  const pathname = url.split("?")[0]!;
  const verb = method === "HEAD" ? "GET" : method;
  const match = matchers.find((m) => m.method === verb && m.pattern.test(pathname));
  if (!match) {
    // Unknown paths and methods answer 404 in the Error shape.
    if (status >= 400) return errorProblems(ajv, status, contentType, body, `${method} ${url}`);
    return [];
  }
  if (status === 304 || method === "HEAD" || (method === "OPTIONS" && status === 204)) return [];
  const operation = doc.paths[match.path]![verb.toLowerCase()]!;
  const declared = operation.responses[String(status)];
  if (status >= 400) {
    // 404/405/413/415/429/503 can come from the framework or the limiter on any operation; the shape is what must hold.
    return errorProblems(ajv, status, contentType, body, `${method} ${url}`);
  }
  if (!declared) return [`${method} ${url}: status ${status} is not declared`];
  // A response declared without content (the 202 of a notification) has neither body nor type.
  if (!declared.content)
    return contentType === undefined && body === "" ? [] : [`${method} ${url} ${status}: declared with no content`];
  // A file download declares */*: any media type, and no schema.
  const media = declared.content?.[String(contentType).split(";")[0]!.trim()] ?? declared.content?.["*/*"];
  if (!media) return [`${method} ${url}: content type ${contentType} is not declared for ${status}`];
  if (!String(contentType).startsWith("application/json") || !media.schema) return [];
  const validate = ajv.compile(media.schema);
  // The dump (18 MB) takes 350 ms to parse and check; a suite that asks for it again gets the same text.
  const passed = checkedLarge.get(media.schema) ?? new Set<string>();
  if (body.length >= LARGE_BODY_CHARS && passed.has(body)) return [];
  if (!validate(JSON.parse(body))) return [`${method} ${url} ${status}: ${ajv.errorsText(validate.errors)}`];
  if (body.length >= LARGE_BODY_CHARS) checkedLarge.set(media.schema, passed.add(body));
  return [];
}

/** Bodies of at least this many characters are remembered once they pass their schema: a few, each a whole download. */
const LARGE_BODY_CHARS = 1_000_000;
const checkedLarge = new WeakMap<object, Set<string>>();

function errorProblems(
  ajv: Ajv2020,
  status: number,
  contentType: string | undefined,
  body: string,
  what: string,
): string[] {
  if (!String(contentType).startsWith("application/json"))
    return [`${what} ${status}: error body is ${contentType}, not JSON`];
  const validate = ajv.getSchema("openapi.json#/components/schemas/Error")!;
  const parsed = JSON.parse(body) as { status?: number };
  if (!validate(parsed)) return [`${what} ${status}: ${ajv.errorsText(validate.errors)}`];
  return parsed.status === status ? [] : [`${what}: body status ${parsed.status} differs from ${status}`];
}
