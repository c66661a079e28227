/**
 * Reads deployment-check templates — evaluation included — in reader processes (./read-process.ts),
 * one template per process at a time, so that one costly template fails alone, on every face (the
 * API's and the text host's checks, MCP's check_deployment). A process, not a thread: a single
 * large allocation (`count = 10000000`, `new Array(1e9)`) in a thread with `resourceLimits` aborts
 * the whole server (nodejs/node#47224, measured: exit 134), where it ends a process alone.
 *
 * Each reading has budgets, and the process is ended (SIGKILL) when it passes one, so that the work
 * stops with the answer (issue 120: a backtracking regex went on for minutes after its 503):
 * - time: TEMPLATE_READ_SECONDS, or the request's deadline when that comes first (503 then);
 * - heap: TEMPLATE_READ_HEAP_MB of V8 old generation (V8 aborts the process past it);
 * - memory: READER_RSS_MB of resident memory, polled while it reads (what is outside V8's heap).
 * A reading past a budget is a 422 naming it; a process ended otherwise (killed from outside) a 503.
 *
 * READERS_AT_ONCE read at a time, at most one per client, the waiting clients served in turn
 * (./slots.ts): one client's costly templates leave the other reader to everyone else's. A process
 * that answered reads the next (starting one costs 0.15 s with Node's compile cache, up to 1.3 s
 * without on a loaded machine); one that read a large template, or passed a budget, is ended. Once
 * templates are read, a process is kept ready for each reader free (prepareSpare), so the next
 * request, and another client's beside a costly one, finds a process started. Spares left idle
 * IDLE_MS end, so a server at rest holds none.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HttpError } from "../../catalogue/base/problem.ts";
import { TEMPLATE_READ_HEAP_MB, TEMPLATE_READ_SECONDS } from "../../catalogue/base/limits.ts";
import { pastDeadline } from "../deadline.ts";
import { Slots } from "./slots.ts";
import { httpError } from "./error-message.ts";
import { threadEnv } from "./compile-cache.ts";
import { requestSize, type FromReader, type ReadRequest, type ReadTemplate } from "./read-messages.ts";

export type { ReadRequest, ReadTemplate } from "./read-messages.ts";

/** Templates read at once, in as many processes; the others wait, READERS_WAITING_MAX at most, then 503. */
export const READERS_AT_ONCE = 2;
const READERS_WAITING_MAX = 32;
/** A client's templates waiting at once; beyond them its next is a 503 (its strict bucket allows 10 a minute). */
const READERS_WAITING_PER_CLIENT = 8;
/** A process whose request was larger than this is ended after it: what it read may have grown its heap. */
const REUSE_MAX_CHARS = 256 * 1024;
/** A spare process left idle this long is ended. */
export const IDLE_MS = 30_000;
/**
 * A reader's resident memory at most, in MB: V8's heap budget, the process's own (node and the
 * reader's modules: 75–100 MB resident at rest, 23–42 MB of it private, the rest node's code shared
 * with the server; 105–115 MB reading a 4 MiB template) and room for the young generation and code.
 */
export const READER_RSS_MB = TEMPLATE_READ_HEAP_MB + 128;
/** How often a reading process's resident memory is read. */
const RSS_POLL_MS = 100;
/** What of a process's stderr is kept: V8's fatal line comes first, its native stack after. */
const STDERR_KEPT_CHARS = 16 * 1024;

const READ_PROCESS = fileURLToPath(new URL("./read-process.ts", import.meta.url));

/** Node's flags for a reader: its heap budget, a small young generation, one helper thread for V8. */
export const READER_FLAGS: readonly string[] = [
  `--max-old-space-size=${TEMPLATE_READ_HEAP_MB}`,
  "--max-semi-space-size=1",
  "--v8-pool-size=1",
];

const tooCostly = (details: string) => new HttpError(422, "Template too costly", details);

/** A read asked of readers that were closed (the server stopping). */
const closing = () =>
  Object.assign(new HttpError(503, "Service unavailable", "The server is stopping; retry."), { retryAfter: 5 });

const PAST_TIME = `Reading the template took more than ${TEMPLATE_READ_SECONDS} s, its budget; check it in parts.`;
const PAST_HEAP = `Reading the template needed more than ${TEMPLATE_READ_HEAP_MB} MB, its budget (a 4 MiB vendor template needs about 40); check it in parts.`;
const PAST_RSS = `Reading the template needed more than ${READER_RSS_MB} MB of memory, its budget; check it in parts.`;

