/** What a text-host route is (routes.ts holds the rows) and what its handler is given. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CachePolicy } from "../../catalogue/endpoint.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import type { BuiltFiles } from "../files.ts";
import type { Store } from "../store/store.ts";
import type { Rendering, TextReplies } from "./render.ts";
import type { SitePages } from "./site-page.ts";
import type { PagesComputer } from "./computed-shapes.ts";

/** What a route's handler is given beside the request. */
export interface TextContext {
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly files: BuiltFiles | undefined;
  readonly replies: TextReplies;
  /** The site's pages rendered on demand (none without a built server bundle). */
  readonly site: SitePages;
  /** The computed pages, run off the event loop and kept (computed.ts). */
  readonly computed: PagesComputer;
  /** The text host's public URL: the exit plan's links are absolute (pasted into tickets). */
  readonly textUrl?: string | undefined;
}

/**
 * Where a route's answer comes from, which decides nginx's location: `static` — the build has it
 * (nginx's generic location serves dist/text and the site, a sidecar what is missing); `static+computed`
 * — the build has the plain request's answer, a query is computed by a sidecar; `computed` —
 * always a sidecar.
 */
export type TextServing = "static" | "static+computed" | "computed";

export interface TextRoute {
  /** Fastify's path (`:name` a segment, `*` the rest); trailing slashes are ignored. */
  readonly path: string;
  /** GET answers HEAD too. */
  readonly methods: readonly ("GET" | "POST")[];
  /** The renderings it answers in (by Accept or ?format). */
  readonly formats: readonly Rendering[];
  /** The rate-limit bucket it is counted in: this host's page limit, or the API's relaxed or strict one. */
  readonly bucket: "text" | "relaxed" | "strict";
  /** Reads that find nothing (404) are counted in this API bucket (sidecar/plugins/miss-limit.ts). */
  readonly missBucket?: "misses";
  readonly cache: CachePolicy;
  readonly serving: TextServing;
  /** Takes a form-encoded body (the no-JS feedback form). */
  readonly form?: boolean;
  readonly handler: (context: TextContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}
