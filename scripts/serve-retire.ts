/**
 * Replacing the hosts being served without cutting any request: those of a replaced mirror copy
 * (scripts/serve-mirror.ts), `npm start`'s hosts over the sources once its first build is ready,
 * and the hosts that only hold requests while the first ones are prepared (scripts/start.ts).
 *
 * 1. The next hosts are prepared while these answer: the catalogue is loaded in turns of the event
 *    loop (sidecar/catalogue-in-turns.ts), so no answer and no timer waits on it for long.
 * 2. The new hosts take over the listening sockets (LiveHosts.replace): every new connection is
 *    theirs. The old hosts finish the requests in progress at the switch; every later request on
 *    their kept-alive connections is handed to the new hosts (their copy, never the old one), and
 *    each answer on an old connection says `Connection: close`, so the client itself closes it
 *    and its next request goes to a new connection. A connection idle at the switch is never
 *    closed by a timer the switch sets: it keeps its own keep-alive timer, which outlasts common
 *    clients' idle timers (http-limits.ts), so the client closes it, or reuses it and is told to
 *    close. Closing idle connections at the switch, or resetting their timers together, raced
 *    requests already on their way (issue 126: 30 of 3,224 requests reset, 12 of them together).
 * 3. Once the old hosts' own requests are answered, their app closes (its catalogue and copy are
 *    released) while their connections stay open, handed on; the server object closes when its
 *    last connection has, or after RETIRE_CAP_MS, longer than every limit that bounds one.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ConfigT } from "../sidecar/config.ts";
import { HTTP_TIMEOUTS } from "../sidecar/http-limits.ts";
import { allocating } from "../sidecar/memory-guard.ts";
import type { PreparedServer } from "../sidecar/server.ts";

/** Past the request limit and the longer of the idle and keep-alive limits: a connection open this long after a swap is stuck. */
export const RETIRE_CAP_MS =
  HTTP_TIMEOUTS.requestMs + Math.max(HTTP_TIMEOUTS.idleMs, HTTP_TIMEOUTS.keepAliveMs + 1000) + 1000;

/** What a host is made of: its HTTP server and how to close what serves on it (a Fastify app). */
export interface Host {
  readonly server: Server;
  close(): PromiseLike<unknown>;
  /** Hands the requests this host holds unanswered to the server that took its socket (start-holding.ts). */
  handOver?(successor: Server): void;
}

/** A host being retired: when its own answers are done and its app closed, and when its last connection closed. */
export interface Retiring {
  readonly released: Promise<void>;
  readonly closed: Promise<void>;
}

/** The events of an HTTP server that its app answers; a retired server hands them to its successor. */
const HANDED_ON = ["request", "clientError"] as const;

/** A host whose connections and answers in progress are tracked, so that it can be retired. */
export interface RetirableHost {
  /** Connections still open. */
  connections(): number;
  /**
   * From now on every answer closes its connection, and requests not yet begun are handed to
   * `successor` (the server that took the listening socket); `released` resolves once the answers
   * in progress are done and the host closed, `closed` once every connection has closed (after
   * RETIRE_CAP_MS, open connections are closed under their clients).
   */
  retire(successor?: Server): Retiring;
  /** Closes the server now (shutting down): idle connections at once, the others after their answer. */
  shutDown(): Promise<void>;
}

/** What closing a host's app does to its server, which a retired host's server must not do to the connections it hands on. */
const CLOSING = ["close", "closeAllConnections", "closeIdleConnections"] as const;

/**
 * Closes `host` while its server keeps its connections (Fastify's close calls the server's close,
 * which ends idle connections, and with forceCloseConnections every one: host-options.ts).
 */
async function closeKeepingConnections(host: Host): Promise<void> {
  const server = host.server as Server & Record<(typeof CLOSING)[number], unknown>;
  for (const name of CLOSING)
    Object.defineProperty(server, name, {
      configurable: true,
      value: (callback?: unknown) => {
        if (typeof callback === "function") process.nextTick(callback);
        return server;
      },
    });
  try {
    await host.close();
  } finally {
    for (const name of CLOSING) delete server[name];
  }
}

