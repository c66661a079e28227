/**
 * What a row of the contract table (contract/) is: method, path, schemas, bucket, cache policy,
 * handler and, for static endpoints, the files the build writes. Everything that serves or
 * describes the API reads rows of this shape, and is handed the table it serves, so a test can
 * add a row and see every face pick it up.
 */
import type { z } from "zod";
import type { BucketName } from "../base/limits.ts";
import type { Catalogue } from "../load/load.ts";
import type { RecordStore, StatusSource } from "./ports.ts";

import type { PublicUrls } from "../base/urls.ts";
import type { Deployment, DeploymentInputs } from "../templates/read.ts";
import { API_MAJOR } from "../base/version.ts";

export { API_MAJOR, API_VERSION } from "../base/version.ts";
export type { PublicUrls } from "../base/urls.ts";

export { ERROR_REASONS } from "../base/error-catalogue.ts";

/**
 * How caches may keep an answer:
 * `public` — `public, max-age=READ_CACHE_SECONDS` with a strong ETag;
 * `revalidate` — `no-cache`: kept, but checked (ETag) before every reuse;
 * `until-expiry` — like public, but never past the `expiresAt` the handler returns (for a saved
 *   list, the moment a read would renew it: lists.ts reusableUntil);
 * `no-store` — never kept (POSTs, status, health).
 */
export type CachePolicy = "public" | "revalidate" | "until-expiry" | "no-store";

/** A path parameter that can name a file: lowercase kebab-case, as service slugs are. */
export const FILE_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface StaticFile {
  /** Path relative to the build's api/ (or text/) folder. */
  readonly file: string;
  readonly body: string;
}

/** A static endpoint: the build writes its answers as files, served by a CDN or nginx in production. */
export interface StaticSpec {
  /**
   * The file (relative to `root`) that answers the request without a query; `{name}` stands for
   * the path parameter of that name, which must match FILE_SEGMENT (a rest parameter: be a safe
   * relative path).
   */
  readonly file: string;
  /** Where `file` is: `api` (dist/api, the default) or `dist` (the whole build, for mirrors). */
  readonly root?: "api" | "dist";
  /**
   * Every file the build writes for this row, relative to dist/api. Absent where a later build step writes it (the
   * manifest hashes every other file) or where the row serves what other rows wrote (the mirror).
   */
  readonly files?: (catalogue: Catalogue, urls: PublicUrls, table: readonly Endpoint[]) => Iterable<StaticFile>;
  /**
   * Served byte for byte as the build wrote it, even by a server on other URLs than the build's
   * (which rewrites them in every other text file): the bytes the manifest's hashes name.
   */
  readonly asBuilt?: boolean;
  /** Prefixes inside `root` never served (the site's server bundles: they hold the build machine's paths). */
  readonly withheld?: readonly string[];
  /** `?page=N` (with `limit` absent or equal to `limit`) has a file of its own; other queries go to the sidecar. */
  readonly pages?: { readonly file: string; readonly limit: number };
}

/** Where a request is answered: from a file, from a file unless a query asks for more, or always computed. */
export type Serving = "static" | "static+sidecar" | "sidecar";

/** What a handler needs. */
export interface OperationContext {
  readonly catalogue: Catalogue;
  readonly store: RecordStore;
  readonly status: StatusSource;
  readonly urls: PublicUrls;
  /** The table being served (discovery and OpenAPI describe it). */
  readonly table: readonly Endpoint[];
  readonly now: () => Date;
  /** Epoch ms when the process started. */
  readonly startedAt: number;
  /** The MCP server (mcp/), where this process serves POST /mcp: the sidecar and its worker hand it in. */
  readonly answerMcp?: McpAnswerer;
  /**
   * Reads a template given to a row unread (MCP's check_deployment) where the server reads them, in
   * a reader process with its own budgets (sidecar/threads/reader.ts); absent, the row reads it in
   * place. A template it cannot read, or past a budget, is thrown as the HttpError answering it.
   */
  readonly readTemplate?: TemplateReading;
}

/** A template to read, as a row's body gives it: its text or JSON value, or a module's .tf files. */
export type TemplateToRead =
  | { readonly template: unknown; readonly given?: DeploymentInputs }
  | {
      readonly files: Readonly<Record<string, string>>;
      /** The root module's folder or the template among the files (absent: the top). */
      readonly root?: string;
      readonly given?: DeploymentInputs;
    };

/** Reads a template elsewhere (OperationContext.readTemplate). */
export type TemplateReading = (what: TemplateToRead) => Promise<Deployment>;

/** An operation run on a client's behalf: who asks (the rate-limit key), and its other buckets. */
export interface ClientContext extends OperationContext {
  readonly client: string;
  /** Counts the request in another bucket too, refusing it past that bucket's limit (HttpError 429). */
  readonly countIn?: (bucket: BucketName) => Promise<void>;
}

/** Answers one POST /mcp body (a JSON-RPC message or batch) with its headers. */
export type McpAnswerer = (
  context: ClientContext,
  body: unknown,
  headers: Readonly<Record<string, string | undefined>>,
) => Promise<Result<never>>;

/**
 * A handler's answer: JSON (`body`, of the row's response schema when it declares one) or text of a
 * content type; `expiresAt` bounds `until-expiry` caching.
 */
