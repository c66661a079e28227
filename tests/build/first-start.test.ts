/**
 * `npm start` with no build (scripts/start.ts): it answers at once, every answer computed from the
 * sources (every page of the site in its frame, uncached), while dist/ is built; the hosts over the
 * build then take the listening sockets, and a client kept alive across the hand-over loses no
 * request and gets the build's answer (serve-retire.ts serveWhileBuilding).
 */
import { readFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { loadBuiltCatalogue } from "../../catalogue/load/load.ts";
import { freePort } from "../../scripts/components.ts";
import { LiveHosts, serveWhileBuilding } from "../../scripts/serve-retire.ts";
import { holdingHosts } from "../../scripts/start-holding.ts";
import { loadCatalogueInTurns } from "../../sidecar/catalogue-in-turns.ts";
import { loadConfig } from "../../sidecar/config.ts";
import { prepareServer } from "../../sidecar/server.ts";
import { FIXTURE_DIR, tempStore, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * A first start over the fixture catalogue whose build finishes when the test says: the ports
 * listen at once (start.ts), the sources are read in a thread and served once loaded.
 */
async function firstStart(sourcesLoaded: Promise<unknown> = Promise.resolve()) {
  const [port, textPort] = [await freePort(), await freePort()];
  const config = loadConfig({ PORT: String(port), TEXT_PORT: String(textPort), HOST: "127.0.0.1", LOG_LEVEL: "warn" });
  const urls = { apiUrl: `http://127.0.0.1:${port}`, textUrl: `http://127.0.0.1:${textPort}` };
  // The run's shared build of the fixture, made for other URLs: served with this server's (files.ts).
  const dist = await fixtureBuild(URLS);
  const store = await tempStore();
  let finishBuild: (succeeded: boolean) => void = () => undefined;
  const building = new Promise<boolean>((resolve) => (finishBuild = resolve));
  const hosts = await LiveHosts.listenAtOnce(holdingHosts(config), config);
  closing.push(() => hosts.close());
  const fromSources = Promise.all([loadCatalogueInTurns(FIXTURE_DIR), sourcesLoaded]).then(([catalogue]) =>
    prepareServer(config, { store, catalogue, catalogueSource: { dataDir: FIXTURE_DIR } }),
  );
  const fromBuild = () =>
    prepareServer(config, {
      distDir: dist,
      store,
      catalogue: loadBuiltCatalogue(dist),
      catalogueSource: { distDir: dist },
    });
  const logged: string[] = [];
  const started = serveWhileBuilding(hosts, fromSources, building, fromBuild, (line) => logged.push(line));
  return { ...started, hosts, urls, finishBuild, logged };
}

/** GET on a kept-alive connection: status, body and the Connection header. */
function keptAlive(agent: Agent, url: string): Promise<{ status: number; body: string; connection: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent, headers: { accept: "text/html" } }, (answer) => {
      let body = "";
      answer.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      answer.once("end", () =>
        resolve({ status: answer.statusCode ?? 0, body, connection: String(answer.headers.connection) }),
      );
    }).once("error", reject);
  });
}

/** The site's page links Astro's bundled assets; the text host's computed HTML does not. */
const SITE_PAGE = /\/_astro\//;

