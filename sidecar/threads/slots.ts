/**
 * Runs jobs `slots` at a time; up to `waitingMax` wait their turn, and beyond them the job is
 * refused with `busy()`. Each job starts after a turn of the event loop, so that requests which
 * arrived meanwhile are read and answered first (decisions.md#heavy-off-the-loop: 200 saved-list exit
 * plans held /v1/health for 9 s). The heavy rows' queue, /mcp's, the text host's page jobs and the
 * template readers are each one.
 *
 * Fair turns (issue 120): a job names its client (the rate-limit key), and a freed slot goes to the
 * waiting client whose last job started longest ago, not to the oldest job: seven 10-second checks
 * from one address a minute made another's 50 ms check wait behind all of them (10–20 s). `perClient` caps
 * the slots one client holds at once, so that another's job finds one free; `perClientWaiting`
 * caps its jobs waiting, so that it cannot fill the queue for everyone.
 *
 * A job carries its request's deadline (../deadline.ts): one still waiting when it passes leaves the
 * queue with a 503, and one running past it is no longer waited for (its 503 is answered at once)
 * while it keeps its slot until it ends, so the jobs at once stay `slots` (the readers end theirs
 * at the deadline: ./reader.ts).
 */
import { LRUCache } from "lru-cache";
import { beforeDeadline, pastDeadline } from "../deadline.ts";

/** Clients whose last start is remembered: enough to outlast every queue's waiting clients. */
const RECENT_CLIENTS = 4096;

export interface RunOptions {
  /** Whether the client left while the job waited: asked before it starts, its error refuses it. */
  readonly gone?: () => Error | undefined;
  /** The request's deadline (epoch ms). */
  readonly deadline?: number | undefined;
  /** Who asks (the rate-limit key): turns go round the clients waiting. Jobs without one share a turn. */
  readonly client?: string | undefined;
}

export interface FairShare {
  /** Slots one client holds at once (all of them by default). */
  readonly perClient?: number;
  /** Jobs one client may have waiting (`waitingMax` by default); beyond them, `busy()`. */
  readonly perClientWaiting?: number;
}

interface Waiter {
  readonly client: string;
  readonly go: () => void;
}

export class Slots {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Waiting jobs by client, the clients in the order they came. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each client's last job started (a count of starts), for the recent ones. */
  private readonly lastStart = new LRUCache<string, number>({ max: RECENT_CLIENTS });
  private starts = 0;
  private waitingCount = 0;
  private readonly slots: number;
  private readonly waitingMax: number;
  private readonly busy: () => Error;
  private readonly perClient: number;
  private readonly perClientWaiting: number;

  constructor(slots: number, waitingMax: number, busy: () => Error, share: FairShare = {}) {
    this.slots = slots;
    this.waitingMax = waitingMax;
    this.busy = busy;
    this.perClient = share.perClient ?? slots;
    this.perClientWaiting = share.perClientWaiting ?? waitingMax;
  }

  /** Runs `job` in its turn, unless its client left or its deadline passed first. */
  async run<T>(job: () => T | Promise<T>, { gone, deadline, client = "" }: RunOptions = {}): Promise<T> {
    if (deadline !== undefined && deadline <= Date.now()) throw pastDeadline();
    if (this.running >= this.slots || this.runningOf(client) >= this.perClient) {
      const queued = this.waiting.get(client)?.length ?? 0;
      if (this.waitingCount >= this.waitingMax || queued >= this.perClientWaiting) throw this.busy();
      await this.turn(client, deadline);
    }
    // A slot handed over in a turn was taken for this job already.
    else this.take(client);
    let work: Promise<T>;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      const left = gone?.();
      if (left) throw left;
      if (deadline !== undefined && deadline <= Date.now()) throw pastDeadline();
      work = Promise.resolve(job());
    } catch (error) {
      this.release(client);
      throw error;
    }
    void work.then(
      () => this.release(client),
      () => this.release(client),
    );
    return beforeDeadline(work, deadline);
  }

  private runningOf(client: string): number {
    return this.runningBy.get(client) ?? 0;
  }

  private take(client: string): void {
    this.running++;
    this.runningBy.set(client, this.runningOf(client) + 1);
    this.lastStart.set(client, ++this.starts);
  }

  /** Resolves with a slot taken for `client`, or rejects at the deadline, leaving the queue. */
  private turn(client: string, deadline: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        client,
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer =
        deadline === undefined
          ? undefined
          : setTimeout(() => {
              if (!this.leave(waiter)) return;
              reject(pastDeadline());
            }, deadline - Date.now());
      const queue = this.waiting.get(client);
      if (queue) queue.push(waiter);
      else this.waiting.set(client, [waiter]);
      this.waitingCount++;
    });
  }

  /** Takes `waiter` out of the queue; false when it was handed a slot already. */
  private leave(waiter: Waiter): boolean {
    const queue = this.waiting.get(waiter.client);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.waiting.delete(waiter.client);
    this.waitingCount--;
    return true;
  }

  /**
   * The next job in turn: of the clients with a job waiting and a slot left to them, the one whose
   * last job started longest ago (one with none started first, in the order they came).
   */
  private next(): Waiter | undefined {
    let chosen: { client: string; queue: Waiter[]; last: number } | undefined;
    for (const [client, queue] of this.waiting) {
      if (this.runningOf(client) >= this.perClient) continue;
      const last = this.lastStart.get(client) ?? 0;
      if (!chosen || last < chosen.last) chosen = { client, queue, last };
    }
    if (!chosen) return undefined;
    const waiter = chosen.queue.shift()!;
    if (chosen.queue.length === 0) this.waiting.delete(chosen.client);
    this.waitingCount--;
    return waiter;
  }

  private release(client: string): void {
    this.running--;
    const left = this.runningOf(client) - 1;
    if (left > 0) this.runningBy.set(client, left);
    else this.runningBy.delete(client);
    while (this.running < this.slots) {
      const waiter = this.next();
      if (!waiter) break;
      this.take(waiter.client);
      waiter.go();
    }
  }
}
