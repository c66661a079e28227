/**
 * Limits for both hosts' HTTP servers, so one client cannot hold a socket for long or make the
 * server hold much memory for it (README "Time limits").
 *
 * - headers: the request line and headers must arrive within HEADERS_MS (node `headersTimeout`);
 * - request: the whole request, body included, within REQUEST_MS (node `requestTimeout`), else 408;
 * - idle: a socket with no traffic for IDLE_MS is closed (Fastify `connectionTimeout`), always
 *   later than the request limit, so that a stalled body gets its 408 before the socket closes;
 * - keep-alive: an idle kept-alive socket is closed after keepAliveMs (75 s, nginx's default; Fastify's
 *   is 72 s), later than common clients close theirs (undici 4 s, Node's global agent 5 s, or the
 *   `Keep-Alive: timeout` Node sends, less 1–2 s; nginx's upstream and AWS's load balancers 60 s):
 *   a client that closes an idle socket first never sends a request on one the server is closing.
 *   5 s here reset kept-alive clients' requests now and then (issue 126: 8 of 2,337 with a Node
 *   agent, whose idle sockets have no timer of their own);
 * - deadline: the server's own time for a request it has read, its waits and its work, before a 503
 *   with Retry-After (deadline.ts); shorter than the idle limit, so that no request is left to it.
 * Node checks the first two every `connectionsCheckingInterval` (30 s by default): 1 s here, so a
 * limit holds to within a second.
 *
 * Pipelining: node parses every request a read brings and hands each to Fastify at once, so a
 * client writing thousands of requests without reading the answers would have them all in
 * progress together. `limitPipelining` lets PIPELINE_ACTIVE of a connection's requests run at a
 * time (answers leave in order anyway), keeps up to PIPELINE_WAITING more waiting, and answers any
 * beyond with 503 and `Connection: close`. Node stops reading a socket whose answers are not read.
 *
 * Fair turns: a request alone on its connection (an ordinary client's) starts at once; one behind
 * others of its connection starts in a later turn of the event loop, PIPELINED_PER_TURN of them
 * per turn, one connection after another. 200 connections pipelining 16 reads each started 3,200
 * requests in one turn; the turn, and every other client's wait for its answer (and for its
 * connection to be accepted: node accepts one per turn), lasted as long as all of them (issue 109).
 */
import type { Socket } from "node:net";
import { REQUEST_BODY_SECONDS, REQUEST_DEADLINE_SECONDS, REQUEST_HEADERS_SECONDS } from "../catalogue/base/limits.ts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly idleMs: number;
  readonly keepAliveMs: number;
  readonly deadlineMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: REQUEST_HEADERS_SECONDS * 1000,
  requestMs: REQUEST_BODY_SECONDS * 1000,
  idleMs: 35_000,
  keepAliveMs: 75_000,
  deadlineMs: REQUEST_DEADLINE_SECONDS * 1000,
};

/** The limits a host runs with: the defaults, with a test's shorter ones on top. */
export const httpTimeouts = (timeouts: Partial<HttpTimeouts> = {}): HttpTimeouts => ({ ...HTTP_TIMEOUTS, ...timeouts });

/** The Fastify options that set the limits (`http` goes to node's http.createServer). */
export function timeoutOptions(timeouts: Partial<HttpTimeouts> = {}) {
  const t = httpTimeouts(timeouts);
  const checkingMs = Math.min(1000, t.headersMs);
  return {
    // Node's check of the request limit runs every checkingMs: the idle limit waits for it.
    connectionTimeout: Math.max(t.idleMs, t.requestMs + 2 * checkingMs),
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    http: {
      headersTimeout: Math.min(t.headersMs, t.requestMs),
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: checkingMs,
      // client-errors.ts requireHost answers a missing Host in the host's error format.
      requireHostHeader: false,
    },
  };
}

/** Requests of one connection in progress at a time; each streams its answer with backpressure. */
export const PIPELINE_ACTIVE = 16;
/** Requests of one connection waiting for a turn; beyond them, 503 and the connection closes. */
export const PIPELINE_WAITING = 256;
/** Requests behind others of their connection started per turn of the event loop, all connections together. */
export const PIPELINED_PER_TURN = 32;

