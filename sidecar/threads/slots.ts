/**
 * Runs jobs `slots` at a time; up to `waitingMax` wait their turn, and beyond them the job is
 * refused with `busy()`. Each job starts after a turn of the event loop, so that requests which
 * arrived meanwhile are read and answered first (decisions.md#heavy-off-the-loop: 200 saved-list exit
 * plans held /v1/health for 9 s). The heavy rows' queue, the text host's page jobs and the template
 * readers are each one.
 */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly slots: number;
  private readonly waitingMax: number;
  private readonly busy: () => Error;

  constructor(slots: number, waitingMax: number, busy: () => Error) {
    this.slots = slots;
    this.waitingMax = waitingMax;
    this.busy = busy;
  }

  /** Runs `job` in its turn; `gone` (the client left while it waited) is asked first and refuses it. */
  async run<T>(job: () => T | Promise<T>, gone?: () => Error | undefined): Promise<T> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.waitingMax) throw this.busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    // A slot freed by another is handed over with it (the `running` count stays).
    else this.running++;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      const left = gone?.();
      if (left) throw left;
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
