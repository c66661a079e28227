/**
 * The heavy computations' thread (./pool.ts): loads the catalogue from the source the server
 * loaded its own from, then answers contract rows (a policy, an export, an exit plan, a saved
 * list's exit plan, an MCP request) with the row's own handler, so that the main thread stays free
 * for other clients. The store and the rate-limit counters are the main thread's, reached through
 * messages.
 */
import { lowerThisThreadsPriority } from "../threads/priority.ts";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { parentPort, workerData } from "node:worker_threads";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { answerRow, type RowInput } from "../../catalogue/contract/run.ts";
import {
  serializeJson,
  type OperationContext,
  type Result,
  type TemplateReading,
} from "../../catalogue/contract/endpoint.ts";
import type { BucketName } from "../../catalogue/base/limits.ts";
import { loadBuiltCatalogue, loadCatalogue } from "../../catalogue/load/load.ts";
import { StoreOutcomeUnknownError, StoreUnavailableError, type RecordStore } from "../../catalogue/contract/ports.ts";
import type { PublicUrls } from "../../catalogue/base/urls.ts";
import { answerMcp } from "../../mcp/answer.ts";
import type { Deployment } from "../../catalogue/templates/read.ts";
import {
  errorMessage,
  httpError,
  type CatalogueSource,
  type CompressRequest,
  type FromWorker,
  type ToWorker,
} from "./messages.ts";

// This thread yields the CPU to the main one: on a busy machine the plan then waits, not every other client.
lowerThisThreadsPriority();
const { source, urls, siteEntry } = workerData as { source: CatalogueSource; urls: PublicUrls; siteEntry?: string };
const catalogue = source.distDir ? loadBuiltCatalogue(source.distDir) : loadCatalogue(source.dataDir);
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

let nextCall = 0;
const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

/** The store's methods, each a round trip to the main thread. */
const store = new Proxy({} as RecordStore, {
  get: (_target, method: string) =>
    method === "then"
      ? undefined
      : (...args: unknown[]) =>
          new Promise((resolve, reject) => {
            const call = nextCall++;
            calls.set(call, { resolve, reject });
            post({ kind: "store", call, method, args });
          }),
});

/** Counts job's request in another bucket: the main thread's counter, a round trip. */
const countIn = (job: number) => (bucket: BucketName) =>
  new Promise<void>((resolve, reject) => {
    const call = nextCall++;
    calls.set(call, { resolve: () => resolve(), reject });
    post({ kind: "count", call, job, bucket });
  });

/** Reads a template for job: the server's readers (a process each, with budgets), a round trip. */
const readTemplate =
  (job: number): TemplateReading =>
  (what) =>
    new Promise<Deployment>((resolve, reject) => {
      const call = nextCall++;
      calls.set(call, { resolve: (value) => resolve(value as Deployment), reject });
      post({ kind: "read", call, job, what });
    });

port.on("message", (message: ToWorker) => {
  // Answered at once: a thread that cannot is held by a job past its deadline (pool.ts ends it).
  if (message.kind === "ping") return post({ kind: "pong", call: message.call });
  if (message.kind === "read-result") {
    const call = calls.get(message.call);
    calls.delete(message.call);
    if (message.error === undefined) call?.resolve(message.deployment);
    else call?.reject(httpError(message.error));
    return;
  }
  if (message.kind === "count-result") {
    const call = calls.get(message.call);
    calls.delete(message.call);
    if (message.error === undefined) call?.resolve(undefined);
    else call?.reject(httpError(message.error));
    return;
  }
  if (message.kind === "store-result") {
    const call = calls.get(message.call);
    calls.delete(message.call);
    if (!call) return;
    if (message.error === undefined) call.resolve(message.value);
    else
      call.reject(
        message.error.unknownOutcome
          ? new StoreOutcomeUnknownError(message.error.message)
          : message.error.unavailable
            ? new StoreUnavailableError(message.error.message)
            : new Error(message.error.message),
      );
    return;
  }
  if (message.kind === "text-page" || message.kind === "site-page") return void answerPage(message);
  if (message.kind === "warm-site") return void warmSite();
  void answer(message);
});

