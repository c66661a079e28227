/**
 * Every schema of the catalogue, by concept: vocabulary (enums, primitives), data files (what humans
 * edit), resources (what the API returns; what a service needs allowed in identifiers, what the API
 * computes across the catalogue in reports), requests (POST bodies), operations (status, health,
 * acknowledgements) and policy documents. These zod schemas are the single source of types
 * (`z.infer`), validation and the OpenAPI document: each field's description lands there verbatim.
 * Contract: docs/spec/catalogue-api-v1.md, "Resources and their fields".
 */
export * from "./capabilities.ts";
export * from "./compatibility.ts";
export * from "./data-files.ts";
export * from "./documents.ts";
export * from "./exit-data.ts";
export * from "./exit-leaving.ts";
export * from "./exit-plan.ts";
export * from "./identifiers.ts";
export * from "./locations.ts";
export * from "./operations.ts";
export * from "./deployment-check.ts";
export * from "./policy-documents.ts";
export * from "./register.ts";
export * from "./reports.ts";
export * from "./requests.ts";
export * from "./resources.ts";
export * from "./service-fields.ts";
export * from "./sources.ts";
export * from "./vocabulary.ts";
export * from "./versions.ts";
export * from "./words-places-files.ts";
