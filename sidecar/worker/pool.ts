/**
 * Runs the heavy rows' handlers (routes/api.ts `isHeavy`) in a worker thread (./worker.ts), so a
 * 500-service exit plan (0.17–0.34 s of CPU, RELIABILITY.md) does not stop the main thread from
 * answering others (decisions.md#heavy-off-the-loop); /mcp's too (a row marked `offThread`: decisions.md#mcp). The thread starts
 * with the first such request, loads the catalogue from the same source as the server, and ends
 * after IDLE_MS without work, giving its memory back. routes/api.ts queues the jobs: heavy ones
 * one at a time, /mcp's a few at once. Its store calls, its requests to count a call in another
 * bucket (an MCP tool running a strict row) and to read a template (MCP's check_deployment: the
 * server's reader processes, threads/reader.ts, read it) come back here.
 *
 * A job past its deadline is answered 503 by its queue (../threads/slots.ts); its work is stopped
 * here (issue 120: a regex wedged this thread for ten minutes, every MCP call answering 503). The
 * thread is asked whether it is there (a ping) once a job's deadline passes; a thread that does not
 * answer within WEDGED_AFTER_MS has its loop held by that job and is ended. Its other jobs are
 * started again on a new thread when they can be: those still within their deadline that counted
 * nothing in a bucket (a job is a pure computation of its input otherwise: it is answered as if run
 * once), so that one job ends alone; the others get the 503 of a computation interrupted.
 */
import { Worker } from "node:worker_threads";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import type { Endpoint, Result, TemplateReading } from "../../catalogue/contract/endpoint.ts";
import { MAX_JSON_DEPTH, type BucketName } from "../../catalogue/base/limits.ts";
import { StoreOutcomeUnknownError, StoreUnavailableError, type RecordStore } from "../../catalogue/contract/ports.ts";
import type { PublicUrls } from "../../catalogue/base/urls.ts";
import { nestsDeeperThan } from "../../catalogue/base/nesting.ts";
import { DEPTH_DETAILS } from "../json-depth.ts";
import { HttpError } from "../plugins/errors.ts";
import type { Computed, SiteAnswer, SiteJob, TextJob } from "../text/computed.ts";
import {
  errorMessage,
  httpError,
  type CatalogueSource,
  type CompressRequest,
  type FromWorker,
  type ToWorker,
} from "./messages.ts";
import { threadEnv } from "../threads/compile-cache.ts";

export type { CatalogueSource } from "./messages.ts";

/**
 * A worker without work for this long ends (the next heavy request starts another, loading the
 * catalogue again in about half a second): its catalogue and the site's bundle (50 MB) go back
 * well within a minute of the last request.
 */
export const IDLE_MS = 20_000;

/** The thread's old generation at most, in MB (its heap holds ~40 MB with the site loaded: twice that and more). */
export const WORKER_OLD_GENERATION_MB = 96;

/** How long a thread may take to answer a ping once a job's deadline has passed, before it is ended. */
export const WEDGED_AFTER_MS = 2_000;

/** A job's request: its deadline (epoch ms), and how a template it was given unread is read. */
export interface JobOptions {
  readonly deadline?: number | undefined;
  readonly readTemplate?: TemplateReading | undefined;
}

/** A row's answer, and its body compressed by the worker when asked (`compress`). */
export type WorkerResult = Result & {
  readonly encoded?: { readonly encoding: CompressRequest["encoding"]; readonly body: Buffer };
};

interface Job {
  readonly resolve: (result: never) => void;
  readonly reject: (error: Error) => void;
  /** Counts the job's request in another bucket (the route's countIn), asked for by the worker. */
  readonly countIn: ((bucket: BucketName) => Promise<void>) | undefined;
  readonly encoding: CompressRequest["encoding"] | undefined;
  /** What the thread was sent: sent again to a new thread when the one it ran in was ended. */
  readonly message: ToWorker;
  readonly options: JobOptions;
  /** The thread it runs in. */
  worker: Worker;
  /** It counted in a bucket: run again, it would count twice. */
  counted: boolean;
  /** The timer that asks the thread, at the job's deadline, whether it is there. */
  watch: NodeJS.Timeout | undefined;
}

/** The rows the thread can run: those of the table it imports. */
const WORKER_ROWS: ReadonlySet<Endpoint> = new Set(ENDPOINTS);

export class HeavyWorker {
  private worker: Worker | undefined;
  private nextJob = 0;
  private readonly jobs = new Map<number, Job>();
  private idle: NodeJS.Timeout | undefined;
  private readonly source: CatalogueSource;
  private readonly urls: PublicUrls;
  private readonly store: RecordStore;
  private readonly siteEntry: string | undefined;

  /** The thread's module: ./worker.ts (a test gives one that speaks its messages to hold the thread). */
  private readonly entry: URL;

