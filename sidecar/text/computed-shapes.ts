/**
 * What the text host's computed pages are made of, apart from the jobs themselves (computed.ts):
 * an answer, the shape every job is given, the site's pages rendered on demand, and the computer
 * the handlers call. A leaf module, so the handlers that are jobs (site.ts, pages.ts, exit-plan.ts)
 * and the queue that runs them (computed.ts) import no cycle.
 */
import type { FastifyRequest } from "fastify";
import type { SitePageData } from "../../catalogue/outputs/pages.ts";
import type { TextFormat } from "../../catalogue/outputs/static.ts";
import { deadlineOf } from "../deadline.ts";
import { clientKey } from "../plugins/limit-store.ts";

/** The rendering a text-host answer is in: a text format, or HTML. */
export type Rendering = TextFormat | "html";

/** A computed page: its body, or the error to answer in the request's rendering. */
export type Computed =
  | { readonly status: 200; readonly body: string }
  | { readonly status: number; readonly title: string; readonly detail: string };

/** What every text job is given beside its own input. */
export interface Shape {
  readonly rendering: Rendering;
  readonly width: number;
}

/** A page of the site rendered on demand (site-page.ts): the URL Astro is handed, the request's headers, locals beside the catalogue and store. */
export interface SiteJob {
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly locals: SitePageData;
  readonly apiUrl?: string | undefined;
  /** The text host's public URL, for what a page prints of it ("curl <url>/aws"), never the request's Host. */
  readonly textUrl?: string | undefined;
}

/** Its answer as Astro wrote it. */
export interface SiteAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Uint8Array;
}

/** What a job waits for its turn on behalf of: whether its client went away (a job still waiting for it is skipped), and its request's deadline (../deadline.ts). */
export interface JobWait {
  readonly gone: () => boolean;
  readonly deadline: number | undefined;
  /** Who asks (the rate-limit key): the page queue serves waiting clients in turn (threads/slots.ts). */
  readonly client?: string;
}

export const waitFor = (request: FastifyRequest): JobWait => ({
  gone: () => request.raw.socket?.destroyed === true,
  deadline: deadlineOf(request),
  client: clientKey(request.ip),
});

/**
 * What the handlers call to run a job (computed.ts ComputedPages): a text page by job name and
 * input, or a site page; answers kept by job.
 */
export interface PagesComputer {
  /** Whether site pages render in the worker thread. */
  readonly rendersSite: boolean;
  text(job: { readonly name: string; readonly input: object }, wait?: JobWait): Promise<Computed>;
  site(job: SiteJob, key: string | undefined, wait?: JobWait): Promise<SiteAnswer>;
}
