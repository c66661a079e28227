/**
 * Answers requests node's HTTP parser refuses before Fastify sees them (request line and headers
 * over 16 KiB, conflicting Content-Length and Transfer-Encoding, bad framing, a request that timed
 * out): on the API host in the Error shape {error, status, details}, on the text host as a short
 * plain-text error. Fastify's default handler writes its own {error, message, statusCode}.
 */
import type { Socket } from "node:net";

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

function write(socket: Socket, status: number, contentType: string, body: string) {
  if (socket.writable && !socket.destroyed)
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? "Request Timeout" : status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/**
 * Whether the refused request asked for one of the API's /v1/ paths (the text host answers them
 * too, in the API's Error shape): read from the request line, when the refused bytes start with it.
 */
function requestsApi(error: NodeJS.ErrnoException): boolean {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return false;
  return /^[A-Z]{1,20} \/v1(?:[/?\s]|$)/.test(raw.subarray(0, 64).toString("latin1"));
}

/** Fastify's `clientErrorHandler` for the API host or the text host. */
export function clientErrorHandler(host: "api" | "text") {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const { status, error: title, details } = classify(error);
    if (host === "api" || requestsApi(error))
      write(socket, status, "application/json; charset=utf-8", JSON.stringify({ error: title, status, details }));
    else write(socket, status, "text/plain; charset=utf-8", `${status} ${title}\n\n${details}\n`);
  };
}