describe("npm start with no build", () => {
  it("listens at once: requests sent while the sources load are answered once they are, none refused", async () => {
    // Issue 126: at a load of 13 the ports refused connections for 37 s while the sources loaded.
    let sourcesLoaded: () => void = () => undefined;
    const { urls, ready } = await firstStart(new Promise<void>((resolve) => (sourcesLoaded = resolve)));
    let answered = false;
    const early = Promise.all([
      fetch(`${urls.apiUrl}/v1/health`),
      fetch(`${urls.textUrl}/`, { headers: { accept: "text/html" } }),
      fetch(`${urls.textUrl}/favicon.svg`),
    ]).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered, "held until the hosts over the sources are ready").toBe(false);
    sourcesLoaded();
    await ready;
    const [health, page, icon] = await early;
    expect(health.status).toBe(200);
    expect(page.status).toBe(200);
    expect(icon.status).toBe(200);
    // Held requests are answered by the hosts that took the socket, which close their connection.
    expect(page.headers.get("connection")).toBe("close");
  });

  it("serves the site's icon from the sources, which the frame of every page links", async () => {
    const { urls, ready } = await firstStart();
    await ready;
    const page = await (await fetch(`${urls.textUrl}/aws/`, { headers: { accept: "text/html" } })).text();
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const icon = await fetch(`${urls.textUrl}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toBe(readFileSync(new URL("../../site/public/favicon.svg", import.meta.url), "utf8"));
  });

  it("serves computed answers at once, then the build's files, with no kept-alive request lost", async () => {
    const { urls, finishBuild, built, logged, ready } = await firstStart();
    await ready;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closing.push(async () => agent.destroy());
    const before = await keptAlive(agent, `${urls.textUrl}/`);
    expect(before.status).toBe(200);
    expect(before.body).not.toMatch(SITE_PAGE);
    expect((await fetch(`${urls.apiUrl}/v1/services/aws-s3`)).status).toBe(200);

    finishBuild(true);
    expect(await built).toBe(true);
    // The connection kept alive before the hand-over gets its answer, from the build (the hosts over
    // it answer what the old ones read after the switch: a page never stays the sources'), and is
    // told to close.
    const across = await keptAlive(agent, `${urls.textUrl}/`);
    expect(across.status).toBe(200);
    expect(across.body).toMatch(SITE_PAGE);
    expect(across.connection).toBe("close");
    // The next connection reaches the hosts over the build: the site's page.
    const after = await keptAlive(agent, `${urls.textUrl}/`);
    expect(after.status).toBe(200);
    expect(after.body).toMatch(SITE_PAGE);
    expect((await fetch(`${urls.apiUrl}/v1/services/aws-s3`)).status).toBe(200);
    // Closing the hosts over the sources reported no error.
    expect(logged).toEqual([]);
  });

  it("serves every page of the site in its frame before the build lands, none kept by a cache", async () => {
    // Issue 116: /list/, /list/exit/ and /exposure/ were 404s until the build landed, and the other
    // pages came without the site's header, navigation and search.
    const { urls, ready } = await firstStart();
    await ready;
    const pages = [
      "/",
      "/lifecycle/",
      "/category/storage/",
      "/aws/",
      "/aws/s3",
      "/compare/",
      "/compare/aws-s3,ovhcloud-object-storage",
      "/search/",
      "/search/?q=object+storage",
      "/equivalents/",
      "/exposure/",
      "/exposure/?ids=aws-s3,stackit-object-storage",
      "/list/",
      "/list/?ids=aws-s3,aws-lambda",
      "/list/exit/",
      "/list/exit/?ids=aws-s3",
      "/feedback/",
      "/feedback/thanks/",
    ];
    for (const path of pages) {
      const page = await fetch(`${urls.textUrl}${path}`, { headers: { accept: "text/html" } });
      const body = await page.text();
      expect(page.status, path).toBe(200);
      expect(page.headers.get("cache-control"), path).toBe("no-store");
      expect(body, path).toMatch(/<header class="site">/);
      expect(body, path).toMatch(/<nav aria-label="Main">.*href="\/list\/">My list<\/a>/);
      expect(body, path).toMatch(/<form action="\/search\/" method="get" role="search"/);
    }
    // The plain builder's forms name the services chosen, as the site's forms without JavaScript do.
    const builder = await (
      await fetch(`${urls.textUrl}/list/?ids=aws-s3`, { headers: { accept: "text/html" } })
    ).text();
    expect(builder).toContain('href="/list/files/aws-scp.json?ids=aws-s3"');
    expect(builder).toMatch(/<form method="post" action="\/deployments\/check" enctype="multipart\/form-data">/);
    const download = await fetch(`${urls.textUrl}/list/files/approved-services.md?ids=aws-s3`);
    expect(download.status).toBe(200);
  });

  it("stops cleanly when the build lands as the server is being stopped", async () => {
    const { urls, finishBuild, built, hosts } = await firstStart();
    await hosts.close();
    finishBuild(true);
    await built;
    await expect(fetch(`${urls.apiUrl}/v1/health`)).rejects.toThrow();
  });

  it("keeps answering from the sources when the build fails", async () => {
    const { urls, finishBuild, built } = await firstStart();
    finishBuild(false);
    expect(await built).toBe(false);
    const page = await fetch(`${urls.textUrl}/`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toMatch(SITE_PAGE);
  });
});
