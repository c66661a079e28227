/**
 * Answers requests node's HTTP parser refuses before Fastify sees them (request line and headers
 * over 16 KiB, conflicting Content-Length and Transfer-Encoding, bad framing, a request that timed
 * out) and CONNECT, which node hands to the server's 'connect' listeners (without one it closes
 * the socket unanswered): on the API host in the Error shape {error, status, details}, on the text
 * host as a short plain-text error. Fastify's default handler writes its own {error, message, statusCode}.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

interface ClientError {
  readonly status: number;
  readonly error: string;
  readonly details: string;
}

function classify(error: NodeJS.ErrnoException): ClientError {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, error: "Request timeout", details: "The request did not arrive in time." };
  if (error.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      error: "Request header fields too large",
      details: "The URL and headers together are limited to 16 KiB.",
    };
  return {
    status: 400,
    error: "Bad request",
    details: "The request is malformed (for example conflicting Content-Length and Transfer-Encoding).",
  };
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/** The methods both hosts answer (CORS and the routes). */
const ALLOWED = "GET, HEAD, POST, OPTIONS";

function answer(socket: Socket, host: "api" | "text", { status, error, details }: ClientError) {
  if (socket.writable && !socket.destroyed) {
    const [contentType, body] =
      host === "api"
        ? ["application/json; charset=utf-8", JSON.stringify({ error, status, details })]
        : ["text/plain; charset=utf-8", `${status} ${error}\n\n${details}\n`];
    const allow = status === 405 ? `Allow: ${ALLOWED}\r\n` : "";
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status] ?? "Bad Request"}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${allow}Connection: close\r\n\r\n${body}`,
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
  if (Buffer.isBuffer(raw)) return /^[A-Z]{1,20} \/v1(?:[/?\s]|$)/.test(raw.subarray(0, 64).toString("latin1"));
  // A request timed out: a stalled body's request line was read, and its answer waits on the socket.
  const url = (socket as Socket & { _httpMessage?: { req?: { url?: string } } | null })._httpMessage?.req?.url;
  return typeof url === "string" && /^\/v1(?:[/?]|$)/.test(url);
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

/** Answers CONNECT (a proxy's tunnel request, which neither host is) with 405 instead of silence. */
export function answerConnect(server: Server, host: "api" | "text"): void {
  server.on("connect", (_request, socket: Socket) => {
    socket.on("error", () => undefined);
    answer(socket, host, {
      status: 405,
      error: "Method not allowed",
      details: `This server is not a proxy: CONNECT is not supported. Allowed methods: ${ALLOWED}.`,
    });
  });
}

export const HOST_DETAILS = "An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).";

/**
 * An HTTP/1.1 request without Host is 400 in the host's error format. Node answers it itself by
 * default, with an empty chunked body; both hosts turn its check off (`requireHostHeader: false`,
 * http-limits.ts) for this hook, which runs first.
 */
export function requireHost(
  app: FastifyInstance,
  reject: (request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    if (request.raw.httpVersion !== "1.1" || request.headers.host !== undefined) return done();
    reply.header("connection", "close");
    void reject(request, reply);
  });
}