/** How long a connection refused past the cap is still read (and what it sends discarded) after its 503. */
export const LINGER_MS = 2_000;

const SLOTS = Symbol("pipelined requests");
interface Slots {
  active: number;
  readonly waiting: (() => void)[];
  /** A request past the cap was answered 503: the connection closes after it, later ones get no answer. */
  refused: boolean;
  /** In the rotation of connections whose waiting requests start in turns. */
  queued: boolean;
}

/** Connections with requests waiting to start, in the order their turns come (both hosts: one event loop). */
const rotation: Slots[] = [];
let turnComing = false;

const canStart = (slots: Slots) => slots.waiting.length > 0 && slots.active < PIPELINE_ACTIVE;

/** Puts a connection with a request that can start in the rotation. */
function queueTurn(slots: Slots): void {
  if (slots.queued || !canStart(slots)) return;
  slots.queued = true;
  rotation.push(slots);
  if (turnComing) return;
  turnComing = true;
  setImmediate(takeTurns);
}

/** Starts up to PIPELINED_PER_TURN waiting requests, one per connection in turn; the rest in the next turn. */
function takeTurns(): void {
  for (let started = 0; started < PIPELINED_PER_TURN && rotation.length > 0;) {
    const slots = rotation.shift()!;
    slots.queued = false;
    if (!canStart(slots)) continue;
    slots.waiting.shift()!();
    started++;
    if (canStart(slots)) {
      slots.queued = true;
      rotation.push(slots);
    }
  }
  turnComing = rotation.length > 0;
  if (turnComing) setImmediate(takeTurns);
}

/** Node's HTTP parser on a socket (node:_http_server sets `socket.parser`; `unconsume` hands reading back to JS). */
type ParsedSocket = Socket & { parser?: { _consumed?: boolean; unconsume?: () => void } | null };

/**
 * Closes `socket` when node would (after its last answer) without resetting it: closing a socket
 * with requests still unread makes the kernel send RST, and the client then loses the answers
 * already sent but not yet read (4,000 pipelined requests got 114 answers and ECONNRESET). So the
 * parser stops, what the client still sends is read and dropped, and the socket is closed once the
 * client closes its side or after LINGER_MS (Apache's "lingering close").
 */
function lingerOnClose(socket: ParsedSocket): void {
  socket.destroySoon = function (this: ParsedSocket) {
    const parser = this.parser;
    if (parser?._consumed && typeof parser.unconsume === "function") {
      parser.unconsume();
      parser._consumed = false;
    }
    this.removeAllListeners("data");
    this.on("data", () => undefined);
    this.resume();
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
    return this;
  };
}

/** A connection's count; once it closes it starts none of the requests it left waiting (nobody reads their answers). */
function slotsOf(socket: Socket): Slots {
  const slots: Slots = { active: 0, waiting: [], refused: false, queued: false };
  socket.once("close", () => (slots.waiting.length = 0));
  return slots;
}

/** Caps a connection's requests in progress; `reject` answers one past the cap (in the host's error shape). */
export function limitPipelining(
  app: FastifyInstance,
  reject: (request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    const socket = request.raw.socket as Socket & { [SLOTS]?: Slots };
    const slots = (socket[SLOTS] ??= slotsOf(socket));
    const start = () => {
      slots.active++;
      let released = false;
      // An answer is done when it has left for the socket (pipelined answers wait for the ones before).
      const release = () => {
        if (released) return;
        released = true;
        slots.active--;
        queueTurn(slots);
      };
      reply.raw.once("finish", release).once("close", release);
      done();
    };
    // Alone on its connection: at once. Behind others: in a later turn (fair turns, above).
    if (slots.active === 0 && slots.waiting.length === 0) return start();
    if (slots.active + slots.waiting.length < PIPELINE_ACTIVE + PIPELINE_WAITING) {
      slots.waiting.push(start);
      return queueTurn(slots);
    }
    // One 503 says it; the requests after it are dropped with the connection.
    if (slots.refused) return;
    slots.refused = true;
    lingerOnClose(socket);
    reply.header("connection", "close").header("retry-after", "1");
    void reject(request, reply);
  });
}
