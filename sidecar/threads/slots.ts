/**
 * Runs jobs `slots` at a time; up to `waitingMax` wait their turn, and beyond them the job is
 * refused with `busy()`. Each job starts after a turn of the event loop, so that requests which
 * arrived meanwhile are read and answered first (decisions.md#heavy-off-the-loop: 200 saved-list exit
 * plans held /v1/health for 9 s). The heavy rows' queue, the text host's page jobs and the template
 * readers are each one.
 *
 * A job carries its request's deadline (../deadline.ts): one still waiting when it passes leaves the
 * queue with a 503, and one running past it is no longer waited for (its 503 is answered at once)
 * while it keeps its slot until it ends, so the jobs at once stay `slots`.
 */
import { beforeDeadline, pastDeadline } from "../deadline.ts";

export interface RunOptions {
  /** Whether the client left while the job waited: asked before it starts, its error refuses it. */
  readonly gone?: () => Error | undefined;
  /** The request's deadline (epoch ms). */
  readonly deadline?: number | undefined;
}

export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Callers of idle(), told when the last job ends. */
  private readonly idleWaiters: (() => void)[] = [];
  private readonly slots: number;
  private readonly waitingMax: number;
  private readonly busy: () => Error;

  constructor(slots: number, waitingMax: number, busy: () => Error) {
    this.slots = slots;
    this.waitingMax = waitingMax;
    this.busy = busy;
  }

  /** Runs `job` in its turn, unless its client left or its deadline passed first. */
  async run<T>(job: () => T | Promise<T>, { gone, deadline }: RunOptions = {}): Promise<T> {
    if (deadline !== undefined && deadline <= Date.now()) throw pastDeadline();
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.waitingMax) throw this.busy();
      await this.turn(deadline);
    }
    // A slot freed by another is handed over with it (the `running` count stays).
    else this.running++;
    let work: Promise<T>;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      const left = gone?.();
      if (left) throw left;
      if (deadline !== undefined && deadline <= Date.now()) throw pastDeadline();
      work = Promise.resolve(job());
    } catch (error) {
      this.release();
      throw error;
    }
    void work.then(
      () => this.release(),
      () => this.release(),
    );
    return beforeDeadline(work, deadline);
  }

  /** Resolves once no job runs or waits: at once when none does. */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Resolves with a slot handed over, or rejects at the deadline, leaving the queue. */
  private turn(deadline: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer =
        deadline === undefined
          ? undefined
          : setTimeout(() => {
              const index = this.waiting.indexOf(go);
              if (index < 0) return;
              this.waiting.splice(index, 1);
              reject(pastDeadline());
            }, deadline - Date.now());
      this.waiting.push(go);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) return next();
    this.running--;
    if (this.running === 0) for (const told of this.idleWaiters.splice(0)) told();
  }
}
