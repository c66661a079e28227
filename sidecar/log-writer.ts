/**
 * Where the servers' log lines go: a file descriptor (stdout), written asynchronously from two
 * fixed buffers. The lines of one event-loop turn are joined and encoded into the buffer being
 * filled; one write is in flight at a time, from the other buffer, which is filled again only once
 * that write is done. Beyond the turn's joined string, nothing is allocated per turn or per write:
 * no Buffer whose memory waits for V8's next collection and then stays in glibc's heap.
 *
 * Not pino's destination (sonic-boom) behind it, which issue 20 asked for: sonic-boom 4 on Node
 * 22.7 and later copies every Buffer before an asynchronous write (`kCopyBuffer`, a speed-up meant
 * for its string mode: pinojs/sonic-boom#201), and in string mode turns every written string into
 * a Buffer afterwards. Under load those copies, 4–16 KiB each, outlive their write until V8's next
 * collection, and glibc's heap keeps what they held: RSS after the bench's GET URLs (by hand) was
 * 172–221 MiB with sonic-boom, 133–141 with this writer and 127–145 with no access line at all;
 * in the bench, 122 MiB against 150–166 before (BENCHMARKS.md). pino still formats every line.
 */
import { write as fsWrite, writeSync as fsWriteSync } from "node:fs";

/** How the writer reaches the descriptor; tests pass their own. */
export interface LogWriterIo {
  write: (
    fd: number,
    buffer: Buffer,
    offset: number,
    length: number,
    position: null,
    callback: (error: NodeJS.ErrnoException | null, written: number) => void,
  ) => void;
  writeSync: (fd: number, data: Buffer) => number;
}

export interface LogWriterOptions {
  /** Each of the two buffers. A turn's lines longer than this are written in pieces of lines. */
  readonly bufferBytes?: number;
  /**
   * A write starts once this much is gathered (or at the next flush). An asynchronous write costs
   * the process ~40 µs of CPU (the thread pool's hand-off and the syscall) whatever its size up to
   * 64 KiB: ~10 µs a KiB written 4 KiB at a time, ~1.4 at 32 KiB (BENCHMARKS.md).
   */
  readonly minWriteBytes?: number;
  /** What is gathered is written at least this often. */
  readonly flushMs?: number;
  /** Lines waiting behind a full buffer, in UTF-16 units, past which new lines are dropped (and counted). */
  readonly maxWaitingChars?: number;
  readonly io?: LogWriterIo;
}

/** The bytes of the write in flight, and how far it has come; `retrying` after the descriptor said EAGAIN. */
interface InFlight {
  readonly bytes: Buffer;
  from: number;
  retrying: boolean;
}

/** A busy non-blocking pipe: the same bytes are tried again after this long (sonic-boom's wait). */
const BUSY_RETRY_MS = 100;

export class LogWriter {
  private readonly fd: number;
  private readonly io: LogWriterIo;
  private readonly bufferBytes: number;
  private readonly minWriteBytes: number;
  private readonly maxWaitingChars: number;
  /** The buffer being filled, and how much of it is. */
  private filling: Buffer;
  private used = 0;
  /** The other buffer: free, or being written (then `inFlight` is set). */
  private spare: Buffer;
  private inFlight: InFlight | undefined;
  /** This turn's lines, joined and encoded when the turn ends. */
  private turn: string[] = [];
  /** Joined lines that did not fit in `filling` while the other buffer was being written. */
  private waiting: string[] = [];
  private waitingChars = 0;
  private dropped = 0;
  private failed = false;

  constructor(fd: number, options: LogWriterOptions = {}) {
    this.fd = fd;
    this.io = options.io ?? { write: fsWrite, writeSync: fsWriteSync };
    this.bufferBytes = options.bufferBytes ?? 64 * 1024;
    this.minWriteBytes = options.minWriteBytes ?? 32 * 1024;
    this.maxWaitingChars = options.maxWaitingChars ?? 8 * 1024 * 1024;
    this.filling = Buffer.allocUnsafeSlow(this.bufferBytes);
    this.spare = Buffer.allocUnsafeSlow(this.bufferBytes);
    setInterval(() => this.flush(), options.flushMs ?? 1000).unref();
  }

  /** Gathers a line (with its newline); the turn's lines are encoded together once the turn is done. */
  write(line: string): void {
    if (this.turn.push(line) === 1) setImmediate(() => this.endTurn());
  }

  /** Writes what is gathered now, or right after the write in flight. */
  flush(): void {
    this.endTurn();
    if (!this.inFlight && this.used > 0) this.startWrite();
  }