  /** `siteEntry`: the built site's on-demand handler, for the text host's pages (text/computed.ts). */
  constructor(
    source: CatalogueSource,
    urls: PublicUrls,
    store: RecordStore,
    siteEntry?: string,
    entry = new URL("./worker.ts", import.meta.url),
  ) {
    this.source = source;
    this.urls = urls;
    this.store = store;
    this.siteEntry = siteEntry;
    this.entry = entry;
  }

  /** Whether the thread runs (started by a job or warmSite, not yet ended after IDLE_MS). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** A text page of the text host, computed in the thread. */
  textPage(page: TextJob, options: JobOptions = {}): Promise<Computed> {
    return this.post((job) => ({ kind: "text-page", job, page }), options);
  }

  /**
   * Starts the thread, with the site's bundle, when a browser is on the site and none runs: its next
   * page is often one rendered on demand (a filtered matrix, a comparison), which a thread starting
   * then makes wait about a second. It ends IDLE_MS later, as after a job.
   */
  warmSite(): void {
    if (this.siteEntry) this.warm();
  }

  /**
   * Starts the thread (with the site's bundle when it renders the site) for the jobs after the one
   * that found it ended: that one runs on the main thread rather than wait for it (issue 125: the
   * first page after idle). It ends IDLE_MS later, as after a job.
   */
  warm(): void {
    if (this.jobs.size > 0) return;
    clearTimeout(this.idle);
    if (!this.worker) {
      this.worker = this.start();
      if (this.siteEntry) this.worker.postMessage({ kind: "warm-site" } satisfies ToWorker);
    }
    this.idleLater();
  }

  /** A page of the site rendered on demand in the thread. */
  sitePage(page: SiteJob, options: JobOptions = {}): Promise<SiteAnswer> {
    return this.post((job) => ({ kind: "site-page", job, page }), options);
  }

  private post<T>(
    message: (job: number) => ToWorker,
    options: JobOptions,
    countIn?: (bucket: BucketName) => Promise<void>,
    encoding?: CompressRequest["encoding"],
  ): Promise<T> {
    clearTimeout(this.idle);
    const worker = (this.worker ??= this.start());
    const job = this.nextJob++;
    const sent = message(job);
    return new Promise<T>((resolve, reject) => {
      const entry: Job = {
        resolve: resolve,
        reject,
        countIn,
        encoding,
        message: sent,
        options,
        worker,
        counted: false,
        watch: undefined,
      };
      this.jobs.set(job, entry);
      this.watch(job, entry);
      worker.postMessage(sent);
    }).finally(() => {
      clearTimeout(this.jobs.get(job)?.watch);
      this.jobs.delete(job);
      this.idleLater();
    });
  }

  /** At the job's deadline, if it is still running, the thread is asked whether it is there. */
  private watch(id: number, job: Job): void {
    const { deadline } = job.options;
    if (deadline === undefined) return;
    job.watch = setTimeout(() => this.ping(job.worker), Math.max(0, deadline - Date.now()));
    job.watch.unref();
  }

  private readonly pings = new Map<number, () => void>();
  private nextPing = 0;

  /** Asks `worker` whether it is there: one that does not answer within WEDGED_AFTER_MS is ended. */
  private ping(worker: Worker): void {
    if (this.worker !== worker) return;
    const call = this.nextPing++;
    const timer = setTimeout(() => {
      this.pings.delete(call);
      this.endWedged(worker);
    }, WEDGED_AFTER_MS);
    timer.unref();
    this.pings.set(call, () => clearTimeout(timer));
    worker.postMessage({ kind: "ping", call } satisfies ToWorker);
  }

  /**
   * Ends a thread held by a job past its deadline. Its jobs still within their deadline that
   * counted nothing run again on a new thread; the others get the 503 of an interrupted computation.
   */
  private endWedged(worker: Worker): void {
    if (this.worker !== worker) return;
    console.error("heavy thread: a job held it past its deadline; ending it");
    this.worker = undefined;
    const now = Date.now();
    let next: Worker | undefined;
    for (const [id, job] of this.jobs) {
      if (job.worker !== worker) continue;
      const deadline = job.options.deadline;
      if (job.counted || (deadline !== undefined && deadline <= now)) {
        this.jobs.delete(id);
        clearTimeout(job.watch);
        job.reject(interrupted());
        continue;
      }
      next ??= this.worker = this.start();
      job.worker = next;
      next.postMessage(job.message);
    }
    void worker.terminate();
  }

  /** No job left: the thread ends after IDLE_MS, giving its memory back. */
  private idleLater(): void {
    if (this.jobs.size === 0) this.idle = setTimeout(() => void this.close(), IDLE_MS).unref();
  }

  /**
   * Whether the thread runs this very row: it imports the contract table (catalogue/contract/), so
   * a row of another table (a test's) runs on the main thread instead.
   */
  runs(row: Endpoint): boolean {
    return WORKER_ROWS.has(row);
  }

