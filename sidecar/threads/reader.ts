/**
 * Reads deployment-check templates, each in a thread of its own (./read-worker.ts) with its own
 * heap and time budget, so one costly template fails alone: the thread that exhausts its heap or
 * its time ends, its request gets a 422 naming the budget, and no other request shares that
 * thread (the heavy computations' thread, ./pool.ts, only ever sees what was read: a short list of
 * items). Threads start per request (no catalogue loaded: 0.2–0.3 s on a loaded machine),
 * READERS_AT_ONCE at a time, so eight maximum-size templates at once cost one reader's memory.
 */
import { Worker } from "node:worker_threads";
import { HttpError } from "../../catalogue/base/problem.ts";
import { Slots } from "./slots.ts";
import { errorMessage, httpError, type ErrorMessage } from "./error-message.ts";
import type { Deployment } from "../../catalogue/templates/read.ts";
import { TEMPLATE_READ_HEAP_MB, TEMPLATE_READ_SECONDS } from "../../catalogue/base/limits.ts";

/** Templates read at once; the others wait, READERS_WAITING_MAX at most, then 503. */
const READERS_AT_ONCE = 1;
const READERS_WAITING_MAX = 32;

/** What a reading thread is sent: the API's JSON body (with `template` in it), or a template's text. */
export type ReadRequest = { readonly body: string } | { readonly template: string };

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

  read(request: ReadRequest): Promise<ReadTemplate> {
    return this.slots.run(() => readInThread(request));
  }
}

function readInThread(request: ReadRequest): Promise<ReadTemplate> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./read-worker.ts", import.meta.url), {
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: TEMPLATE_READ_HEAP_MB, maxYoungGenerationSizeMb: 2, stackSizeMb: 4 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            tooCostly(`Reading the template took more than ${TEMPLATE_READ_SECONDS} s, its budget; check it in parts.`),
          ),
        ),
      TEMPLATE_READ_SECONDS * 1000,
    );
    worker.on("message", (message: FromReader) =>
      settle(() => ("ok" in message ? resolve(message.ok) : reject(httpError(message.error)))),
    );
    worker.on("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? tooCostly(
                `Reading the template needed more than ${TEMPLATE_READ_HEAP_MB} MB, its budget (a 4 MiB vendor template needs about 40); check it in parts.`,
              )
            : httpError(errorMessage(error)),
        ),
      ),
    );
    worker.on("exit", () =>
      settle(() => reject(new HttpError(503, "Service unavailable", "The template's reading was interrupted; retry."))),
    );
  });
}
