/** What the main thread and the heavy computations' thread (./worker.ts) say to each other. */
import type { ErrorMessage } from "../threads/error-message.ts";
import type { Result } from "../../catalogue/contract/endpoint.ts";
import type { BucketName } from "../../catalogue/base/limits.ts";
import type { Computed, SiteAnswer, SiteJob, TextJob } from "../text/computed.ts";
import type { TemplateToRead } from "../../catalogue/contract/endpoint.ts";
import type { Deployment } from "../../catalogue/templates/read.ts";

/** Where the worker loads its catalogue: the build's (`distDir`), or the data folder's YAML. */
export interface CatalogueSource {
  readonly distDir?: string;
  readonly dataDir?: string;
}

/** Compress the answer in this encoding when it has at least `minBytes` (routes/api.ts's threshold). */
export interface CompressRequest {
  readonly encoding: "br" | "gzip";
  readonly minBytes: number;
}

export type ToWorker =
  /** `counts`: the job may count its request in another bucket (its input's countIn), a round trip. */
  | {
      kind: "run";
      job: number;
      operationId: string;
      input: unknown;
      now: number;
      counts: boolean;
      compress?: CompressRequest;
    }
  /** A page of the text host (text/computed.ts): a text rendering, or the site's page rendered on demand. */
  | { kind: "text-page"; job: number; page: TextJob }
  | { kind: "site-page"; job: number; page: SiteJob }
  /** Load the site's bundle ahead of a page (HeavyWorker.warmSite): nothing is answered. */
  | { kind: "warm-site" }
  | { kind: "count-result"; call: number; error?: ErrorMessage }
  /** A template read for a job by the server's readers (MCP's check_deployment), or why not. */
  | { kind: "read-result"; call: number; deployment?: Deployment; error?: ErrorMessage }
  /** Are you there? Asked of a thread whose job passed its deadline: a thread whose loop is held cannot answer. */
  | { kind: "ping"; call: number }
  | {
      kind: "store-result";
      call: number;
      value?: unknown;
      error?: { message: string; unavailable: boolean; unknownOutcome: boolean };
    };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "store"; call: number; method: string; args: unknown[] }
  | { kind: "count"; call: number; job: number; bucket: BucketName }
  | { kind: "read"; call: number; job: number; what: TemplateToRead }
  | { kind: "pong"; call: number }
  | { kind: "result"; job: number; result: Result; encoded?: Uint8Array }
  | { kind: "page-result"; job: number; answer: Computed | SiteAnswer }
  | { kind: "error"; job: number; error: ErrorMessage };

export { errorMessage, httpError, type ErrorMessage } from "../threads/error-message.ts";
