/**
 * Every page type at 390 px with its largest realistic answer shown (issue 101): the deployment
 * check's answer (in the list builder with JavaScript, and as the text host's page without), a
 * saved list of fifty services with a long name, its exit plan and the planner form's plan, a
 * search read as another product's kind. No page is wider than the viewport, and every header
 * tool (the links, the search box, the theme toggle with JavaScript) is within it.
 */
import { describe, expect, it } from "vitest";
import { executablePath, open, stack, useSiteBrowser, type TestPage } from "./browser-harness.ts";
import { realCatalogue } from "../helpers/app.ts";

const PHONE = { name: "phone", width: 390, height: 844 } as const;

/** Fifty services of five providers, the saved list's and the exit plan's largest realistic answer. */
const BIG_LIST = realCatalogue()
  .services.filter((service) => ["aws", "azure", "gcp", "oci", "ibm"].includes(service.providerId))
  .slice(0, 50)
  .map((service) => service.slug);

/** A stack of many AWS resource types, some with long names: long action lists and ARNs in the answer. */
const TEMPLATE = JSON.stringify({
  Resources: Object.fromEntries(
    [
      "AWS::S3::Bucket",
      "AWS::Lambda::Function",
      "AWS::DynamoDB::Table",
      "AWS::SQS::Queue",
      "AWS::SNS::Topic",
      "AWS::IAM::Role",
      "AWS::KMS::Key",
      "AWS::CloudFront::Distribution",
      "AWS::ApiGateway::RestApi",
      "AWS::StepFunctions::StateMachine",
      "AWS::ECS::TaskDefinition",
      "AWS::RDS::DBInstance",
      "AWS::ElastiCache::ReplicationGroup",
      "AWS::Kinesis::Stream",
      "AWS::Events::Rule",
      "AWS::SecretsManager::Secret",
    ].map((type, i) => [`ResourceWithAVeryLongLogicalIdentifierNumber${i}ForTheSharedPlatformStack`, { Type: type }]),
  ),
});

/** What overflows: the page's width, and the header tools whose box leaves the viewport. */
async function layout(page: TestPage) {
  return page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    outside: [...document.querySelectorAll<HTMLElement>("header.site a, header.site input, header.site button")]
      .filter((element) => element.offsetParent !== null)
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < 0 || box.right > window.innerWidth;
      })
      .map((element) => element.textContent?.trim() || element.getAttribute("aria-label") || element.tagName),
  }));
}

async function expectFits(page: TestPage, what: string) {
  const { width, outside } = await layout(page);
  expect(width, `${what}: page width`).toBeLessThanOrEqual(PHONE.width);
  expect(outside, `${what}: header tools outside the viewport`).toEqual([]);
}

describe.skipIf(!executablePath)("every page type at 390 px with its largest answer", () => {
  useSiteBrowser();

  it("the deployment check's answer in the list builder, with JavaScript", async () => {
    const page = await open("/list/", {
      size: PHONE,
      init: () => localStorage.setItem("csc-approved-list", JSON.stringify(["aws-s3", "aws-lambda"])),
    });
    await page.fill("#check-template", TEMPLATE);
    await page.click("[data-check-form] button[type=submit]");
    await page.waitForSelector("[data-check-answer] h3", { timeout: 30_000 });
    expect(await page.textContent("[data-check-answer]")).toContain("cloudformation");
    await expectFits(page, "/list/ with the check's answer");
    expect(page.errors).toEqual([]);
  });

  it("the deployment check's answer as the text host's page, without JavaScript", async () => {
    const page = await open("/list/?ids=aws-s3,aws-lambda", { size: PHONE, javaScriptEnabled: false });
    await page.fill("#check-template", TEMPLATE);
    await Promise.all([page.waitForNavigation(), page.click("[data-check-form] button[type=submit]")]);
    expect(page.url()).toContain("/deployments/check");
    expect(await page.textContent("main")).toContain("cloudformation");
    await expectFits(page, "POST /deployments/check");
  });

  it("a saved list of fifty services with a long name, and its exit plans", async () => {
    const saved = await fetch(`${stack.apiUrl}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Shared platform services of the payments and settlement engineering department",
        // The longest slug a list may have (64): the share address at its widest.
        slug: "shared-platform-services-of-the-payments-and-settlement-engineer",
        approvedServiceIds: BIG_LIST,
      }),
    });
    expect(saved.ok).toBe(true);
    const { slug } = (await saved.json()) as { slug: string };
    for (const path of [
      `/lists/${slug}`,
      `/lists/${slug}/exit-plan`,
      `/list/exit/?list=${slug}`,
      `/list/exit/?ids=${BIG_LIST.join(",")}&sovereignOption=on`,
    ]) {
      const page = await open(path, { size: PHONE });
      await page.waitForLoadState("networkidle");
      if (path.includes("?list=")) {
        await page.click("[data-exit-form] button[type=submit]");
        await page.waitForSelector("[data-exit-result]:not([hidden])", { timeout: 30_000 });
      }
      await expectFits(page, path);
      expect(page.errors, path).toEqual([]);
      await page.context().close();
    }
  });

  it("the other page types, with JavaScript and without", async () => {
    for (const javaScriptEnabled of [true, false])
      for (const path of [
        "/",
        "/aws/s3",
        "/search/?q=alternative+to+Snowflake",
        "/equivalents/data-warehouse",
        "/compare/aws-s3,azure-blob-storage,gcp-cloud-storage",
        "/exposure/?ids=" + BIG_LIST.slice(0, 20).join(","),
        "/list/exit/",
      ]) {
        const page = await open(path, { size: PHONE, javaScriptEnabled });
        await page.waitForLoadState("networkidle");
        await expectFits(page, `${path} (JavaScript ${javaScriptEnabled ? "on" : "off"})`);
        if (javaScriptEnabled) expect(page.errors, path).toEqual([]);
        await page.context().close();
      }
  });

  it("says, searching in the browser, that Snowflake is not in the catalogue and links its kind", async () => {
    const page = await open("/search/", { size: PHONE });
    await page.fill("#search-q", "alternatief voor Snowflake");
    await page.press("#search-q", "Enter");
    await page.waitForSelector("[data-search-dead-end]:not([hidden])", { timeout: 30_000 });
    const deadEnd = page.locator("[data-search-dead-end]");
    expect(await deadEnd.innerText()).toContain(
      "Snowflake is not in the catalogue; shown instead, the services of its kind",
    );
    expect(await deadEnd.locator("a").first().getAttribute("href")).toBe("/equivalents/data-warehouse");
    await expectFits(page, "/search/ with a dead end");
    expect(page.errors).toEqual([]);
    await page.context().close();
  });

  it("shows a service's JavaScript-only controls in a browser running scripts (JsOnly)", async () => {
    const page = await open("/aws/s3", { size: PHONE });
    await page.waitForLoadState("networkidle");
    expect(await page.isVisible("[data-add-to-list]")).toBe(true);
    expect(await page.isVisible("[data-theme-toggle]")).toBe(true);
    expect(await page.locator("script[data-js-only-markup]").count()).toBe(0);
    await page.context().close();
  });
});
