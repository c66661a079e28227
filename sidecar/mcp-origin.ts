/**
 * DNS-rebinding protection for POST /mcp (MCP specification, transports: servers MUST validate
 * Origin): a browser page on a foreign origin, or one whose name was rebound to this server's
 * address, is refused with 403 before the MCP server sees the request. Allowed: no Origin (not a
 * browser), the API's and the text host's own origins, loopback origins, and MCP_ALLOWED_ORIGINS
 * ("*" allows every origin: a public read-only deployment). The Host must be loopback, one of
 * the public URLs' hosts or an allowed origin's host, unless "*" is set.
 */
import type { FastifyInstance } from "fastify";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import { errorBody, sendError } from "./plugins/errors.ts";
import { onRequestOfRoutes } from "./route-hooks.ts";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

const hostnameOf = (host: string): string | undefined => {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
};

export interface McpOriginPolicy {
  /** Whether a request with these Origin and Host headers may reach /mcp. */
  readonly allows: (origin: string | undefined, host: string | undefined) => boolean;
  /** Whether a Host names this server: loopback, a public URL's host or an allowed origin's (the forms' check too). */
  readonly allowsHost: (host: string | undefined) => boolean;
}

export function mcpOriginPolicy(urls: PublicUrls, allowed: readonly string[] = []): McpOriginPolicy {
  if (allowed.includes("*")) return { allows: () => true, allowsHost: () => true };
  const origins = new Set(
    [urls.apiUrl, urls.textUrl, ...allowed].map(originOf).filter((origin): origin is string => !!origin),
  );
  const hostnames = new Set([...origins].map((origin) => new URL(origin).hostname.toLowerCase()));
  const allowsHost = (host: string | undefined) => {
    const hostname = host === undefined ? undefined : hostnameOf(host);
    return hostname !== undefined && (LOOPBACK.has(hostname) || hostnames.has(hostname));
  };
  return {
    allowsHost,
    allows: (origin, host) => {
      if (!allowsHost(host)) return false;
      if (origin === undefined) return true;
      const parsed = originOf(origin);
      return parsed !== undefined && (origins.has(parsed) || LOOPBACK.has(new URL(parsed).hostname));
    },
  };
}

export const MCP_ORIGIN_DETAILS =
  "POST /mcp refuses browser pages on other origins and requests for other host names (DNS rebinding); the server's operator can allow an origin with MCP_ALLOWED_ORIGINS";

/** The path of the MCP route, the only one the policy guards. */
export const MCP_PATH = "/mcp";

/**
 * Refuses a /mcp request the policy does not allow: 403 in the Error shape. It runs on the route
 * the router found, after the path is decoded, so no spelling of the path (`/%6dcp`, `/mcp/`)
 * escapes it; duplicate Hosts and absolute-form targets never get here (client-errors.ts). The
 * hook is the /mcp route's own (route-hooks.ts), declared after this call: no other route pays for it.
 */
export function guardMcpOrigin(app: FastifyInstance, policy: McpOriginPolicy): void {
  // A callback hook, not an async one: a promise-returning hook moves the rest of each request's
  // hook chain onto the microtask queue.
  onRequestOfRoutes(
    app,
    (route) => route.url === MCP_PATH,
    (request, reply, done) => {
      if (request.method === "OPTIONS") return done();
      if (policy.allows(request.headers.origin, request.headers.host)) return done();
      void sendError(reply, errorBody(403, "Forbidden", MCP_ORIGIN_DETAILS));
    },
  );
}
