/**
 * A computed answer that is a page of the catalogue's own (a saved list's exit plan, a deployment
 * check): in HTML, the Doc the worker made is put in the site's layout (on-demand/doc.astro), or
 * rendered plainly when the build has no site; in the other renderings, the text as computed.
 * Never for shared caches: these answers depend on a list that expires or on a posted body.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Doc } from "../../catalogue/format/doc.ts";
import { renderHtml } from "../../catalogue/format/html.ts";
import { TEXT_VARY } from "../files.ts";
import type { Computed } from "./computed-shapes.ts";
import type { TextContext } from "./context.ts";
import type { Rendering } from "./render.ts";

export async function replyComputedPage(
  c: TextContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rendering: Rendering,
  computed: Computed,
  asDoc: boolean,
): Promise<FastifyReply> {
  if (asDoc && "body" in computed) {
    const doc = JSON.parse(computed.body) as Doc;
    const page = { name: "doc", search: "" } as const;
    const headers = { vary: TEXT_VARY, "cache-control": "no-store" };
    if (await c.site.render(request, reply, { page, locals: { doc, docPage: { noindex: true } }, headers }))
      return reply;
    return c.replies.text(request, reply, 200, rendering, renderHtml(doc), false);
  }
  return c.replies.computed(request, reply, rendering, computed, false);
}
