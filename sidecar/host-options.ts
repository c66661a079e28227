/**
 * What both hosts (app.ts's API, text/app.ts's text host) are built with: the part of the config
 * they read and Fastify's options. Its own file so that the text host stands beside the API app
 * rather than on it: no file of sidecar/ but server.ts imports a host's builder
 * (scripts/check-floors.ts, SIDECAR_TOP).
 */
import compress from "@fastify/compress";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import { MAX_BODY_BYTES, MAX_PARAM_LENGTH } from "../catalogue/base/limits.ts";
import type { ConfigT } from "./config.ts";
import { clientErrorHandler } from "./client-errors.ts";
import { timeoutOptions, type HttpTimeouts } from "./http-limits.ts";
import { loggerOptions } from "./logging.ts";
import { trustedProxy } from "./plugins/limit-store.ts";

/** The configuration a host reads: proxies, logging, MCP origins and (in tests) shorter time limits. */
export type HostConfig = Pick<ConfigT, "TRUST_PROXY" | "LOG_LEVEL" | "MCP_ALLOWED_ORIGINS"> & {
  readonly timeouts?: Partial<HttpTimeouts>;
};

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** Options both hosts share; `onFrameworkError` answers malformed URLs and over-long path parameters. */
export function fastifyOptions(
  config: HostConfig,
  onFrameworkError: FrameworkErrorHandler,
  host: "api" | "text" = "api",
) {
  return {
    ...timeoutOptions(config.timeouts),
    clientErrorHandler: clientErrorHandler(host),
    // One access line per request (logging.ts).
    ...loggerOptions(config.LOG_LEVEL),
    bodyLimit: MAX_BODY_BYTES,
    // TRUST_PROXY unset: the socket address is the client. Set: only the listed proxies may speak for it.
    trustProxy: config.TRUST_PROXY && config.TRUST_PROXY.length > 0 ? trustedProxy(config.TRUST_PROXY) : false,
    // The text host's /compare/{a,b,…} takes up to ten slugs in one parameter.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH[host], ignoreTrailingSlash: true },
    onProtoPoisoning: "error" as const,
    onConstructorPoisoning: "error" as const,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Fastify answers these before routing, outside the app's error handler.
    frameworkErrors: onFrameworkError,
  };
}

/** What a client pipelining past the per-connection cap is told (http-limits.ts). */
export const PIPELINE_DETAILS =
  "Too many requests are waiting on this connection; read the answers before sending more, or open another connection.";

/**
 * How both hosts compress what they compute (the built files come precompressed, files.ts):
 * answers from 1 KiB, brotli (quality 4, @fastify/compress's default) before gzip.
 */
export const COMPRESSION = { global: true, threshold: 1024, encodings: ["br", "gzip"] } as const;

/**
 * Registers @fastify/compress with COMPRESSION, then a hook that names each Vary field once: the
 * plugin appends "accept-encoding" to a Vary that says "Accept-Encoding" (its check is
 * case-sensitive), and a cache reading "Accept, Accept-Encoding, COLUMNS, accept-encoding" may key
 * on it twice (issue 116). The plugin puts its hook on each route as it is added (onRoute): this
 * one is put after it the same way, so it reads what the plugin wrote.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { ...COMPRESSION, encodings: [...COMPRESSION.encodings] });
  // A callback hook: an async one on every answer costs each its own microtask hops.
  const onceEach: onSendHookHandler = (_request, reply, payload, done) => {
    const vary = reply.getHeader("vary");
    if (typeof vary === "string" && vary.includes(",")) reply.header("vary", varyOnce(vary));
    done(null, payload);
  };
  app.addHook("onRoute", (route) => {
    const hooks = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...hooks, onceEach];
  });
}

/** A Vary value with each field once, case aside, the first spelling kept. */
export function varyOnce(vary: string): string {
  const seen = new Map<string, string>();
  for (const field of vary.split(",").map((name) => name.trim()))
    if (field && !seen.has(field.toLowerCase())) seen.set(field.toLowerCase(), field);
  return [...seen.values()].join(", ");
}
