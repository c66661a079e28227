/**
 * Replacing the hosts being served without cutting any request: those of a replaced mirror copy
 * (scripts/serve-mirror.ts), and `npm start`'s hosts over the sources once its first build is
 * ready (scripts/start.ts).
 *
 * 1. Preparing the next hosts loads a catalogue and builds two apps in this process, which can
 *    hold the event loop for seconds (over the real catalogue, on a busy machine). A request sent
 *    meanwhile on an idle kept-alive connection waits unread; when the loop runs again, timers run
 *    before sockets are read, so the connection's keep-alive timer closed it under that request
 *    (issue 116: requests hung, then were reset). `hold` lets idle kept-alive connections outlast
 *    the preparation (PREPARE_HOLD_MS): such a request is read and answered.
 * 2. The new hosts take over the listening sockets (LiveHosts.replace): every new connection is
 *    theirs. The old hosts finish the requests in progress at the switch from the old copy; every
 *    later request on their kept-alive connections is handed to the new hosts (their copy, never
 *    the old one: a stale answer after "now serving" is only one already in progress). Each answer
 *    on an old connection says `Connection: close`, so the client's next connection is the new
 *    hosts'; idle ones go back to the keep-alive limit (http-limits.ts). Closing idle connections
 *    at the switch instead would race a request the client is sending on one.
 * 3. The old hosts close once their last connection has, and only then is their copy released; no
 *    answer is ever cut by a timer, save for a connection still open after RETIRE_CAP_MS, longer
 *    than every limit that bounds one.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ConfigT } from "../sidecar/config.ts";
import { HTTP_TIMEOUTS } from "../sidecar/http-limits.ts";
import type { PreparedServer } from "../sidecar/server.ts";

/** Past the request and idle limits together: a connection open this long after a swap is stuck. */
export const RETIRE_CAP_MS = HTTP_TIMEOUTS.requestMs + HTTP_TIMEOUTS.idleMs;

/** How long an idle kept-alive connection may wait while the next hosts are prepared (hold). */
export const PREPARE_HOLD_MS = 60_000;

/** A host whose connections and answers in progress are tracked, so that it can be retired. */
export interface RetirableHost {
  readonly app: FastifyInstance;
  /** Connections still open. */
  connections(): number;
  /** Idle kept-alive connections outlast PREPARE_HOLD_MS (the event loop may be held meanwhile). */
  hold(): void;
  /** Idle kept-alive connections back to the keep-alive limit. */
  release(): void;
  /**
   * From now on every answer closes its connection, and requests not yet begun are handed to
   * `successor` (the hosts that took the listening socket); resolves once every connection has
   * closed and the host with it (after RETIRE_CAP_MS, open connections are closed under their clients).
   */
  retire(successor?: Server): Promise<void>;
}

/** Starts tracking `app`'s connections; call before it listens. */
export function retirable(app: FastifyInstance): RetirableHost {
  const server: Server = app.server;
  const sockets = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  /** Answers in progress per connection; a connection with none that has answered once is idle, kept alive. */
  const inProgress = new WeakMap<Socket, number>();
  const answered = new WeakSet<Socket>();
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
  const track = (request: IncomingMessage, response: ServerResponse) => {
    if (retired) response.shouldKeepAlive = false;
    answering.add(response);
    const socket = request.socket;
    inProgress.set(socket, (inProgress.get(socket) ?? 0) + 1);
    response.once("close", () => {
      answering.delete(response);
      inProgress.set(socket, (inProgress.get(socket) ?? 1) - 1);
      answered.add(socket);
    });
  };
  server.prependListener("request", track);
  const idleKeptAlive = () => [...sockets].filter((socket) => answered.has(socket) && !inProgress.get(socket));
  return {
    app,
    connections: () => sockets.size,
    // Node clears a kept-alive connection's timer when its next request arrives (node:_http_server).
    hold: () => idleKeptAlive().forEach((socket) => socket.setTimeout(PREPARE_HOLD_MS)),
    release: () => idleKeptAlive().forEach((socket) => socket.setTimeout(server.keepAliveTimeout)),
    retire: async (successor) => {
      retired = true;
      if (successor) {
        // Requests read from now on are the successor's (Fastify's handler is Node's other listener).
        for (const listener of server.listeners("request"))
          if (listener !== track) server.off("request", listener as (...args: unknown[]) => void);
        server.on("request", (request, response) => successor.emit("request", request, response));
      }
      idleKeptAlive().forEach((socket) => socket.setTimeout(server.keepAliveTimeout));
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

  /** The next hosts are about to be prepared: idle kept-alive connections wait for them (serve-retire.ts, 1). */
  hold(): void {
    this.live.api.hold();
    this.live.text.hold();
  }

  /** No next hosts after all: idle kept-alive connections back to the keep-alive limit. */
  release(): void {
    this.live.api.release();
    this.live.text.release();
  }

  /** Holds (see hold), prepares the next hosts and replaces these with them; released if preparing fails. */
  async replaceWith(prepare: () => Promise<PreparedServer>, retired?: (error?: Error) => void): Promise<void> {
    this.hold();
    let next: PreparedServer;
    try {
      next = await prepare();
    } catch (error) {
      this.release();
      throw error;
    }
    await this.replace(next, retired);
  }

  /**
   * Hands both listening sockets to `next` and retires the hosts served until now, their
   * connections' later requests handed to `next`; `retired` runs once they have closed (or failed to).
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
    const retiring = Promise.all([old.api.retire(hosts.api.app.server), old.text.retire(hosts.text.app.server)]).then(
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
    await hosts.replaceWith(fromBuild, (error) => {
      if (error) log(`start: closing the hosts over the sources: ${error.message}`);
    });
    return true;
  });
  return { hosts, built };
}
