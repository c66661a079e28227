/**
 * Replacing the hosts being served without cutting any request: those of a replaced mirror copy
 * (scripts/serve-mirror.ts), and `npm start`'s hosts over the sources once its first build is
 * ready (scripts/start.ts). The new hosts take over the listening sockets (LiveHosts.replace);
 * then the old ones only hold kept-alive connections. Each request they still answer — the one in progress at the swap, or one that
 * arrives on a kept-alive connection afterwards — is answered in full from the old copy with
 * `Connection: close`, so the client opens its next connection on the new hosts. The old hosts
 * close once their last connection has (an idle one closes by itself after the keep-alive limit,
 * http-limits.ts), and only then is their copy released; no answer is ever cut by a timer, save
 * for a connection still open after RETIRE_CAP_MS, longer than every limit that bounds one.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ConfigT } from "../sidecar/config.ts";
import { HTTP_TIMEOUTS } from "../sidecar/http-limits.ts";
import type { PreparedServer } from "../sidecar/server.ts";

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

/** A listening socket, as node's `server.listen(handle)` takes it (net.Server keeps it as `_handle`). */
interface ListeningServer {
  _handle: object | null;
}

/**
 * Moves a host's listening socket to its successor: the successor listens on the same socket
 * (node's `server.listen({ handle })`), so no connection is refused or reset in between, not even
 * one waiting in the socket's backlog; the old server lets go of it so that closing it later does
 * not close the socket, and finishes the requests it holds.
 */
async function moveListener(from: FastifyInstance, to: FastifyInstance): Promise<void> {
  const old = from.server as unknown as ListeningServer;
  const handle = old._handle;
  if (!handle) throw new Error("the served host is not listening");
  await to.listen({ handle } as { port?: number });
  old._handle = null;
}

/** Both hosts, tracked so that they can be retired. */
interface Hosts {
  readonly api: RetirableHost;
  readonly text: RetirableHost;
}

const tracked = (prepared: PreparedServer): Hosts => ({ api: retirable(prepared.api), text: retirable(prepared.text) });

/** The hosts being served, which `replace` swaps for new ones while the old ones drain. */
export class LiveHosts {
  private live: Hosts;
  private readonly retiring = new Map<Hosts, Promise<void>>();
  private closed = false;

  private constructor(live: Hosts) {
    this.live = live;
  }

  /** Starts serving `prepared` on PORT and TEXT_PORT. */
  static async listen(prepared: PreparedServer, config: ConfigT): Promise<LiveHosts> {
    const live = tracked(prepared);
    await live.api.app.listen({ port: config.PORT, host: config.HOST });
    await live.text.app.listen({ port: config.TEXT_PORT, host: config.HOST });
    return new LiveHosts(live);
  }

  get api(): FastifyInstance {
    return this.live.api.app;
  }

  get text(): FastifyInstance {
    return this.live.text.app;
  }

  /**
   * Hands both listening sockets to `next` and retires the hosts served until now; `retired` runs
   * once they have closed (or failed to).
   */
  async replace(next: PreparedServer, retired: (error?: Error) => void = () => undefined): Promise<void> {
    // Shut down meanwhile (a build that finished as the server was stopped): nothing to serve.
    if (this.closed) {
      await Promise.all([next.api.close(), next.text.close()]);
      return;
    }
    const old = this.live;
    const hosts = tracked(next);
    await moveListener(old.api.app, hosts.api.app);
    await moveListener(old.text.app, hosts.text.app);
    this.live = hosts;
    const retiring = Promise.all([old.api.retire(), old.text.retire()]).then(
      () => retired(),
      (error: unknown) => retired(error as Error),
    );
    this.retiring.set(
      old,
      retiring.finally(() => this.retiring.delete(old)),
    );
  }

  /** Closes the hosts served and those still draining, whatever they hold (shutting down). */
  async close(): Promise<void> {
    this.closed = true;
    const draining = [...this.retiring.keys()].flatMap((hosts) => [hosts.api.app.close(), hosts.text.app.close()]);
    await Promise.all([this.api.close(), this.text.close(), ...draining, ...this.retiring.values()]);
  }
}

/**
 * `npm start`'s first start: serves `fromSources` (every answer computed) at once, and once
 * `building` has succeeded, hands the sockets to the hosts over the build. `built` resolves true
 * then, false when the build failed (the hosts over the sources still serve).
 */
export async function serveWhileBuilding(
  config: ConfigT,
  fromSources: Promise<PreparedServer>,
  building: Promise<boolean>,
  fromBuild: () => Promise<PreparedServer>,
  log: (line: string) => void,
): Promise<{ hosts: LiveHosts; built: Promise<boolean> }> {
  const hosts = await LiveHosts.listen(await fromSources, config);
  const built = building.then(async (succeeded) => {
    if (!succeeded) return false;
    await hosts.replace(await fromBuild(), (error) => {
      if (error) log(`start: closing the hosts over the sources: ${error.message}`);
    });
    return true;
  });
  return { hosts, built };
}