  /**
   * Writes everything gathered synchronously (the process is exiting). A write in flight is left
   * to finish, as its bytes may be in the descriptor already; one waiting to be tried again is not.
   */
  flushSync(): void {
    this.gatherTurn();
    if (this.failed) return;
    if (this.inFlight?.retrying) this.writeAllSync(this.inFlight.bytes.subarray(this.inFlight.from));
    this.writeAllSync(this.filling.subarray(0, this.used));
    this.used = 0;
    for (const text of this.waiting) this.writeAllSync(Buffer.from(text));
    this.waiting = [];
    this.waitingChars = 0;
  }

  private endTurn(): void {
    this.gatherTurn();
    this.encodeWaiting();
    this.next();
  }

  /** The turn's lines, joined, join the waiting text. */
  private gatherTurn(): void {
    const lines = this.turn;
    if (lines.length === 0) return;
    this.turn = [];
    if (this.failed) return;
    // Joined in pieces that fit an empty buffer (a UTF-16 unit is at most 3 bytes of UTF-8).
    const limit = Math.floor(this.bufferBytes / 3);
    for (let start = 0; start < lines.length;) {
      let end = start + 1;
      let chars = lines[start]!.length;
      while (end < lines.length && chars + lines[end]!.length <= limit) chars += lines[end++]!.length;
      if (this.waitingChars + chars > this.maxWaitingChars) this.dropped += end - start;
      else {
        this.waiting.push(end - start === 1 ? lines[start]! : lines.slice(start, end).join(""));
        this.waitingChars += chars;
      }
      start = end;
    }
  }

  /** Moves waiting text into the buffer being filled, in order, while it fits. */
  private encodeWaiting(): void {
    while (this.waiting.length > 0) {
      const text = this.waiting[0]!;
      const room = this.bufferBytes - this.used;
      if (text.length * 3 > room) {
        const bytes = Buffer.byteLength(text);
        if (bytes > room) {
          // A line longer than a whole buffer is written from a Buffer of its own, once it is next.
          if (bytes > this.bufferBytes && this.used === 0 && !this.inFlight) {
            this.shiftWaiting();
            this.send(Buffer.from(text));
          }
          return;
        }
      }
      this.used += this.filling.write(text, this.used);
      this.shiftWaiting();
    }
  }

  private shiftWaiting(): void {
    this.waitingChars -= this.waiting.shift()!.length;
  }

  /** Starts the next write if none is in flight and enough is gathered, or lines wait for room. */
  private next(): void {
    if (this.inFlight) return;
    if (this.used >= this.minWriteBytes || (this.used > 0 && this.waiting.length > 0)) this.startWrite();
  }

  /** Hands the filled buffer to a write and starts filling the other one. */
  private startWrite(): void {
    const bytes = this.filling.subarray(0, this.used);
    [this.filling, this.spare] = [this.spare, this.filling];
    this.used = 0;
    this.send(bytes);
    this.encodeWaiting();
  }

  private send(bytes: Buffer): void {
    const inFlight: InFlight = { bytes, from: 0, retrying: false };
    this.inFlight = inFlight;
    const writeRest = () => this.io.write(this.fd, bytes, inFlight.from, bytes.length - inFlight.from, null, onWritten);
    const onWritten = (error: NodeJS.ErrnoException | null, written: number) => {
      if (error?.code === "EAGAIN" || error?.code === "EBUSY") {
        // A non-blocking pipe that is full: the same bytes, a little later.
        inFlight.retrying = true;
        setTimeout(() => {
          inFlight.retrying = false;
          writeRest();
        }, BUSY_RETRY_MS).unref();
        return;
      }
      if (error) return this.fail(error);
      inFlight.from += written;
      if (inFlight.from < bytes.length) return writeRest();
      this.inFlight = undefined;
      if (this.dropped > 0) {
        const line = `{"level":40,"time":${Date.now()},"msg":"log: ${this.dropped} lines dropped: the log's reader did not keep up"}\n`;
        this.dropped = 0;
        this.waiting.push(line);
        this.waitingChars += line.length;
      }
      this.encodeWaiting();
      this.next();
    };
    writeRest();
  }

  /** Nowhere to write (a closed pipe, a full disk): said once, then lines are no longer kept. */
  private fail(error: NodeJS.ErrnoException): void {
    this.failed = true;
    this.inFlight = undefined;
    this.waiting = [];
    this.waitingChars = 0;
    process.emitWarning(`log: writing to fd ${this.fd} failed (${error.code ?? error.message}); no more log lines`);
  }

  private writeAllSync(data: Buffer): void {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let at = 0, busy = 0; at < data.length;) {
      try {
        at += this.io.writeSync(this.fd, data.subarray(at));
      } catch (error) {
        // A full non-blocking pipe: wait for its reader, a second at most.
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || ++busy > 100) return;
        Atomics.wait(pause, 0, 0, 10);
      }
    }
  }
}