/** A body the API's parser left unread: the reader parses it (a readsTemplate row's, app.ts). */
export class UnreadBody {
  private text: string;
  constructor(text: string) {
    this.text = text;
  }

  /** The text, which this body then no longer holds (a request keeps its body until it is answered). */
  take(): string {
    const text = this.text;
    this.text = "";
    return text;
  }
}

/** Where a reading stands: the request's deadline and who asks. */
export interface ReadOptions {
  readonly deadline?: number | undefined;
  readonly client?: string | undefined;
}

/** A reader process's resident memory in MB (Linux: /proc), or undefined where it cannot be read. */
function rssMb(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? (pages * 4096) / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** One reader process: started, ready once its modules are loaded, ended by its reader. */
class ReaderProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Why it ended, once it has: its exit code or signal, and what it last wrote to stderr. */
  ended: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
  /** It answered its last request (the process is well, whatever the template was). */
  answered = false;
  private stderr = "";

  constructor(script = READ_PROCESS) {
    this.child = fork(script, [], {
      execArgv: [...READER_FLAGS],
      env: threadEnv(),
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT_CHARS);
    });
    this.child.once("exit", (code, signal) => (this.ended = { code, signal }));
    // A reader that could not start (spawn failed) ends as one that died: its request is answered for it.
    this.child.on("error", () => undefined);
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: FromReader) => {
        if (!("ready" in message)) return;
        this.child.off("exit", onExit);
        resolve();
      };
      const onExit = () => {
        this.child.off("message", onMessage);
        reject(new HttpError(503, "Service unavailable", "The template reader could not start; retry."));
      };
      this.child.once("message", onMessage).once("exit", onExit);
    });
    this.ready.catch(() => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** V8 ran out of heap: a fatal error, which aborts the process. */
  get outOfHeap(): boolean {
    return this.ended?.signal === "SIGABRT" || /heap out of memory|Reached heap limit/.test(this.stderr);
  }

  /** Ends it at once, whatever it is doing. */
  kill(): void {
    if (this.ended === undefined) this.child.kill("SIGKILL");
  }

  /** Keeps it from holding the server open while idle (and lets it back while it reads). */
  hold(held: boolean): void {
    const method = held ? "ref" : "unref";
    this.child[method]();
    (this.child.channel as { [key: string]: () => void } | undefined)?.[method]?.();
  }
}

let nextId = 0;

export class TemplateReader {
  private readonly slots = new Slots(
    READERS_AT_ONCE,
    READERS_WAITING_MAX,
    () =>
      Object.assign(
        new HttpError(503, "Service unavailable", "Too many templates are waiting to be read; retry in a few seconds."),
        { retryAfter: 5 },
      ),
    { perClient: 1, perClientWaiting: READERS_WAITING_PER_CLIENT },
  );
  /** Processes ready to read, each with the timer that ends it idle; READERS_AT_ONCE at most. */
  private readonly spares = new Map<ReaderProcess, NodeJS.Timeout>();
  private closed = false;
  /** Processes reading now, ended on close. */
  private readonly reading = new Set<ReaderProcess>();
  /** The reader processes' script: read-process.ts, or a test's (one that holds its loop, as no template can). */
  private readonly script: string;

  constructor(options: { readonly script?: string } = {}) {
    this.script = options.script ?? READ_PROCESS;
  }

  /** Reads in its turn; `deadline` (the request's, ../deadline.ts) bounds the wait for the turn and the reading. */
  read(request: ReadRequest, { deadline, client }: ReadOptions = {}): Promise<ReadTemplate> {
    if (this.closed) return Promise.reject(closing());
    return this.slots.run(() => this.readInProcess(request, deadline), { deadline, client });
  }

  /** The reader processes alive now, reading or spare (what tests and the bench measure). */
  pids(): number[] {
    return [...this.reading, ...this.spares.keys()]
      .filter((reader) => reader.ended === undefined)
      .map((reader) => reader.pid)
      .filter((pid) => pid !== undefined);
  }

  /** Ends every reader process (the app's close); what still waits to be read is answered 503. */
  async close(): Promise<void> {
    this.closed = true;
    const readers = [...this.reading, ...this.spares.keys()];
    for (const timer of this.spares.values()) clearTimeout(timer);
    this.spares.clear();
    await Promise.all(
      readers.map(
        (reader) =>
          new Promise<void>((resolve) => {
            if (reader.ended !== undefined) return resolve();
            reader.child.once("exit", () => resolve());
            reader.kill();
          }),
      ),
    );
  }