  run(
    operationId: string,
    input: unknown,
    now: Date,
    countIn?: (bucket: BucketName) => Promise<void>,
    compress?: CompressRequest,
    options: JobOptions = {},
  ): Promise<WorkerResult> {
    // Structured clone recurses: input nested past the bound never reaches postMessage, whoever built it.
    if (nestsDeeperThan(input, MAX_JSON_DEPTH))
      return Promise.reject(new HttpError(400, "Invalid body", `arguments: ${DEPTH_DETAILS}`));
    return this.post(
      (job) =>
        ({
          kind: "run",
          job,
          operationId,
          input,
          now: now.getTime(),
          counts: countIn !== undefined,
          ...(compress ? { compress } : {}),
        }) satisfies ToWorker,
      options,
      countIn,
      compress?.encoding,
    );
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.entry, {
      workerData: { source: this.source, urls: this.urls, ...(this.siteEntry ? { siteEntry: this.siteEntry } : {}) },
      env: threadEnv(),
      // Its heap is bounded: V8 would let a thread rendering large pages one after another grow
      // its old generation to several times what it holds (the catalogue and the site's bundle)
      // before collecting. Past the bound the thread ends, its jobs get 503, the next starts another.
      resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB, maxYoungGenerationSizeMb: 4 },
    });
    worker.unref();
    worker.on("message", (message: FromWorker) => this.receive(worker, message));
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, job] of this.jobs) {
        if (job.worker !== worker) continue;
        this.jobs.delete(id);
        clearTimeout(job.watch);
        job.reject(error);
      }
    };
    worker.on("error", (error: Error) => {
      // Past its heap bound (ERR_WORKER_OUT_OF_MEMORY) or a bug: said once, its jobs get 503.
      console.error(`heavy thread: ${error.message}`);
      fail(interrupted());
    });
    worker.on("exit", () => fail(interrupted()));
    return worker;
  }

  private receive(worker: Worker, message: FromWorker): void {
    if (message.kind === "pong") return this.pings.get(message.call)?.();
    if (message.kind === "store") return void this.storeCall(worker, message);
    if (message.kind === "count") return void this.countCall(worker, message);
    if (message.kind === "read") return void this.readCall(worker, message);
    if (message.kind === "ready") return;
    const job = this.jobs.get(message.job);
    // An answer from a thread the job no longer runs in (ended, the job sent to another) is not its answer.
    if (!job || job.worker !== worker) return;
    this.jobs.delete(message.job);
    clearTimeout(job.watch);
    if (message.kind === "page-result") return job.resolve(message.answer as never);
    if (message.kind === "result") {
      const { encoded } = message;
      // A Uint8Array once cloned across: the same bytes as a Buffer, not copied.
      const body = encoded && Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
      const result: WorkerResult =
        body && job.encoding ? { ...message.result, encoded: { encoding: job.encoding, body } } : message.result;
      return job.resolve(result as never);
    }
    job.reject(httpError(message.error));
  }

  /** Reads a template for a job, in the server's readers: its deployment, or the refusal as an error. */
  private async readCall(worker: Worker, message: Extract<FromWorker, { kind: "read" }>): Promise<void> {
    let reply: ToWorker;
    try {
      const read = this.jobs.get(message.job)?.options.readTemplate;
      if (!read) throw new Error(`job ${message.job} has no reader`);
      reply = { kind: "read-result", call: message.call, deployment: await read(message.what) };
    } catch (error) {
      reply = { kind: "read-result", call: message.call, error: errorMessage(error) };
    }
    worker.postMessage(reply);
  }

  private async countCall(worker: Worker, message: Extract<FromWorker, { kind: "count" }>): Promise<void> {
    let reply: ToWorker = { kind: "count-result", call: message.call };
    try {
      const job = this.jobs.get(message.job);
      const countIn = job?.countIn;
      if (!countIn) throw new Error(`job ${message.job} has no bucket to count in`);
      job.counted = true;
      await countIn(message.bucket);
    } catch (error) {
      reply = { ...reply, error: errorMessage(error) };
    }
    worker.postMessage(reply);
  }

  private async storeCall(worker: Worker, message: Extract<FromWorker, { kind: "store" }>): Promise<void> {
    let reply: ToWorker;
    try {
      const method = (this.store as unknown as Record<string, (...args: unknown[]) => unknown>)[message.method];
      if (typeof method !== "function") throw new Error(`no store method ${message.method}`);
      reply = { kind: "store-result", call: message.call, value: await method.apply(this.store, message.args) };
    } catch (error) {
      reply = {
        kind: "store-result",
        call: message.call,
        error: {
          message: (error as Error).message,
          unavailable: error instanceof StoreUnavailableError,
          unknownOutcome: error instanceof StoreOutcomeUnknownError,
        },
      };
    }
    worker.postMessage(reply);
  }
}

/** The 503 of a job whose thread ended under it. */
const interrupted = () =>
  Object.assign(new HttpError(503, "Service unavailable", "The computation was interrupted; retry."), {
    retryAfter: 1,
  });
