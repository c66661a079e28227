/**
 * The one contract table: every endpoint of the API, declared once with everything about it (see
 * endpoint.ts for a row's fields). The sidecar registers its routes from these rows
 * (sidecar/routes/api.ts), the build writes their files (scripts/build.ts), the servers map a URL
 * to its file (static.ts), nginx's locations are generated from them (scripts/deploy-config.ts),
 * and so are OpenAPI and discovery (openapi.ts). Contract: docs/spec/catalogue-api-v1.md.
 */
import type { Endpoint } from "./endpoint.ts";
import { DISCOVERY_ENDPOINTS } from "./discovery.ts";
import { CATALOGUE_ENDPOINTS } from "./catalogue.ts";
import { POLICIES_ENDPOINTS } from "./policies.ts";
import { DEPLOYMENTS_ENDPOINTS } from "./deployments.ts";
import { LISTS_ENDPOINTS } from "./lists.ts";
import { REGISTER_ENDPOINTS } from "./register.ts";
import { OPERATIONS_ENDPOINTS } from "./operations.ts";
import { MIRROR_ENDPOINTS } from "./mirror.ts";
import { MCP_ENDPOINT } from "./mcp.ts";

export { recordFeedback } from "./operations.ts";

/** Every row, tag by tag; OpenAPI and discovery list them in this order. */
export const ENDPOINTS: readonly Endpoint[] = [
  ...DISCOVERY_ENDPOINTS,
  ...CATALOGUE_ENDPOINTS,
  ...POLICIES_ENDPOINTS,
  ...DEPLOYMENTS_ENDPOINTS,
  ...LISTS_ENDPOINTS,
  // The DORA register of information (issue 127, contract 1.13.0).
  ...REGISTER_ENDPOINTS,
  ...OPERATIONS_ENDPOINTS,
  // The Model Context Protocol server over Streamable HTTP (decisions.md#mcp, contract 1.8.0).
  MCP_ENDPOINT,
  ...MIRROR_ENDPOINTS,
];