/** The site's modules and bundle loaded before its first page is asked for; a failure waits for that page to say it. */
async function warmSite(): Promise<void> {
  if (!siteEntry) return;
  const { loadSiteHandler } = await import("./site-render.ts");
  await loadSiteHandler(siteEntry).catch(() => undefined);
}

/** A page of the text host; its modules are loaded with the first (a thread for the API alone does without). */
async function answerPage(message: Extract<ToWorker, { kind: "text-page" | "site-page" }>): Promise<void> {
  pagesInProgress++;
  clearTimeout(collectTimer);
  try {
    let answer;
    if (message.kind === "text-page") {
      const { runTextJob } = await import("../text/computed.ts");
      answer = runTextJob(catalogue, message.page);
    } else {
      if (!siteEntry) throw new Error("this thread has no site to render");
      const { renderSitePage } = await import("./site-render.ts");
      const { locals, apiUrl, textUrl } = message.page;
      answer = await renderSitePage(siteEntry, message.page, {
        catalogue,
        store,
        ...(apiUrl ? { apiUrl } : {}),
        ...(textUrl ? { textUrl } : {}),
        ...locals,
      });
    }
    post({ kind: "page-result", job: message.job, answer });
  } catch (error) {
    post({ kind: "error", job: message.job, error: errorMessage(error) });
  } finally {
    collectWhenIdle();
  }
}

/** Pages being rendered, and the timer of the collection once none is. */
let pagesInProgress = 0;
let collectTimer: NodeJS.Timeout | undefined;

/**
 * One full collection a second after the last page: rendering leaves the thread's heap grown with
 * garbage V8 would keep until the next page (the thread idles most of the time between bursts).
 * The flag is the one response-budget.ts sets for the process.
 */
function collectWhenIdle(): void {
  pagesInProgress--;
  clearTimeout(collectTimer);
  if (pagesInProgress > 0) return;
  collectTimer = setTimeout(() => {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  }, 1000).unref();
}

function asText({ body, ...rest }: Extract<Result, { body: unknown }>): Result {
  return { ...rest, text: serializeJson(body), contentType: "application/json; charset=utf-8" };
}

/** The answer's body compressed as routes/api.ts compresses (brotli at quality 4), when asked and large enough. */
function compressed(result: Result, compress: CompressRequest | undefined): Uint8Array | undefined {
  if (!compress || !("text" in result)) return undefined;
  const body = Buffer.from(result.text);
  if (body.length < compress.minBytes) return undefined;
  if (compress.encoding === "gzip") return gzipSync(body);
  return brotliCompressSync(body, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

async function answer(message: Extract<ToWorker, { kind: "run" }>): Promise<void> {
  const row = ENDPOINTS.find((candidate) => candidate.operationId === message.operationId);
  try {
    if (!row) throw new Error(`no row ${message.operationId}`);
    const context: OperationContext = {
      catalogue,
      store,
      // No heavy row reads the status; the main thread has the sampler.
      status: undefined as never,
      urls,
      table: ENDPOINTS,
      now: () => new Date(message.now),
      startedAt: message.now,
      answerMcp,
      readTemplate: readTemplate(message.job),
    };
    // The main thread validated the input with this row's schemas (catalogue/contract/run.ts).
    const { client, deployment, ...input } = message.input as RowInput & {
      readonly client: string;
      readonly deployment?: Deployment;
    };
    const handled = await answerRow(row, context, input, {
      client,
      ...(deployment ? { deployment } : {}),
      ...(message.counts ? { countIn: countIn(message.job) } : {}),
    });
    // Serialised here: a string crosses to the main thread far cheaper than the object (1 MB for
    // a 500-service plan) would be cloned and then serialised there.
    const result = "body" in handled ? asText(handled) : handled;
    const encoded = compressed(result, message.compress);
    post({ kind: "result", job: message.job, result, ...(encoded ? { encoded } : {}) });
  } catch (error) {
    post({ kind: "error", job: message.job, error: errorMessage(error) });
  }
}

post({ kind: "ready" });
