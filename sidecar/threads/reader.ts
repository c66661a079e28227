/**
 * Reads deployment-check templates in a thread with its own heap and time budget (./read-worker.ts),
 * one template at a time, so one costly template fails alone: the thread that exhausts its heap or
 * its time ends, its request gets a 422 naming the budget, and no other request was in that thread
 * (the heavy computations' thread, ./pool.ts, only ever sees what was read: a short list of items).
 * A thread that read a small template reads the next (starting one costs 0.2–0.3 s on a loaded
 * machine, more than reading most templates); one that read a large template is ended, so its heap
 * goes back, as is one left idle. READERS_AT_ONCE at a time, so eight maximum-size templates at
 * once cost one reader's memory; each waits at most until its request's deadline (../deadline.ts).
 */
import { Worker } from "node:worker_threads";
import { HttpError } from "../../catalogue/base/problem.ts";
import { Slots } from "./slots.ts";
import { errorMessage, httpError, type ErrorMessage } from "./error-message.ts";
import type { Deployment, DeploymentInputs } from "../../catalogue/templates/read.ts";
import { TEMPLATE_READ_HEAP_MB, TEMPLATE_READ_SECONDS } from "../../catalogue/base/limits.ts";
import { threadEnv } from "./compile-cache.ts";

/** Templates read at once; the others wait, READERS_WAITING_MAX at most, then 503. */
const READERS_AT_ONCE = 1;
const READERS_WAITING_MAX = 32;
/** A thread whose request was larger than this is ended after it: what it read may have grown its heap. */
const REUSE_MAX_CHARS = 256 * 1024;
/** An idle thread is ended after this long. */
const IDLE_MS = 10_000;

/**
 * What a reading thread is sent: the API's JSON body (with `template` in it), a template's text, or
 * (the text host's multipart form) a repository's files with the root to check among them.
 */
export type ReadRequest =
  | { readonly body: string }
  | { readonly template: string; readonly given?: DeploymentInputs }
  | {
      readonly files: Readonly<Record<string, string>>;
      readonly root?: string;
      readonly given?: DeploymentInputs;
    };

/**
 * What was read: the template as a deployment, and (API) the body with its template's place holding
 * READ_TEMPLATE, for the row's schema to validate the rest.
 */
export interface ReadTemplate {
  readonly body?: unknown;
  readonly deployment?: Deployment;
  /** The template could not be read (400) or passed the values budget (422): thrown once the rest is valid. */
  readonly refusal?: ErrorMessage;
}

type FromReader = { ok: ReadTemplate } | { error: ErrorMessage };

const tooCostly = (details: string) => new HttpError(422, "Template too costly", details);

/** A body the API's parser left unread: the reader parses it (a readsTemplate row's, app.ts). */
export class UnreadBody {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export class TemplateReader {
  private readonly slots = new Slots(READERS_AT_ONCE, READERS_WAITING_MAX, () =>
    Object.assign(
      new HttpError(503, "Service unavailable", "Too many templates are waiting to be read; retry in a few seconds."),
      { retryAfter: 5 },
    ),
  );
  /** The thread kept from the last small read, with the timer that ends it when left idle. */
  private idle: { readonly worker: Worker; readonly timer: NodeJS.Timeout; readonly gone: () => void } | undefined;

  /** Reads in its turn; `deadline` (the request's, ../deadline.ts) bounds the wait for the turn and the reading. */
  read(request: ReadRequest, deadline?: number): Promise<ReadTemplate> {
    return this.slots.run(() => this.readInThread(request), { deadline });
  }

  /** Resolves once no template is being read or waits to be (the upload gate's next turn waits for it). */
  settled(): Promise<void> {
    return this.slots.idle();
  }

  /** Ends the idle thread (the app's close). */
  async close(): Promise<void> {
    const idle = this.takeIdle();
    if (idle) await idle.terminate();
  }

  private takeIdle(): Worker | undefined {
    const idle = this.idle;
    this.idle = undefined;
    if (!idle) return undefined;
    clearTimeout(idle.timer);
    idle.worker.off("exit", idle.gone).off("error", idle.gone);
    return idle.worker;
  }

  private keep(worker: Worker): void {
    worker.unref();
    const timer = setTimeout(() => void this.close(), IDLE_MS);
    timer.unref();
    // Idle, it reads nothing; should it end or fail all the same, it is not handed out again.
    // (Only these listeners come off: the Worker's own, which deliver its messages, stay.)
    const gone = () => void (this.idle?.worker === worker && this.close());
    worker.on("exit", gone).on("error", gone);
    this.idle = { worker, timer, gone };
  }

  private readInThread(request: ReadRequest): Promise<ReadTemplate> {
    const worker = this.takeIdle() ?? startReader();
    worker.ref();
    const size =
      "body" in request
        ? request.body.length
        : "template" in request
          ? request.template.length
          : Object.values(request.files).reduce((total, text) => total + text.length, 0);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void, reusable = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        outcome();
        if (reusable && size <= REUSE_MAX_CHARS) this.keep(worker);
        else void worker.terminate();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              tooCostly(
                `Reading the template took more than ${TEMPLATE_READ_SECONDS} s, its budget; check it in parts.`,
              ),
            ),
          ),
        TEMPLATE_READ_SECONDS * 1000,
      );
      const onMessage = (message: FromReader) =>
        settle(() => ("ok" in message ? resolve(message.ok) : reject(httpError(message.error))), true);
      const onError = (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? tooCostly(
                  `Reading the template needed more than ${TEMPLATE_READ_HEAP_MB} MB, its budget (a 4 MiB vendor template needs about 40); check it in parts.`,
                )
              : httpError(errorMessage(error)),
          ),
        );
      const onExit = () =>
        settle(() =>
          reject(new HttpError(503, "Service unavailable", "The template's reading was interrupted; retry.")),
        );
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      worker.postMessage(request);
    });
  }
}

function startReader(): Worker {
  return new Worker(new URL("./read-worker.ts", import.meta.url), {
    env: threadEnv(),
    resourceLimits: { maxOldGenerationSizeMb: TEMPLATE_READ_HEAP_MB, maxYoungGenerationSizeMb: 2, stackSizeMb: 4 },
  });
}
