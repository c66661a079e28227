/**
 * The text host's computed pages (a search, a matrix for some providers, a comparison, a filtered
 * lifecycle, a saved list and its exit plan, and the site's pages rendered on demand) as jobs: pure
 * functions of the catalogue and the request's input. Each costs 10–300 ms of CPU, and any query is
 * a new one, so a cache alone bounds nothing: 60 clients asking new matrices held the event loop,
 * and the API host's /v1/health behind it, for seconds. So they run in the heavy computations'
 * thread (worker/worker.ts), at most PAGE_SLOTS at once and PAGE_WAITING_MAX waiting (then 503 and
 * Retry-After), and their answers are kept by job in a bounded LRU, so a repeated query costs a
 * lookup. Without the thread (a catalogue made in memory, in tests), the same jobs run here, one
 * at a time with the event loop turning between them.
 */
import { LRUCache } from "lru-cache";
import type { Catalogue } from "../../catalogue/load/load.ts";
import type { ExitTargetT } from "../../catalogue/schema/index.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import type { StoredList } from "../store/store.ts";
import { Slots } from "../threads/slots.ts";
import { beforeDeadline } from "../deadline.ts";
import { deploymentCheckBody } from "./deployment-check.ts";
import { exitPlanBody } from "./exit-plan.ts";
import { registerBody } from "./register.ts";
import { comparePathBody, filteredLifecycleBody, savedListBody } from "./pages.ts";
import type { Computed, JobWait, PagesComputer, Shape, SiteAnswer, SiteJob } from "./computed-shapes.ts";

export {
  waitFor,
  type JobWait,
  type Computed,
  type PagesComputer,
  type Shape,
  type SiteAnswer,
  type SiteJob,
} from "./computed-shapes.ts";
import { compareQueryBody, equivalenceGroupBody, equivalentsBody, searchBody } from "./site.ts";

/** The jobs, by name: each a pure function of the catalogue and its (cloneable) input. */
export const TEXT_JOBS = {
  search: (catalogue: Catalogue, input: Shape & { query: string }) => searchBody(catalogue, input),
  equivalents: (catalogue: Catalogue, input: Shape & { query: string }) => equivalentsBody(catalogue, input),
  equivalenceGroup: (catalogue: Catalogue, input: Shape & { id: string }) => equivalenceGroupBody(catalogue, input),
  compareQuery: (catalogue: Catalogue, input: Shape & { query: string }) => compareQueryBody(catalogue, input),
  comparePath: (catalogue: Catalogue, input: Shape & { ids: string }) => comparePathBody(catalogue, input),
  lifecycle: (
    catalogue: Catalogue,
    input: Shape & { query: Record<string, unknown>; now: number; apiUrl?: string | undefined },
  ) => filteredLifecycleBody(catalogue, input),
  savedList: (catalogue: Catalogue, input: Shape & { list: StoredList; apiUrl?: string | undefined }) =>
    savedListBody(catalogue, input),
  exitPlan: (
    catalogue: Catalogue,
    input: Shape & { list: StoredList; to: ExitTargetT; defaulted: boolean; textUrl: string; asDoc?: boolean },
  ) => exitPlanBody(catalogue, input),
  register: (catalogue: Catalogue, input: Parameters<typeof registerBody>[1]) => registerBody(catalogue, input),
  deploymentCheck: (catalogue: Catalogue, input: Parameters<typeof deploymentCheckBody>[1]) =>
    deploymentCheckBody(catalogue, input),
} as const satisfies Record<string, (catalogue: Catalogue, input: never) => Computed>;

type Jobs = typeof TEXT_JOBS;
export type TextJob = { [K in keyof Jobs]: { readonly name: K; readonly input: Parameters<Jobs[K]>[1] } }[keyof Jobs];

export function runTextJob(catalogue: Catalogue, job: TextJob): Computed {
  return (TEXT_JOBS[job.name] as (catalogue: Catalogue, input: unknown) => Computed)(catalogue, job.input);
}

/** The thread the jobs run in (worker/pool.ts HeavyWorker). */
export interface PageWorker {
  /** `deadline`: the request's, past which the thread is ended if the job holds it (worker/pool.ts). */
  textPage(job: TextJob, options?: { readonly deadline?: number | undefined }): Promise<Computed>;
  sitePage(job: SiteJob, options?: { readonly deadline?: number | undefined }): Promise<SiteAnswer>;
  /** Gets ready for a site page soon (a browser is on the site). */
  warmSite?(): void;
  /** Whether the thread runs; one that does not is started by `warm` (HeavyWorker). */
  readonly running?: boolean;
  warm?(): void;
}

/** Jobs in the worker at once: enough to hide the round trip between the threads. */
export const PAGE_SLOTS = 2;
/** Jobs waiting for a slot, already read and parsed; beyond them, 503. */
export const PAGE_WAITING_MAX = 256;
/** What the kept answers hold at most (bodies and keys). */
export const PAGE_CACHE_BYTES = 4 * 1024 * 1024;
/** An answer larger than this is not kept (a 500-service plan): it would push out many small ones. */
const KEPT_BODY_MAX = 1024 * 1024;