  /** A spare ready to read, or undefined. */
  private takeSpare(): ReaderProcess | undefined {
    for (const [reader, timer] of this.spares) {
      this.spares.delete(reader);
      clearTimeout(timer);
      if (reader.ended === undefined) return reader;
    }
    return undefined;
  }

  /** Keeps `reader` as a spare, ended after IDLE_MS idle (at once past READERS_AT_ONCE spares, or closed). */
  private keep(reader: ReaderProcess): void {
    if (this.closed || reader.ended !== undefined || this.spares.size >= READERS_AT_ONCE) return reader.kill();
    reader.hold(false);
    const timer = setTimeout(() => {
      this.spares.delete(reader);
      reader.kill();
    }, IDLE_MS);
    timer.unref();
    this.spares.set(reader, timer);
  }

  /**
   * Spares are started so that a process is ready for each reader free: after a process ended with
   * its request, and when a read took a spare, so that the next template (another client's, while
   * one client's reads) finds a process ready rather than waiting for one to start (1–4 s on a
   * loaded machine).
   */
  private prepareSpare(): void {
    while (!this.closed && this.spares.size + this.reading.size < READERS_AT_ONCE)
      this.keep(new ReaderProcess(this.script));
  }

  private async readInProcess(request: ReadRequest, deadline: number | undefined): Promise<ReadTemplate> {
    if (this.closed) throw closing();
    const reader = this.takeSpare() ?? new ReaderProcess(this.script);
    reader.hold(true);
    this.reading.add(reader);
    this.prepareSpare();
    const reusable = requestSize(request) <= REUSE_MAX_CHARS;
    try {
      return await this.answerOf(reader, request, deadline);
    } finally {
      this.reading.delete(reader);
      // A process that answered (a deployment, or the template's refusal) reads the next; one that
      // was ended past a budget, or read a large template, is not kept.
      if (reusable && reader.answered && reader.ended === undefined) this.keep(reader);
      else {
        reader.kill();
        this.prepareSpare();
      }
    }
  }

  /** The reader's answer to `request`, or the refusal of the budget it passed (the reader then ends). */
  private answerOf(reader: ReaderProcess, request: ReadRequest, deadline: number | undefined): Promise<ReadTemplate> {
    reader.answered = false;
    return new Promise((resolve, reject) => {
      const id = nextId++;
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        reader.child.off("message", onMessage).off("exit", onExit);
        outcome();
      };
      // Past a budget the work stops with the answer: the reader is ended, not left to run on.
      const stop = (error: Error) => {
        reader.kill();
        settle(() => reject(error));
      };
      const onMessage = (message: FromReader) => {
        if ("ready" in message || message.id !== id) return;
        reader.answered = true;
        settle(() => ("ok" in message ? resolve(message.ok) : reject(httpError(message.error))));
      };
      const onExit = () => {
        // Its stderr may still be arriving: V8's fatal line is read once the pipe has closed.
        const answer = () => {
          // Said once: what ended a reader the server did not end (its own kills are budgets' 422s).
          const { code, signal } = reader.ended ?? { code: null, signal: null };
          console.error(
            `template reader: process ${reader.pid} ended (${signal ?? `exit code ${code}`}${reader.outOfHeap ? `, past its ${TEMPLATE_READ_HEAP_MB} MB heap` : ""}) reading a template of ${requestSize(request)} characters`,
          );
          settle(() =>
            reject(
              reader.outOfHeap
                ? tooCostly(PAST_HEAP)
                : Object.assign(
                    new HttpError(503, "Service unavailable", "The template's reading was interrupted; retry."),
                    { retryAfter: 1 },
                  ),
            ),
          );
        };
        if (reader.child.stderr?.readableEnded !== false) answer();
        else reader.child.stderr.once("close", answer);
      };
      reader.child.on("message", onMessage).once("exit", onExit);
      if (reader.ended !== undefined) return onExit();
      if (deadline !== undefined)
        timers.push(setTimeout(() => stop(pastDeadline()), Math.max(0, deadline - Date.now())));
      void reader.ready.then(
        () => {
          if (settled) return;
          timers.push(setTimeout(() => stop(tooCostly(PAST_TIME)), TEMPLATE_READ_SECONDS * 1000));
          const watch = setInterval(() => {
            const rss = reader.pid === undefined ? undefined : rssMb(reader.pid);
            if (rss !== undefined && rss > READER_RSS_MB) stop(tooCostly(PAST_RSS));
          }, RSS_POLL_MS);
          timers.push(watch);
          reader.child.send({ id, request });
        },
        (error: Error) => settle(() => reject(error)),
      );
    });
  }
}
