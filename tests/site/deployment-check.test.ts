/**
 * The list builder's deployment check (components/pages/DeploymentCheckBox.astro) in Debian's
 * chromium, on a build of the fixture catalogue served by the text host with the API same-origin:
 * with JavaScript a pasted template is checked against the list in this browser and the answer drawn
 * below; without it the form posts to the text host's POST /deployments/check, a chosen file too
 * (multipart: the field has a name, so text browsers send it as well, issue 116).
 */
import { describe, expect, it } from "vitest";
import { requireComponent } from "../helpers/components.ts";
import { useFixtureSite } from "./fixture-site.ts";

const executablePath = requireComponent("chromium");
const LIST_KEY = "csc-approved-list";
const TEMPLATE = "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n";

describe.skipIf(!executablePath)("the list builder's deployment check, in a browser", () => {
  const site = useFixtureSite({
    executablePath: executablePath!,
    dataPrefix: "csc-check-data-",
    setUpTimeout: 600_000,
  });

  it("checks a pasted template against the list in this browser and shows the answer", async () => {
    const context = await site.browser.newContext();
    await context.addInitScript(([key]) => localStorage.setItem(key!, JSON.stringify(["aws-s3"])), [LIST_KEY]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${site.base}/list/`);
    await page.locator(":root[data-list-drawn]").waitFor({ state: "attached" });
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
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}/list/?ids=aws-s3`);
    await page.fill("#check-template", TEMPLATE);
    await page.click("[data-check-form] button[type=submit]");
    expect(await page.textContent("h1")).toBe("Deployment check");
    expect(await page.textContent("main")).toContain("aws-s3");
    await context.close();
  });

  it("without JavaScript sends a chosen file, and the text host checks it", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.base}/list/?ids=aws-s3`);
    expect(await page.isVisible("[data-check-file]")).toBe(true);
    await page.setInputFiles("#check-file", {
      name: "bucket.yaml",
      mimeType: "application/x-yaml",
      buffer: Buffer.from(TEMPLATE),
    });
    await page.click("[data-check-form] button[type=submit]");
    expect(await page.textContent("h1")).toBe("Deployment check");
    expect(await page.textContent("main")).toContain("aws-s3");
    await context.close();
  });
});
