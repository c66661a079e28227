/**
 * Time limits for both hosts' HTTP servers, so a client that stops sending (headers, body) or holds
 * an idle keep-alive socket cannot hold a socket for long (README "Time limits").
 *
 * - headers: the request line and headers must arrive within HEADERS_MS (node `headersTimeout`);
 * - request: the whole request, body included, within REQUEST_MS (node `requestTimeout`), else 408;
 * - idle: a socket with no traffic for IDLE_MS is closed (Fastify `connectionTimeout`);
 * - keep-alive: an idle kept-alive socket is closed after KEEP_ALIVE_MS (Fastify's default is 72 s).
 * Node checks the first two every `connectionsCheckingInterval` (30 s by default): 1 s here, so a
 * limit holds to within a second.
 */
export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly idleMs: number;
  readonly keepAliveMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
};

/** The Fastify options that set the limits (`http` goes to node's http.createServer). */
export function timeoutOptions(timeouts: Partial<HttpTimeouts> = {}) {
  const t = { ...HTTP_TIMEOUTS, ...timeouts };
  return {
    connectionTimeout: t.idleMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    http: {
      headersTimeout: Math.min(t.headersMs, t.requestMs),
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: Math.min(1000, t.headersMs),
    },
  };
}
