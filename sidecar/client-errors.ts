/**
 * Answers requests node's HTTP parser refuses before Fastify sees them (request line and headers
 * over 16 KiB, conflicting Content-Length and Transfer-Encoding, bad framing, a request that timed
 * out) and CONNECT, which node hands to the server's 'connect' listeners (without one it closes
 * the socket unanswered): on the API host in the Error shape {error, status, details}, on the text
 * host as a short plain-text error. Fastify's default handler writes its own {error, message, statusCode}.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CataloguedError } from "../catalogue/base/error-catalogue.ts";
import { DEADLINE_RETRY_AFTER_SECONDS, PAST_DEADLINE_DETAILS } from "./deadline.ts";
import { isApiPath } from "./plugins/errors.ts";

/** A refusal before routing: a title of the error catalogue with its own status. */
type ClientError = CataloguedError;

/** The methods both hosts answer (CORS and the routes). */
const ALLOWED = "GET, HEAD, POST, OPTIONS";

/** The details of each refusal nginx answers in the sidecars' words too (scripts/deploy-config.ts). */
export const VERSION_DETAILS =
  "The request line names an HTTP version this server does not speak; send HTTP/1.1 (or HTTP/1.0).";
export const ORIGIN_FORM_DETAILS =
  "The request target must be a path (origin form, RFC 9112 §3.2.1); this server is not a proxy and takes no absolute URL.";
export const METHOD_DETAILS = `The request's method is not one this server implements (methods are case-sensitive: GET, not get). Allowed methods: ${ALLOWED}.`;
export const HEADERS_TOO_LARGE_DETAILS = "The URL and headers together are limited to 16 KiB.";
export const CONNECT_DETAILS = `This server is not a proxy: CONNECT is not supported. Allowed methods: ${ALLOWED}.`;

function classify(error: NodeJS.ErrnoException): ClientError {
  // llhttp knows the registered methods, upper-case only (RFC 9110 §9.1: methods are case-sensitive).
  if (error.code === "HPE_INVALID_METHOD")
    return {
      status: 501,
      error: "Not implemented",
      details: METHOD_DETAILS,
    };
  // llhttp reports a bare LF after the version under the version's code: that is framing, not a version.
  if (error.code === "HPE_INVALID_VERSION" && !/CRLF/.test(String((error as { reason?: unknown }).reason)))
    return {
      status: 505,
      error: "HTTP version not supported",
      details: VERSION_DETAILS,
    };
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, error: "Request timeout", details: "The request did not arrive in time." };
  if (error.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      error: "Request header fields too large",
      details: HEADERS_TOO_LARGE_DETAILS,
    };
  return {
    status: 400,
    error: "Bad request",
    details:
      "The request is malformed (for example conflicting Content-Length and Transfer-Encoding, or lines ending in a bare LF instead of CRLF).",
  };
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  417: "Expectation Failed",
  431: "Request Header Fields Too Large",
  501: "Not Implemented",
  503: "Service Unavailable",
  505: "HTTP Version Not Supported",
};

function answer(socket: Socket, host: "api" | "text", { status, error, details }: ClientError) {
  if (socket.writable && !socket.destroyed) {
    const [contentType, body] =
      host === "api"
        ? ["application/json; charset=utf-8", JSON.stringify({ error, status, details })]
        : ["text/plain; charset=utf-8", `${status} ${error}\n\n${details}\n`];
    const allow = status === 405 ? `Allow: ${ALLOWED}\r\n` : "";
    const retry = status === 503 ? `Retry-After: ${DEADLINE_RETRY_AFTER_SECONDS}\r\n` : "";
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status] ?? "Bad Request"}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${allow}${retry}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

/**
 * Whether the refused request asked for one of the API's /v1/ paths (the text host answers them
 * too, in the API's Error shape): read from the request line, when the refused bytes start with it.
 */
function requestsApi(error: NodeJS.ErrnoException, socket: Socket): boolean {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  if (Buffer.isBuffer(raw)) {
    const target = /^[!-~]{1,20} (\S+)/.exec(raw.subarray(0, 64).toString("latin1"))?.[1];
    return target !== undefined && isApiPath(target);
  }
  // A request timed out: a stalled body's request line was read, and its answer waits on the socket.
  const url = (socket as Socket & { _httpMessage?: { req?: { url?: string } } | null })._httpMessage?.req?.url;
  return typeof url === "string" && isApiPath(url);
}

/**
 * Whether node's header or request limit fired for a request that waits behind answers still
 * being sent: node stops reading a socket whose client does not read, so the request it had begun
 * to parse looks stalled although the client sent it whole. The idle limit still closes a socket
 * on which nothing moves.
 */
function waitsItsTurn(error: NodeJS.ErrnoException, socket: Socket): boolean {
  // The answer being sent (node:_http_server's `socket._httpMessage`) is for a request received
  // whole: the one that timed out is a later one. A stalled body is the request being answered.
  const answering = (socket as Socket & { _httpMessage?: { req?: { complete?: boolean } } | null })._httpMessage;
  return error.code === "ERR_HTTP_REQUEST_TIMEOUT" && answering?.req?.complete === true;
}

