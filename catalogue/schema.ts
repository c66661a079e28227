/**
 * Every schema of the catalogue, by concept: vocabulary (enums, primitives), data files (what humans
 * edit), resources (what the API returns), requests (POST bodies), operations (status, health,
 * acknowledgements) and policy documents. These zod schemas are the single source of types
 * (`z.infer`), validation and the OpenAPI document: each field's description lands there verbatim.
 * Contract: ../shared/spec/catalogue-api-v1.md, "Resources and their fields".
 */
export * from "./schema/data-files.ts";
export * from "./schema/exit-plan.ts";
export * from "./schema/operations.ts";
export * from "./schema/policy-documents.ts";
export * from "./schema/requests.ts";
export * from "./schema/resources.ts";
export * from "./schema/vocabulary.ts";