/** Starts tracking `host`'s connections; call before it listens. */
export function retirable(app: Host): RetirableHost {
  const server = app.server;
  // Let go of once closed: a retired server may keep connections for a while, never its app's catalogue.
  let host: Host | undefined = app;
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
  // Before the app's own listener, so that the answer's headers have not been written yet.
  const track = (_request: IncomingMessage, response: ServerResponse) => {
    if (retired) response.shouldKeepAlive = false;
    answering.add(response);
    response.once("close", () => answering.delete(response));
  };
  server.prependListener("request", track);
  let released: Promise<void> | undefined;
  let serverClosed = false;
  server.once("close", () => (serverClosed = true));
  return {
    connections: () => sockets.size,
    retire: (successor) => {
      retired = true;
      // Answers in progress whose headers are not out yet say `Connection: close` too; one already
      // sending its headers leaves its connection idle, and the next request on it gets the close.
      for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
      const own = [...answering];
      if (successor) {
        // What is read from now on is the successor's (the app's listeners are Node's others).
        for (const event of HANDED_ON) {
          for (const listener of server.listeners(event))
            if (listener !== track) server.off(event, listener as (...args: unknown[]) => void);
          server.on(event, (...args: unknown[]) => successor.emit(event, ...args));
        }
        host?.handOver?.(successor);
      }
      const closed = new Promise<void>((resolve) => (allClosed = resolve));
      checkClosed();
      let cap: NodeJS.Timeout | undefined;
      const capped = Promise.race([closed, new Promise<void>((resolve) => (cap = setTimeout(resolve, RETIRE_CAP_MS)))]);
      released = Promise.race([
        Promise.all(own.map((response) => new Promise((resolve) => response.once("close", resolve)))),
        capped,
      ]).then(async () => {
        if (host) await closeKeepingConnections(host);
        host = undefined;
      });
      const done = Promise.all([capped, released]).then(() => {
        clearTimeout(cap);
        // No connection left (or past the cap): Node's own close, which ends what is still open.
        server.closeAllConnections();
        if (!serverClosed) server.close();
      });
      return { released, closed: done };
    },
    shutDown: async () => {
      if (!released) {
        await host?.close();
        return;
      }
      // Retired: its app is (being) closed, its server still holds the connections handed on.
      await released.catch(() => undefined);
      if (serverClosed) return;
      await new Promise<void>((resolve) => {
        server.once("close", () => resolve());
        server.closeIdleConnections();
        server.close();
      });
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
async function moveListener(from: Server, to: FastifyInstance): Promise<void> {
  const old = from as unknown as ListeningServer;
  const handle = old._handle;
  if (!handle) throw new Error("the served host is not listening");
  await to.listen({ handle } as { port?: number });
  old._handle = null;
}

/** Both hosts, tracked so that they can be retired. */
interface Hosts {
  readonly api: RetirableHost & { readonly server: Server };
  readonly text: RetirableHost & { readonly server: Server };
  /** The apps, when these are a prepared server's (not the hosts holding requests at start); never kept once retired. */
  readonly apps?: PreparedServer;
}

const trackedHost = (host: Host) => ({ ...retirable(host), server: host.server });

const tracked = (prepared: PreparedServer): Hosts => ({
  api: trackedHost(prepared.api),
  text: trackedHost(prepared.text),
  apps: prepared,
});

/** The hosts being served, which `replace` swaps for new ones while the old ones drain. */
export class LiveHosts {
  private live: Hosts;
  private readonly retiring = new Map<Hosts, Promise<void>>();
  private closed = false;
  private closing: Promise<void> | undefined;

  private constructor(live: Hosts) {
    this.live = live;
  }

  /** Starts serving `prepared` on PORT and TEXT_PORT. */
  static async listen(prepared: PreparedServer, config: ConfigT): Promise<LiveHosts> {
    const live = tracked(prepared);
    await prepared.api.listen({ port: config.PORT, host: config.HOST });
    await prepared.text.listen({ port: config.TEXT_PORT, host: config.HOST });
    return new LiveHosts(live);
  }

  /**
   * Listens on PORT and TEXT_PORT at once with `holding` (servers that keep each request until the
   * first hosts are ready: start-holding.ts); `replace` then hands the sockets to those hosts, the
   * requests held included.
   */
  static async listenAtOnce(holding: { readonly api: Host; readonly text: Host }, config: ConfigT): Promise<LiveHosts> {
    const listen = (server: Server, port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, config.HOST, () => {
          server.off("error", reject);
          resolve();
        });
      });
    const hosts = new LiveHosts({ api: trackedHost(holding.api), text: trackedHost(holding.text) });
    try {
      await listen(holding.api.server, config.PORT);
      await listen(holding.text.server, config.TEXT_PORT);
    } catch (error) {
      await hosts.close();
      throw error;
    }
    return hosts;
  }

  get api(): FastifyInstance {
    if (!this.live.apps) throw new Error("the hosts are still being prepared");
    return this.live.apps.api;
  }

  get text(): FastifyInstance {
    if (!this.live.apps) throw new Error("the hosts are still being prepared");
    return this.live.apps.text;
  }

  /**
   * Prepares the next hosts (while these answer, the memory guard forcing no collection: its
   * allocating) and replaces these with them.
   */
  async replaceWith(prepare: () => Promise<PreparedServer>, retired?: (error?: Error) => void): Promise<void> {
    await this.replace(await allocating(prepare), retired);
  }

  /**
   * Hands both listening sockets to `next` and retires the hosts served until now, their
   * connections' later requests handed to `next`; `retired` runs once their own answers are done
   * and their apps closed (or failed to), their connections still open.
   */
  async replace(next: PreparedServer, retired: (error?: Error) => void = () => undefined): Promise<void> {
    // Shut down meanwhile (a build that finished as the server was stopped): nothing to serve.
    if (this.closed) {
      await Promise.all([next.api.close(), next.text.close()]);
      return;
    }
    const old: Hosts = { api: this.live.api, text: this.live.text };
    const moving = this.live;
    const hosts = tracked(next);
    await moveListener(moving.api.server, next.api);
    await moveListener(moving.text.server, next.text);
    this.live = hosts;
    const [api, text] = [old.api.retire(next.api.server), old.text.retire(next.text.server)];
    Promise.all([api.released, text.released]).then(
      () => retired(),
      (error: unknown) => retired(error as Error),
    );
    this.retiring.set(
      old,
      Promise.all([api.closed, text.closed]).then(
        () => void this.retiring.delete(old),
        () => void this.retiring.delete(old),
      ),
    );
  }

  /** Closes the hosts served and those still draining, whatever they hold (shutting down). */
  close(): Promise<void> {
    this.closed = true;
    const draining = [...this.retiring.keys()].flatMap((hosts) => [hosts.api.shutDown(), hosts.text.shutDown()]);
    return (this.closing ??= Promise.all([this.live.api.shutDown(), this.live.text.shutDown(), ...draining]).then(
      () => undefined,
    ));
  }
}

/**
 * `npm start`'s first start, its ports already listening (`hosts`, holding requests): serves
 * `fromSources` (every answer computed) as soon as they are prepared (`ready`), and once `building`
 * has succeeded, hands the sockets to the hosts over the build. `built` resolves true then, false
 * when the build failed (the hosts over the sources still serve); both reject when the sources
 * could not be loaded.
 */
export function serveWhileBuilding(
  hosts: LiveHosts,
  fromSources: Promise<PreparedServer>,
  building: Promise<boolean>,
  fromBuild: () => Promise<PreparedServer>,
  log: (line: string) => void,
): { ready: Promise<void>; built: Promise<boolean> } {
  const ready = fromSources.then((prepared) => hosts.replace(prepared));
  const built = Promise.all([building, ready]).then(async ([succeeded]) => {
    if (!succeeded) return false;
    await hosts.replaceWith(fromBuild, (error) => {
      if (error) log(`start: closing the hosts over the sources: ${error.message}`);
    });
    return true;
  });
  // Said once, by whoever waits for `built`.
  ready.catch(() => undefined);
  return { ready, built };
}