/** Fastify's `clientErrorHandler` for the API host or the text host. */
export function clientErrorHandler(host: "api" | "text") {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed || waitsItsTurn(error, socket)) return;
    answer(socket, host === "api" || requestsApi(error, socket) ? "api" : "text", classify(error));
  };
}

/**
 * The last resort behind the requests' deadline (deadline.ts): a socket idle past the idle limit
 * while its request has no answer yet gets a 503 in the host's format before it closes, never a
 * bare close. Node closes such a socket silently unless the server listens for 'timeout'; one that
 * has begun answering (a client that does not read) or holds no request is closed as node would.
 */
export function answerBeforeIdleClose(server: Server, host: "api" | "text"): void {
  server.on("timeout", (socket: Socket) => {
    const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!response || response.headersSent || !socket.writable) return void socket.destroy();
    answer(socket, host === "api" || isApiPath(response.req.url ?? "") ? "api" : "text", {
      status: 503,
      error: "Service unavailable",
      details: PAST_DEADLINE_DETAILS,
    });
  });
}

/** Answers CONNECT (a proxy's tunnel request, which neither host is) with 405 instead of silence. */
export function answerConnect(server: Server, host: "api" | "text"): void {
  server.on("connect", (request: IncomingMessage, socket: Socket) => {
    socket.on("error", () => undefined);
    // The text host answers the API's paths in the API's Error shape, CONNECT included.
    answer(socket, host === "api" || isApiPath(request.url ?? "") ? "api" : "text", {
      status: 405,
      error: "Method not allowed",
      details: CONNECT_DETAILS,
    });
  });
}

export const HOST_DETAILS = "An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).";

/**
 * A Host both hosts accept: a DNS name or IPv4 address (letters, digits, '-', '.', '_') or a
 * bracketed IPv6 address, and an optional port (RFC 9110 §7.2). No userinfo, spaces or other
 * characters: the site's renderer builds a URL of it (a `user@` made it throw: 500), and anything
 * looser is not a name a client reached this server by.
 */
const VALID_HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Why the request's Host is refused, or undefined when it is acceptable (absent only before HTTP/1.1). */
export function hostProblem(host: string | undefined, httpVersion: string): string | undefined {
  if (host === undefined) return httpVersion === "1.1" ? HOST_DETAILS : undefined;
  if (!VALID_HOST.test(host) || (host.startsWith("[") && !URL.canParse(`http://${host}/`)))
    return `The Host header ${JSON.stringify(host.slice(0, 100))} is not a host name, IP address or [IPv6] address with an optional :port (RFC 9110 §7.2).`;
  return undefined;
}

/**
 * What is wrong with a request's line or Host before routing, or undefined: a version other than
 * 1.x (llhttp parses "HTTP/2.0" as a version it knows) is 505; a Host given twice (node keeps the
 * first, which a guard would read while a proxy may read the other) or a request target in absolute
 * form (`POST http://evil.example/mcp`: which host it names is not the Host a guard checks) is 400.
 */
export function requestLineProblem(request: IncomingMessage): ClientError | undefined {
  if (request.httpVersionMajor !== 1)
    return { status: 505, error: "HTTP version not supported", details: VERSION_DETAILS };
  const bad = (details: string): ClientError => ({ status: 400, error: "Bad request", details });
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() === "host") hosts++;
  if (hosts > 1) return bad("The request carries more than one Host header (RFC 9112 §3.2: exactly one).");
  const url = request.url ?? "";
  if (!url.startsWith("/") && !(url === "*" && request.method === "OPTIONS")) return bad(ORIGIN_FORM_DETAILS);
  const host = hostProblem(request.headers.host, request.httpVersion);
  return host === undefined ? undefined : bad(host);
}

/**
 * A request line or Host refused by requestLineProblem is answered in the host's error format,
 * before routing, on both hosts alike. Node answers a missing Host itself by default, with an empty
 * chunked body; both hosts turn its check off (`requireHostHeader: false`, http-limits.ts) for this
 * hook, which runs first.
 */
export function requireHost(
  app: FastifyInstance,
  reject: (request: FastifyRequest, reply: FastifyReply, problem: ClientError) => unknown,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    const problem = requestLineProblem(request.raw);
    if (problem === undefined) return done();
    reply.header("connection", "close");
    void reject(request, reply, problem);
  });
}

/**
 * An Expect other than 100-continue is 417 (RFC 9110 §10.1.1) in the host's error format; node
 * would answer it itself with an empty body. `host` "text" answers /v1/ paths in the Error shape.
 */
export function answerExpectation(server: Server, host: "api" | "text"): void {
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const details = `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported; only 100-continue is (RFC 9110 §10.1.1).`;
    const api = host === "api" || isApiPath(request.url ?? "");
    const refusal: ClientError = { error: "Expectation failed", status: 417, details };
    const body = api ? JSON.stringify(refusal) : `417 Expectation failed\n\n${details}\n`;
    response.writeHead(417, {
      "content-type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
      connection: "close",
    });
    response.end(request.method === "HEAD" ? undefined : body);
  });
}