export type Result<Body = unknown> = (
  | { readonly body: Body; readonly status?: number }
  | {
      readonly text: string;
      readonly contentType: string;
      readonly status?: number;
      /** A file to save rather than show (CSV): its name, sent as Content-Disposition. */
      readonly filename?: string;
      /** A binary answer (a zip), sent as these bytes in place of `text` (which is then empty). */
      readonly bytes?: Uint8Array;
      /**
       * Never set: the value a pre-serialised JSON answer holds (contract/shared.ts `json`), so the
       * row's response schema type-checks it as it does a `body`.
       */
      readonly serialized?: Body;
    }
) & { readonly expiresAt?: Date };

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
/** Readonly all the way down: a handler may answer with the catalogue's frozen arrays. */
type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
/** What a handler's JSON answer must be: what the row's response schema accepts. */
type Answer<R> = R extends z.ZodType ? DeepReadonly<z.input<R>> : unknown;

export interface Endpoint<
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  H extends z.ZodObject | undefined = z.ZodObject | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  readonly operationId: string;
  readonly method: "GET" | "POST";
  /** OpenAPI path template, e.g. /v1/services/{slug}. */
  readonly path: string;
  /** The last path parameter takes the rest of the path, slashes included (/mirror/{path}). */
  readonly restParam?: boolean;
  readonly summary: string;
  readonly description: string;
  readonly tag: "Catalogue" | "Policies" | "Lists" | "Operations" | "Discovery" | "Mirror" | "MCP";
  readonly bucket?: BucketName;
  /**
   * A read that finds nothing (404) counts in this bucket; past its limit every read of the row by
   * that client is 429 (found or not) until the window ends. Reads that find something are not counted.
   */
  readonly missBucket?: BucketName;
  readonly query?: Q;
  readonly params?: P;
  readonly body?: B;
  /** Request headers the endpoint reads (lower-case names). */
  readonly headers?: H;
  readonly response: {
    readonly status: 200 | 201;
    readonly schema?: R;
    readonly contentType: string;
    /** Other content types the same answer comes in (chosen by ?format or Accept), described as text. */
    readonly alternates?: readonly string[];
    /** 202 with an empty body is an answer too (MCP notifications): what it means. */
    readonly accepted?: string;
  };
  /** OpenAPI specification extensions of the operation (x-…), e.g. x-mcp on /mcp. */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>;
  readonly errors: readonly number[];
  readonly cache: CachePolicy;
  /** The answer depends only on the catalogue and the validated input: the sidecar keeps it once computed. */
  readonly pure?: boolean;
  /**
   * Answered in the sidecar's worker thread (sidecar/worker/), as the heavy rows are, though it is
   * not one: each request costs the event loop enough that a crowd of them slows every other (/mcp).
   */
  readonly offThread?: boolean;
  /**
   * The body's `template` is read before the handler, where a costly one fails alone (the sidecar:
   * in a reader process, sidecar/threads/reader.ts); the handler gets it as `deployment`.
   */
  readonly readsTemplate?: boolean;
  /** Bytes of body the row takes, when not MAX_BODY_BYTES (catalogue/limits.ts); past it a 413 saying so. */
  readonly bodyLimit?: number;
  readonly static?: StaticSpec;
  readonly example: { readonly request: string; readonly body?: unknown };
  /** Answers a validated request. */
  readonly handler: (
    context: OperationContext,
    input: {
      readonly query: Parsed<Q>;
      readonly params: Parsed<P>;
      readonly body: Parsed<B>;
      readonly headers: Parsed<H>;
      /** Who sent the request: the client's rate-limit key (its address under TRUST_PROXY, IPv6 by /64). */
      readonly client: string;
      /** Counts this request in another bucket too, refusing it past that bucket's limit (HttpError 429). */
      readonly countIn?: (bucket: BucketName) => Promise<void>;
      /** A readsTemplate row's template, read before the handler (absent: the handler reads body.template). */
      readonly deployment?: Deployment;
    },
  ) => Result<Answer<R>> | Promise<Result<Answer<R>>>;
}

/**
 * A row, its handler's input typed from the row's own schemas and its JSON answer checked against
 * its response schema at compile time. The table holds rows of different types; the router
 * validates each request against the row's schemas before calling it.
 */
export const endpoint = <
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(
  row: Endpoint<Q, P, B, H, R>,
): Endpoint => row;

/**
 * Whether the row refuses query parameters it does not name (400 naming them, the nearest and the
 * ones it takes): every row of the versioned API, whatever face answers it
 * (docs/decisions.md#closed-queries). The downloads outside it (/, /openapi.json, /catalogue.json,
 * /manifest.json, /mirror/*) are files and answer whatever the query.
 */
export const closesQuery = (row: Endpoint): boolean => row.path.startsWith(`/${API_MAJOR}/`);

/** The query parameters a row takes, in its schema's order. */
export const queryNames = (row: Endpoint): string[] => (row.query ? Object.keys(row.query.shape) : []);

export function servingOf(row: Endpoint): Serving {
  if (!row.static) return "sidecar";
  return row.query ? "static+sidecar" : "static";
}

/** JSON as every API response serialises it. */
export const serializeJson = (value: unknown): string => JSON.stringify(value);
