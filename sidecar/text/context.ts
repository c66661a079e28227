/** What a text-host route is (a routed row of catalogue/outputs/pages.ts, routes.ts) and what its handler is given. */
import type { McpOriginPolicy } from "../mcp-origin.ts";
import type { TemplateReader } from "../threads/reader.ts";
import type { Slots } from "../threads/slots.ts";
import type { HttpTimeouts } from "../http-limits.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Catalogue } from "../../catalogue/load/load.ts";
import type { PageRow } from "../../catalogue/outputs/pages.ts";
import type { BuiltFiles } from "../files.ts";
import type { Store } from "../store/store.ts";
import type { TextReplies } from "./render.ts";
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
  /** Reads deployment-check templates in reader processes (threads/reader.ts). */
  readonly templateReader: TemplateReader;
  /** The large uploads' slots (../upload-gate.ts), shared with the API host in a server. */
  readonly uploadSlots: Slots;
  /** The host names browsers' form posts may be sent to (mcp-origin.ts); absent: any (no public URLs given). */
  readonly hosts?: Pick<McpOriginPolicy, "allowsHost">;
  /** The text host's public URL: the exit plan's links are absolute (pasted into tickets). */
  readonly textUrl?: string | undefined;
  /** The API's public URL: the calendars' feeds are offered at their absolute addresses (render/calendar.ts). */
  readonly apiUrl?: string | undefined;
  /** This host's time limits (../http-limits.ts): the upload gate leaves a body part of the request limit. */
  readonly timeouts: HttpTimeouts;
}

/** Answers a routed page's request. */
export type TextHandler = (context: TextContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A routed row of the page table (catalogue/outputs/pages.ts) with its handler. */
export interface TextRoute extends PageRow {
  readonly handler: TextHandler;
}

export type { PageServing as TextServing } from "../../catalogue/outputs/pages.ts";
