/**
 * The text host's routes are rows: one added row is routed, named in a 405's Allow, and given
 * nginx's location (computed paths proxied, a static+computed path's query sent to a sidecar).
 */
import { HTTP_TIMEOUTS } from "../../sidecar/http-limits.ts";
import { describe, expect, it } from "vitest";
import { renderNginxConfig, textComputedPaths, textQueryComputed } from "../../scripts/deploy-config.ts";
import {
  allowedMethods,
  pathPattern,
  registerTextRoutes,
  TEXT_ROUTES,
  type TextRoute,
} from "../../sidecar/text/routes.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore } from "../helpers/app.ts";

const extra: TextRoute = {
  id: "region",
  path: "/regions/:id",
  methods: ["GET", "POST"],
  formats: ["md", "html"],
  bucket: "text",
  cache: "no-store",
  serving: "computed",
  reads: "the id in the path",
  site: [],
  handler: async (_c, request, reply) =>
    reply.type("text/plain").send(`region ${(request.params as { id: string }).id}`),
};

describe("the text host's route rows", () => {
  it("turn a Fastify path into the pattern nginx and the Allow header read", () => {
    expect(pathPattern("/compare/:ids")).toBe("^/compare/[^/]+/?$");
    expect(pathPattern("/search")).toBe("^/search/?$");
    expect(pathPattern("/lists/:id/exit-plan")).toBe("^/lists/[^/]+/exit-plan/?$");
    expect(new RegExp(pathPattern("/lists/:id")).test("/lists/abc/")).toBe(true);
    expect(new RegExp(pathPattern("/lists/:id")).test("/lists/abc/exit-plan")).toBe(false);
  });

  it("name a row's methods in Allow, and nothing for a path no row or build page has", () => {
    const catalogue = fixtureCatalogue();
    const routes = [extra, ...TEXT_ROUTES];
    expect(allowedMethods(catalogue, undefined, "/regions/eu", routes)).toEqual(["GET", "HEAD", "POST"]);
    expect(allowedMethods(catalogue, undefined, "/regions/eu")).toBeUndefined();
    expect(allowedMethods(catalogue, undefined, "/feedback/")).toEqual(["POST"]);
    expect(allowedMethods(catalogue, undefined, "/search?q=s3")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods(catalogue, undefined, "/v1/providers")).toBeUndefined();
  });

  it("route an added row and send its path to a sidecar in nginx", async () => {
    const app = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store: await tempStore(),
    });
    // The app registered TEXT_ROUTES; the extra row on a scope of its own, as the app registers its rows.
    await app.register(
      registerTextRoutes(
        {
          catalogue: fixtureCatalogue(),
          store: await tempStore(),
          files: undefined,
          replies: undefined!,
          site: undefined!,
          computed: undefined!,
          templateReader: undefined!,
          uploadSlots: undefined!,
          timeouts: HTTP_TIMEOUTS,
        },
        [extra],
      ),
    );
    const answer = await app.inject("/regions/eu");
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe("region eu");
    expect(answer.headers["cache-control"]).toBe("no-store");
    await app.close();

    const routes = [extra, ...TEXT_ROUTES];
    expect(textComputedPaths(routes)).toContain("/regions/[^/]+");
    expect(textQueryComputed(TEXT_ROUTES)).toBe("~^(/list/exit|/compare|/equivalents|/exposure|/list)/?\\|.");
    const config = renderNginxConfig({
      dist: "/srv/dist",
      prefix: "/tmp/p",
      apiPort: 80,
      textPort: 8081,
      sidecars: [{ host: "127.0.0.1", apiPort: 8080, textPort: 8082 }],
      textRoutes: routes,
    });
    expect(config).toContain(`location ~ ${textComputedPaths(routes)} {`);
    expect(config).toMatch(
      /map "\$uri\|\$args" \$text_query_computed \{\n\s+"~\^\(\/list\/exit\|\/compare\|\/equivalents\|\/exposure\|\/list\)/,
    );
  });
});
