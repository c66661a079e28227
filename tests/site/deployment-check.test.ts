/**
 * The list builder's deployment check (components/pages/DeploymentCheckBox.astro) in Debian's
 * chromium, on a build of the fixture catalogue served by the text host with the API same-origin:
 * with JavaScript a pasted template is checked against the list in this browser and the answer drawn
 * below; without it the form posts to the text host's POST /deployments/check and the file control
 * (which needs the script) is hidden.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { fixtureCatalogue } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { requireComponent } from "../helpers/components.ts";

const executablePath = requireComponent("chromium");
const LIST_KEY = "csc-approved-list";
const TEMPLATE = "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n";

describe.skipIf(!executablePath)("the list builder's deployment check, in a browser", () => {
  let dist: string;
  let data: string;
  let store: EmbeddedStore;
  let api: FastifyInstance;
  let text: FastifyInstance;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), "csc-check-data-"));
    // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
    dist = await fixtureBuild({ apiUrl: "http://127.0.0.1:1", textUrl: "http://127.0.0.1:2" });
    store = await EmbeddedStore.open(data);
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
    api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls: { apiUrl: "", textUrl: "" } });
    const siteHandler = await loadSiteHandler(dist);
    text = await buildTextApp({
      config,
      catalogue: fixtureCatalogue(),
      store,
      files: await BuiltFiles.open(dist),
      api,
      perMinute: 100_000,
      ...(siteHandler ? { siteHandler } : {}),
    });
    await text.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(text.server.address() as { port: number }).port}`;
    browser = await launchChromium(executablePath!);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await text?.close();
    await api?.close();
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("checks a pasted template against the list in this browser and shows the answer", async () => {
    const context = await browser.newContext();
    await context.addInitScript(([key]) => localStorage.setItem(key!, JSON.stringify(["aws-s3"])), [LIST_KEY]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${base}/list/`);
    // The script shows the file picker once it runs (progressive enhancement): wait for it.
    await page.waitForSelector("[data-check-file]", { state: "visible" });
    await page.fill("#check-template", TEMPLATE);
    await page.click("[data-check-form] button[type=submit]");
    await page.waitForSelector("[data-check-answer] h3");
    const answer = await page.textContent("[data-check-answer]");
    expect(answer).toMatch(/aws, from aws-s3/);
    expect(answer).toContain("Checked:");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("without JavaScript posts the form to the text host, which answers the check as a page", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/list/?ids=aws-s3`);
    expect(await page.isVisible("[data-check-file]")).toBe(false);
    await page.fill("#check-template", TEMPLATE);
    await page.click("[data-check-form] button[type=submit]");
    expect(await page.textContent("h1")).toBe("Deployment check");
    expect(await page.textContent("main")).toContain("aws-s3");
    await context.close();
  });
});
