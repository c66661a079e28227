/**
 * What the site's browser suites (tests/site/browser-*.test.ts) share: a stack with the built site,
 * Debian's chromium through playwright-core, and the helpers every journey uses (a page in a fresh
 * context that collects console errors, axe-core, downloads, CSV). Each suite calls
 * `useSiteBrowser()` in its describe block; `stack` and `browser` are set before its tests run.
 * Screenshots go to test-artifacts/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect } from "vitest";
import type { Browser, Download, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium.ts";
import { requireComponent } from "../helpers/components.ts";
import { startStack, type Stack } from "../helpers/stack.ts";

export const executablePath = requireComponent("chromium");
export const ARTIFACTS = "test-artifacts/screenshots";
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const WIDTHS = [
  { name: "desktop", width: 1200, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
export interface Width {
  readonly name: string;
  readonly width: number;
  readonly height: number;
}

export type TestPage = Page & { errors: string[] };

export let stack: Stack;
export let browser: Browser;

/** Starts the stack (with a saved list, "axe-list") and chromium for the calling suite, and stops both after it. */
export function useSiteBrowser(): void {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startStack({ textPerMinute: 100_000 });
    await fetch(`${stack.apiUrl}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Axe list",
        slug: "axe-list",
        approvedServiceIds: ["aws-s3", "azure-blob-storage"],
      }),
    });
    browser = await launchChromium(executablePath!);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
}

/** A page in a fresh context; uncaught errors and console errors are collected in `errors`. */
export async function open(
  path: string,
  options: {
    javaScriptEnabled?: boolean;
    bypassCSP?: boolean;
    colorScheme?: "light" | "dark";
    size?: { readonly width: number; readonly height: number };
    base?: string;
    init?: () => void;
    /** A slow device and link (CPU slowed this many times, bytes per second), so a page is painted while it arrives. */
    throttle?: { cpu: number; bytesPerSecond: number };
  } = {},
): Promise<TestPage> {
  const { size = WIDTHS[0], base = stack.textUrl, init, throttle, ...contextOptions } = options;
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    acceptDownloads: true,
    ...contextOptions,
  });
  if (init) await context.addInitScript(init);
  const page = (await context.newPage()) as TestPage;
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle.cpu });
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 50,
      downloadThroughput: throttle.bytesPerSecond,
      uploadThroughput: throttle.bytesPerSecond,
    });
  }
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push(message.text());
  });
  await page.goto(`${base}${path}`);
  return page;
}

export async function axe(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const checker = (
      window as unknown as {
        axe: {
          run(options: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    // Only violations are read: axe then collects no node details of what passed or is incomplete.
    return (await checker.run({ resultTypes: ["violations"] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
    }));
  });
  return results.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** Axe, no console errors, no page wider than the viewport. */
export async function expectClean(page: TestPage, size: Width, label: string) {
  await page.waitForLoadState("networkidle");
  expect(await axe(page), label).toEqual([]);
  expect(page.errors, label).toEqual([]);
  // The message names what sticks out, so a failure says where to look.
  const wider = await page.evaluate((width) => {
    const out = [...document.querySelectorAll<HTMLElement>("body *")].filter(
      (element) => element.getBoundingClientRect().right > width + 0.5,
    );
    return out.slice(-3).map((element) => element.outerHTML.slice(0, 100));
  }, size.width);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${label}: page width (${wider.join(" | ")})`,
  ).toBeLessThanOrEqual(size.width);
}

export async function download(page: Page, click: () => Promise<void>): Promise<string> {
  const [file] = (await Promise.all([page.waitForEvent("download"), click()])) as [Download, void];
  return readFileSync(await file.path(), "utf8");
}

export const slugOf = (href: string) => href.replace(/^\/|\/$/g, "").replace("/", "-");

/** RFC 4180 as the site writes it (a field quoted when it must be, CRLF): the rows, header first. */
export function parseCsv(text: string): string[][] {
  expect(text.endsWith("\r\n")).toBe(true);
  const quoted = (field: string) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);
  return text
    .slice(0, -2)
    .split("\r\n")
    .map((line) => {
      const fields: string[] = [];
      for (const m of line.matchAll(/(?:"((?:[^"]|"")*)"|([^",]*))(,|$)/g)) {
        fields.push(m[1] === undefined ? m[2]! : m[1].replaceAll('""', '"'));
        if (m[3] === "") break;
      }
      expect(fields.map(quoted).join(","), "a well-formed CSV line").toBe(line);
      return fields;
    });
}

/** The same order as the site's (scripts/view.ts): English text order, ties kept in place. */
export const ordered = <T>(items: readonly T[], key: (item: T) => string) =>
  [...items].sort((a, b) => key(a).localeCompare(key(b), "en", { numeric: true }));
