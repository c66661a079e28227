/** What the main thread and the heavy computations' thread (./worker.ts) say to each other. */
import type { Result } from "../../catalogue/endpoint.ts";

/** Where the worker loads its catalogue: the build's (`distDir`), or the data folder's YAML. */
export interface CatalogueSource {
  readonly distDir?: string;
  readonly dataDir?: string;
}

export type ToWorker =
  | { kind: "run"; job: number; operationId: string; input: unknown; now: number }
  | {
      kind: "store-result";
      call: number;
      value?: unknown;
      error?: { message: string; unavailable: boolean; unknownOutcome: boolean };
    };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "store"; call: number; method: string; args: unknown[] }
  | { kind: "result"; job: number; result: Result }
  | {
      kind: "error";
      job: number;
      error: { statusCode?: number; message: string; details?: string; retryAfter?: number };
    };
