/**
 * The contract's version: a leaf module, so what reports it (status, the changelog, OpenAPI) need
 * not import the contract table. Contract: docs/spec/catalogue-api-v1.md.
 */
export const API_VERSION = "1.13.0";
export const API_MAJOR = "v1";
