/**
 * A body refused before it was read (413, and any other refusal sent before its end: a 429, a 415,
 * a 403) is still on its way: closing at once would reset the
 * connection under the client's upload, and a reset discards the answer it had not read yet (a
 * "broken pipe" instead of the 413). So the socket reads and discards what the client goes on
 * sending, as nginx's lingering close does, and closes when the body has ended — or past a bound
 * of bytes or time, so a client cannot hold it open by sending forever.
 */
import type { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** What a refused upload may still send, and for how long, before the socket is closed under it. */
export const LINGER_BYTES = 64 * 1024 * 1024;
export const LINGER_MS = 10_000;

/**
 * Lets every refusal whose request body has not ended reach its client, and closes the connection
 * after it: Node would otherwise read the rest of the body to find the next request, for as long as
 * the client sends (712 MB in 30 s after a 429 on one connection).
 */
export function lingerAfterRefusal(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    // Only a real connection lingers (an injected request has no socket to read from).
    const socket = request.raw.socket;
    if (reply.statusCode >= 400 && bodyStillComing(request.raw) && socket instanceof Socket) {
      reply.header("connection", "close");
      linger(request.raw, socket);
    }
    done(null, payload);
  });
}

/**
 * Whether the request has a body not read to its end. A request without one (a GET) is not
 * `complete` either until its empty stream is read, and its connection stays open.
 */
function bodyStillComing(request: IncomingMessage): boolean {
  const declared = request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"]) > 0;
  return declared && !request.complete;
}

function linger(request: IncomingMessage, socket: Socket): void {
  // Node ends a `Connection: close` answer with destroySoon(): the socket is destroyed as soon as
  // the answer is written, unread bytes and all. This socket waits for the body's end instead.
  const close = socket.destroySoon.bind(socket);
  let read = 0;
  let closed = false;
  const closeOnce = (how: () => void) => () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    socket.off("data", count);
    how();
  };
  const giveUp = closeOnce(() => socket.destroy());
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) giveUp();
  };
  const timer = setTimeout(giveUp, LINGER_MS);
  timer.unref();
  socket.on("data", count);
  socket.destroySoon = () => {
    if (request.complete) return closeOnce(close)();
    request.once("end", closeOnce(close));
    request.once("aborted", giveUp);
    // Read what comes, into nowhere.
    request.resume();
  };
}
