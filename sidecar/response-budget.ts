/**
 * A process-wide bound on the memory held for files being sent (decisions.md#bounded-memory). A file is streamed
 * from disk in chunks of STREAM_CHUNK_BYTES, so one answer holds at most STREAM_HOLD_BYTES
 * (the read buffer, the chunk in hand, the socket's buffer); a file answer starts only when it is
 * its connection's turn (pipelined answers leave in order, so one waiting would only fill a buffer);
 * and at most STREAM_SLOTS answers stream at once in the process. An answer beyond them waits for a
 * slot, up to STREAM_QUEUE of them for at most STREAM_WAIT_MS; beyond that, 503 and Retry-After.
 *
 * A client that does not read holds its slot until the idle limit closes its socket
 * (http-limits.ts); a slot is given back when its answer is sent or its socket closes.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { collectGarbage } from "./memory-guard.ts";
import { HttpError } from "./plugins/errors.ts";

/** The chunk size of a file read for an answer (node's default is 64 KiB). */
export const STREAM_CHUNK_BYTES = 16 * 1024;
/** What one streamed answer may hold at once: read buffer, one read in flight, the socket's buffer and a chunk. */
export const STREAM_HOLD_BYTES = 4 * STREAM_CHUNK_BYTES;
/** Answers streaming at once in the process: STREAM_SLOTS × STREAM_HOLD_BYTES = 64 MiB at most. */
export const STREAM_SLOTS = 1024;
/** Answers waiting for a slot; beyond them, 503 at once. */
export const STREAM_QUEUE = 4096;
/** How long an answer waits for a slot before its 503. */
export const STREAM_WAIT_MS = 10_000;

export const BUSY_DETAILS = "Too many answers are being sent to clients that do not read them; retry in a few seconds.";

/**
 * After a burst of at least this many streamed answers, once the budget is idle for IDLE_COLLECT_MS,
 * one full garbage collection: an idle server allocates nothing, so V8 would otherwise keep the
 * burst's buffers and request objects (RSS 276 MB a minute after 200 non-reading clients left,
 * against 157 MB before them; RELIABILITY.md).
 */
export const COLLECT_AFTER_ANSWERS = 256;
export const IDLE_COLLECT_MS = 1_000;

interface Waiter {
  readonly grant: () => void;
  readonly timer: NodeJS.Timeout;
}

/** Counts the slots in use; FIFO for the answers waiting. */
export class StreamBudget {
  private inUse = 0;
  private readonly waiting: Waiter[] = [];
  private grantedSinceCollect = 0;
  private collectTimer: NodeJS.Timeout | undefined;

  readonly slots: number;
  readonly queue: number;
  readonly waitMs: number;

  constructor(slots = STREAM_SLOTS, queue = STREAM_QUEUE, waitMs = STREAM_WAIT_MS) {
    this.slots = slots;
    this.queue = queue;
    this.waitMs = waitMs;
  }

  /** Slots in use and answers waiting (for tests and the benchmark). */
  get usage(): { streaming: number; waiting: number } {
    return { streaming: this.inUse, waiting: this.waiting.length };
  }

  /**
   * Waits until `response` is its connection's turn and a slot is free. Resolves with the function
   * that gives the slot back (called once the answer is done, also on its own), or undefined when
   * the client went away first; throws HttpError 503 when no slot came in time.
   */
  async acquire(response: ServerResponse, socket: Socket): Promise<(() => void) | undefined> {
    if (!(await connectionsTurn(response, socket))) return undefined;
    if (!(await this.slot(socket))) return undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release();
    };
    response.once("close", release).once("finish", release);
    if (socket.destroyed) release();
    return socket.destroyed ? undefined : release;
  }

  /** A slot: true when granted, false when the socket closed while waiting (no slot taken). */
  private slot(socket: Socket): Promise<boolean> {
    if (socket.destroyed) return Promise.resolve(false);
    if (this.inUse < this.slots) {
      this.inUse++;
      this.granted();
      return Promise.resolve(true);
    }
    if (this.waiting.length >= this.queue) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const leave = (outcome: () => void) => {
        clearTimeout(waiter.timer);
        socket.off("close", gone);
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        outcome();
      };
      const gone = () => leave(() => resolve(false));
      const waiter: Waiter = {
        grant: () => {
          this.granted();
          leave(() => resolve(true));
        },
        timer: setTimeout(() => leave(() => reject(busy())), this.waitMs),
      };
      socket.once("close", gone);
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    // The slot passes to the next answer waiting (grant takes it off the queue), or is free.
    const next = this.waiting[0];
    if (next) next.grant();
    else this.inUse--;
    if (this.inUse === 0 && this.grantedSinceCollect >= COLLECT_AFTER_ANSWERS) {
      this.collectTimer = setTimeout(() => {
        this.grantedSinceCollect = 0;
        collectGarbage();
      }, IDLE_COLLECT_MS).unref();
    }
  }

  /** A slot was granted: the burst goes on, so no collection yet. */
  private granted(): void {
    this.grantedSinceCollect++;
    clearTimeout(this.collectTimer);
  }
}

function busy(): HttpError {
  return Object.assign(new HttpError(503, "Service unavailable", BUSY_DETAILS), { retryAfter: 5 });
}

/**
 * Resolves true when node hands `response` its socket (the answers before it on the connection
 * are sent), false when the socket closes first.
 */
function connectionsTurn(response: ServerResponse, socket: Socket): Promise<boolean> {
  if (response.socket) return Promise.resolve(true);
  if (socket.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onSocket = () => {
      socket.off("close", onClose);
      resolve(true);
    };
    const onClose = () => {
      response.off("socket", onSocket);
      resolve(false);
    };
    response.once("socket", onSocket);
    socket.once("close", onClose);
  });
}

/** The one budget of this process: both hosts stream from the same build. */
export const streamBudget = new StreamBudget();

/**
 * Computed pages of the text host being sent at once in the process. A computed answer is in
 * memory whole (a matrix in HTML is 0.3–1 MB), so a client that does not read holds all of it,
 * not a file's chunks: PAGE_STREAMS bounds what such clients hold together, the rest wait as files do.
 */
export const PAGE_STREAMS = 32;
export const pageBudget = new StreamBudget(PAGE_STREAMS);
