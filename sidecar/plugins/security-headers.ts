/**
 * Helmet's security headers, computed once per app. @fastify/helmet runs helmet(options) — parsing
 * the CSP again — on every request; with fixed options the headers never change, so this asks helmet
 * for them at start and adds the same set to every reply (errors and 404s included).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

export function securityHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error("helmet could not set the headers");
  });
  return Object.freeze(headers);
}

/**
 * Over plain http, HSTS and `upgrade-insecure-requests` break a deployment without TLS (a LAN, a
 * mirror): sent only when the public URL is https.
 */
export function forScheme(options: HelmetOptions, https: boolean): HelmetOptions {
  if (https) return options;
  const csp = options.contentSecurityPolicy;
  return {
    ...options,
    strictTransportSecurity: false,
    contentSecurityPolicy:
      csp && typeof csp === "object"
        ? { ...csp, directives: { ...csp.directives, upgradeInsecureRequests: null } }
        : { directives: { upgradeInsecureRequests: null } },
  } as HelmetOptions;
}

export default fp(
  async (app: FastifyInstance, options: HelmetOptions & { https?: boolean }) => {
    const { https = false, ...helmetOptions } = options;
    const headers = securityHeaders(forScheme(helmetOptions, https));
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: "security-headers" },
);
