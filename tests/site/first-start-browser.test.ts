/**
 * Issue 126, "the first minute": `npm start` with no build, on a loaded machine, opened at once in
 * a browser. The ports refused connections for 37 s at a load of 13 before the sources were
 * served, and for a minute the frame's assets answered 404. Here a first start as scripts/start.ts
 * makes it (the holding servers listening at once, the fixture's sources read in a thread, the
 * build landing when the test says) beside busy processes that keep both cores loaded: chromium
 * opens pages before the sources are loaded, then while they are served, then from the build; no
 * request fails and none answers 404.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpus } from "node:os";
import type { Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBuiltCatalogue } from "../../catalogue/load/load.ts";
import { freePort } from "../../scripts/components.ts";
import { LiveHosts, serveWhileBuilding } from "../../scripts/serve-retire.ts";
import { holdingHosts } from "../../scripts/start-holding.ts";
import { loadCatalogueInTurns } from "../../sidecar/catalogue-in-turns.ts";
import { loadConfig } from "../../sidecar/config.ts";
import { prepareServer } from "../../sidecar/server.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { requireComponent } from "../helpers/components.ts";
import { FIXTURE_DIR, tempStore, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

const executablePath = requireComponent("chromium");
/** Busy processes: two per core, so the server shares each core with two others (a load of about 3 a core). */
const BUSY = 2 * cpus().length;

/** What a page asked for and got: each response's status and each request that failed. */
interface Seen {
  readonly url: string;
  readonly outcome: number | string;
}

describe.skipIf(!executablePath)("npm start with no build, under load, opened at once in a browser", () => {
  const busy: ChildProcess[] = [];
  beforeAll(() => {
    for (let i = 0; i < BUSY; i++)
      busy.push(spawn(process.execPath, ["-e", "for (;;) Math.sqrt(Math.random());"], { stdio: "ignore" }));
  });
  afterAll(() => {
    for (const child of busy) child.kill("SIGKILL");
  });

  it("answers every request of the site's pages, their frame and assets, before and after the build lands: 0 × 404", async () => {
    const [port, textPort] = [await freePort(), await freePort()];
    const config = loadConfig({
      PORT: String(port),
      TEXT_PORT: String(textPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    });
    const text = `http://127.0.0.1:${textPort}`;
    const dist = await fixtureBuild(URLS);
    const store = await tempStore();
    let finishBuild: (succeeded: boolean) => void = () => undefined;
    const building = new Promise<boolean>((resolve) => (finishBuild = resolve));
    // scripts/start.ts's order: listen, then load the sources in a thread while the loop answers.
    const started = performance.now();
    const hosts = await LiveHosts.listenAtOnce(holdingHosts(config), config);
    const listenedMs = performance.now() - started;
    const first = serveWhileBuilding(
      hosts,
      loadCatalogueInTurns(FIXTURE_DIR).then((catalogue) =>
        prepareServer(config, { store, catalogue, catalogueSource: { dataDir: FIXTURE_DIR } }),
      ),
      building,
      () =>
        prepareServer(config, {
          distDir: dist,
          store,
          catalogue: loadBuiltCatalogue(dist),
          catalogueSource: { distDir: dist },
        }),
      () => undefined,
    );
    const browser = await launchChromium(executablePath!);
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const seen: Seen[] = [];
      page.on("response", (response: Response) => seen.push({ url: response.url(), outcome: response.status() }));
      page.on("requestfailed", (request) =>
        seen.push({ url: request.url(), outcome: request.failure()?.errorText ?? "failed" }),
      );
      // At once: the sources are still loading, the port holds the request for them.
      let sourcesReady = false;
      void first.ready.then(() => (sourcesReady = true));
      const opened = page.goto(`${text}/`, { waitUntil: "load" });
      const openedBeforeReady = !sourcesReady;
      await opened;
      // Each page's requests done before the next navigation: a favicon still in flight when the
      // browser leaves the page is aborted by the browser (net::ERR_ABORTED), not by the server.
      await page.waitForLoadState("networkidle");
      for (const path of ["/aws/", "/aws/s3", "/lifecycle/", "/list/", "/search/?q=object+storage"])
        await page.goto(`${text}${path}`, { waitUntil: "networkidle" });
      const fromSources = seen.length;
      // The build lands: the hosts over it take the sockets; the pages now link the site's assets.
      finishBuild(true);
      expect(await first.built).toBe(true);
      for (const path of ["/", "/aws/", "/aws/s3", "/lifecycle/", "/list/", "/search/?q=object+storage"])
        await page.goto(`${text}${path}`, { waitUntil: "networkidle" });
      const assets = seen.filter((entry) => /\/(_astro|pagefind)\/|favicon/.test(entry.url));
      console.log(
        `first start under ${BUSY} busy processes: listening after ${Math.round(listenedMs)} ms, the first page asked ${openedBeforeReady ? "before" : "after"} the sources were loaded; ${seen.length} requests (${fromSources} from the sources, ${assets.length} of them the frame's assets)`,
      );
      expect(openedBeforeReady, "the first page is asked while the sources load").toBe(true);
      expect(assets.some((entry) => /\/_astro\//.test(entry.url))).toBe(true);
      expect(assets.some((entry) => /favicon/.test(entry.url))).toBe(true);
      // A 503 is the deadline's answer for a computed page whose thread is not ready in time on a
      // loaded machine (sidecar/deadline.ts), with Retry-After: said, not a page or asset missing.
      const others = seen.filter((entry) => typeof entry.outcome === "number" && entry.outcome >= 400);
      if (others.length > 0)
        console.log(`answered with errors: ${others.map((e) => `${e.outcome} ${e.url}`).join(", ")}`);
      expect(seen.filter((entry) => entry.outcome === 404 || typeof entry.outcome === "string")).toEqual([]);
      expect(others.filter((entry) => entry.outcome !== 503)).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      await hosts.close();
      await store.close();
    }
  }, 600_000);
});
