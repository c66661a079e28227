/**
 * Retiring the hosts of a replaced mirror copy without cutting any request (scripts/serve-mirror.ts).
 * Once their listening sockets have moved to the new hosts, the old ones only hold kept-alive
 * connections. Each request they still answer — the one in progress at the swap, or one that
 * arrives on a kept-alive connection afterwards — is answered in full from the old copy with
 * `Connection: close`, so the client opens its next connection on the new hosts. The old hosts
 * close once their last connection has (an idle one closes by itself after the keep-alive limit,
 * http-limits.ts), and only then is their copy released; no answer is ever cut by a timer, save
 * for a connection still open after RETIRE_CAP_MS, longer than every limit that bounds one.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { HTTP_TIMEOUTS } from "../sidecar/http-limits.ts";

/** Past the request and idle limits together: a connection open this long after a swap is stuck. */
export const RETIRE_CAP_MS = HTTP_TIMEOUTS.requestMs + HTTP_TIMEOUTS.idleMs;

/** A host whose connections and answers in progress are tracked, so that it can be retired. */
export interface RetirableHost {
  readonly app: FastifyInstance;
  /** Connections still open. */
  connections(): number;
  /**
   * From now on every answer closes its connection; resolves once every connection has closed
   * and the host with it (after RETIRE_CAP_MS, open connections are closed under their clients).
   */
  retire(): Promise<void>;
}

/** Starts tracking `app`'s connections; call before it listens. */
export function retirable(app: FastifyInstance): RetirableHost {
  const server: Server = app.server;
  const sockets = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  let retired = false;
  let allClosed: (() => void) | undefined;
  const checkClosed = () => {
    if (retired && sockets.size === 0) allClosed?.();
  };
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      checkClosed();
    });
  });
  // Before Fastify's own listener, so that the answer's headers have not been written yet.
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    if (retired) response.shouldKeepAlive = false;
    answering.add(response);
    response.once("close", () => answering.delete(response));
  });
  return {
    app,
    connections: () => sockets.size,
    retire: async () => {
      retired = true;
      // Answers in progress whose headers are not out yet say `Connection: close` too; one already
      // sending its headers leaves its connection idle, and the next request on it gets the close.
      for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
      const closed = new Promise<void>((resolve) => (allClosed = resolve));
      checkClosed();
      let cap: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (cap = setTimeout(resolve, RETIRE_CAP_MS)))]);
      clearTimeout(cap);
      // No connection left (or past the cap): Fastify closes, destroying whatever is still open.
      await app.close();
    },
  };
}
