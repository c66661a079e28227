/**
 * The Mirror rows: the whole catalogue in one file, the build manifest and any file of the build.
 * See index.ts for the table they join.
 */
import { z } from "zod";
import { endpoint, type Endpoint } from "./endpoint.ts";
import type { Catalogue } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import { serviceDetail } from "../search/query.ts";
import { BuildManifest, CatalogueDump } from "../schema/index.ts";
import { json, file } from "./shared.ts";

/** Everything in one file, for mirrors and scripts. */
function catalogueDump(catalogue: Catalogue) {
  return {
    providers: catalogue.providers,
    categories: catalogue.categories,
    services: catalogue.services.map((service) => serviceDetail(catalogue, service.slug)!),
    equivalenceGroups: catalogue.groups,
  };
}

export const MIRROR_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "getCatalogueDump",
    method: "GET",
    path: "/catalogue.json",
    summary: "The whole catalogue in one file",
    description:
      "Every provider, category, service (as GET /v1/services/{slug} answers it) and equivalence group, for scripts and mirrors.",
    tag: "Mirror",
    response: { status: 200, schema: CatalogueDump, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "catalogue.json", files: (c) => [file("catalogue.json", catalogueDump(c))] },
    example: { request: "GET /catalogue.json" },
    handler: (c) => json(catalogueDump(c.catalogue)),
  }),
  endpoint({
    operationId: "getBuildManifest",
    method: "GET",
    path: "/manifest.json",
    summary: "Build manifest",
    description:
      "Every file of the build with its SHA-256 and size: what `cloud-catalogue mirror` fetches (from /mirror/{path}) and checks. Revalidate before reuse: it changes with every build.",
    tag: "Mirror",
    response: { status: 200, schema: BuildManifest, contentType: "application/json" },
    errors: [404],
    cache: "revalidate",
    // Written by the build's last step, which hashes every other file.
    static: { file: "manifest.json" },
    example: { request: "GET /manifest.json" },
    handler: () => {
      throw new HttpError(
        404,
        "No build here",
        "This server computes every answer and has no build to mirror; mirror a server started with npm start.",
      );
    },
  }),
  endpoint({
    operationId: "getBuildFile",
    method: "GET",
    path: "/mirror/{path}",
    restParam: true,
    summary: "One file of the build",
    description:
      "A file listed in /manifest.json, byte for byte, with the Content-Type of its extension (JSON, HTML, Markdown, Atom, iCalendar, SVG, …; its precompressed .br/.gz sibling with Content-Encoding when accepted). The path may contain '/'.",
    tag: "Mirror",
    params: z.object({
      path: z
        .string()
        .meta({ description: "Path inside the build, as the manifest lists it", example: "api/v1/providers.json" }),
    }),
    // Any file: the media type is the file's own, so the document names none (`*/*`).
    response: { status: 200, contentType: "*/*" },
    errors: [404],
    cache: "public",
    // The mirror's own input: the validated data, from which `cloud-catalogue serve` re-assembles the catalogue.
    static: {
      file: "{path}",
      root: "dist",
      // What a mirror checks against the manifest; its own server puts its URLs in when it serves.
      asBuilt: true,
      // The site's server bundles: `serve` renders saved lists without them, and they hold build paths.
      withheld: ["site/server/"],
      files: (c) => [file("catalogue-source.json", c.source)],
    },
    example: { request: "GET /mirror/api/v1/providers.json" },
    handler: () => {
      throw new HttpError(404, "Not found", "No such file in the build: /manifest.json lists what a mirror fetches.");
    },
  }),
];
