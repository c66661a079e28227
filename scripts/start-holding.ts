/**
 * The hosts `npm start` listens with at once, before the first real ones are ready (issue 126: at
 * a load of 13 the ports refused connections for 37 s while the catalogue loaded): plain HTTP
 * servers with the hosts' time limits that hold every request they read, unanswered, and hand them
 * to the hosts that take their sockets (serve-retire.ts LiveHosts.listenAtOnce), which answer them
 * with `Connection: close` as they answer every request of a replaced host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { HostConfig } from "../sidecar/host-options.ts";
import { timeoutOptions } from "../sidecar/http-limits.ts";
import type { Host } from "./serve-retire.ts";

function holdingHost(config: HostConfig): Host {
  const options = timeoutOptions(config.timeouts);
  const held = new Set<[IncomingMessage, ServerResponse]>();
  const server = createServer(options.http, (request, response) => {
    const entry: [IncomingMessage, ServerResponse] = [request, response];
    held.add(entry);
    // A client that gave up is not handed on.
    response.once("close", () => held.delete(entry));
  });
  server.timeout = options.connectionTimeout;
  return {
    server,
    handOver: (successor: Server) => {
      for (const entry of held) successor.emit("request", ...entry);
      held.clear();
    },
    // Shutting down before the hosts were ready: what is held goes with its connection. (Once
    // retired, nothing is held and server.close keeps the connections handed on: serve-retire.ts.)
    close: () =>
      new Promise<void>((resolve) => {
        for (const [, response] of held) response.socket?.destroy();
        held.clear();
        server.close(() => resolve());
      }),
  };
}

/** The API's and the text host's holding servers. */
export const holdingHosts = (config: HostConfig) => ({ api: holdingHost(config), text: holdingHost(config) });
