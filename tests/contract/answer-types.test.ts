// Every row's JSON answer is checked against its declared response schema when the project
// type-checks (npm run check:types): `endpoint` types the handler's result from response.schema.
// The @ts-expect-error lines below fail the type check if that ever stops, as a row whose answer
// drifts from its schema would then compile silently.
import { describe, expect, it } from "vitest";
import { endpoint, type Endpoint } from "../../catalogue/contract/endpoint.ts";
import { json } from "../../catalogue/contract/shared.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { Health } from "../../catalogue/schema/index.ts";

const row = (handler: Endpoint["handler"]) => ({
  operationId: "typeCheckProbe",
  method: "GET" as const,
  path: "/probe",
  summary: "probe",
  description: "probe",
  tag: "Operations" as const,
  errors: [],
  cache: "no-store" as const,
  example: { request: "GET /probe" },
  handler,
});

describe("answers typed by their response schema", () => {
  it("accept an answer of the schema, and refuse others at compile time", () => {
    const accepted = endpoint({
      ...row(() => ({ body: undefined })),
      response: { status: 200, schema: Health, contentType: "application/json" },
      // Literal unions need `as const`: a generic call does not narrow a returned literal.
      handler: () => ({ body: { status: "ok" as const, uptimeSeconds: 1, store: "embedded" as const } }),
    });
    endpoint({
      ...row(() => ({ body: undefined })),
      response: { status: 200, schema: Health, contentType: "application/json" },
      // @ts-expect-error a status the schema does not list
      handler: () => ({ body: { status: "fine" as const, uptimeSeconds: 1, store: "embedded" as const } }),
    });
    endpoint({
      ...row(() => ({ body: undefined })),
      response: { status: 200, schema: Health, contentType: "application/json" },
      // @ts-expect-error a pre-serialised answer is checked too
      handler: () => json({ uptimeSeconds: "1" }),
    });
    expect(accepted.response.schema).toBe(Health);
    // Every row of the table went through the same typed constructor.
    expect(ENDPOINTS.every((entry) => typeof entry.handler === "function")).toBe(true);
  });
});