export const PAGES_BUSY_DETAILS = "Too many pages are being computed; retry in a few seconds.";

const pagesBusy = () => Object.assign(new HttpError(503, "Service unavailable", PAGES_BUSY_DETAILS), { retryAfter: 5 });

/** The client left while its job waited: the job is skipped. */
const leftWhen = (gone: (() => boolean) | undefined) => () =>
  gone?.()
    ? Object.assign(new HttpError(503, "Service unavailable", "The client went away."), { retryAfter: 1 })
    : undefined;

type Kept =
  { readonly kind: "text"; readonly computed: Computed } | { readonly kind: "site"; readonly answer: SiteAnswer };

const keptSize = (kept: Kept) =>
  kept.kind === "site"
    ? kept.answer.body.byteLength + 512
    : "body" in kept.computed
      ? kept.computed.body.length * 2 + 256
      : 512;

/** Runs the text host's computed pages, in the worker when there is one, and keeps their answers. */
export class ComputedPages implements PagesComputer {
  private readonly catalogue: Catalogue;
  private readonly worker: PageWorker | undefined;
  private readonly queue: Slots;
  private readonly kept = new LRUCache<string, Kept>({
    maxSize: PAGE_CACHE_BYTES,
    sizeCalculation: (kept, key) => keptSize(kept) + key.length * 2,
  });
  /** Answers being computed: a request for one waits for it rather than start another. */
  private readonly computing = new Map<string, Promise<Kept>>();

  constructor(catalogue: Catalogue, worker?: PageWorker) {
    this.catalogue = catalogue;
    this.worker = worker;
    this.queue = new Slots(worker ? PAGE_SLOTS : 1, PAGE_WAITING_MAX, pagesBusy);
  }

  /**
   * Site pages render in the worker whenever there is one: its bundle (50 MB, seconds to load) is
   * never loaded on this thread. A cold thread is started by the page and renders it.
   */
  get rendersSite(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Whether a text page runs in the worker: one that runs. One that ended after its idle time is
   * started for the pages after this one, which runs here (10–300 ms of this thread) rather than
   * wait about a second, and seconds under load, for the thread to load the catalogue (issue 125).
   */
  private inWorker(): boolean {
    if (!this.worker) return false;
    if (this.worker.running !== false) return true;
    this.worker.warm?.();
    return false;
  }

  /**
   * A text page. Jobs of a saved list are not kept: the list is in their input, and it expires; nor
   * is a deployment check, whose input is a template of up to megabytes.
   */
  async text(job: TextJob, wait?: JobWait): Promise<Computed> {
    const unkept =
      job.name === "savedList" || job.name === "exitPlan" || job.name === "register" || job.name === "deploymentCheck";
    const key = unkept ? undefined : `text\0${JSON.stringify(job)}`;
    const compute = async (): Promise<Kept> => ({
      kind: "text",
      computed: await this.queue.run(
        () =>
          this.worker && this.inWorker()
            ? this.worker.textPage(job, { deadline: wait?.deadline })
            : runTextJob(this.catalogue, job),
        { gone: leftWhen(wait?.gone), deadline: wait?.deadline, client: wait?.client },
      ),
    });
    const kept = await this.keep(key, compute, wait?.deadline);
    return (kept as Extract<Kept, { kind: "text" }>).computed;
  }

  /** A site page rendered in the worker; `key` (the job's URL and what it reads of the request) keeps it. */
  async site(job: SiteJob, key: string | undefined, wait?: JobWait): Promise<SiteAnswer> {
    const worker = this.worker;
    if (!worker) throw new Error("no worker renders the site's pages");
    const compute = async (): Promise<Kept> => ({
      kind: "site",
      answer: await this.queue.run(() => worker.sitePage(job, { deadline: wait?.deadline }), {
        gone: leftWhen(wait?.gone),
        deadline: wait?.deadline,
        client: wait?.client,
      }),
    });
    const kept = await this.keep(key === undefined ? undefined : `site\0${key}`, compute, wait?.deadline);
    return (kept as Extract<Kept, { kind: "site" }>).answer;
  }

  private async keep(key: string | undefined, compute: () => Promise<Kept>, deadline?: number): Promise<Kept> {
    if (key === undefined) return compute();
    const hit = this.kept.get(key);
    if (hit) return hit;
    const shared = this.computing.get(key);
    if (shared) return beforeDeadline(shared, deadline);
    const computing = compute();
    this.computing.set(key, computing);
    try {
      const kept = await computing;
      const ok = kept.kind === "site" ? kept.answer.status === 200 : kept.computed.status === 200;
      if (ok && keptSize(kept) <= KEPT_BODY_MAX) this.kept.set(key, kept);
      return kept;
    } finally {
      this.computing.delete(key);
    }
  }
}
