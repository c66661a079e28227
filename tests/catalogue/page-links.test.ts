/**
 * Every link is built from the page table: `href()` (catalogue/base/urls.ts) fills a row's path, and no
 * source file outside the table spells one of its paths itself, so a page that moves moves in one
 * place. The few files allowed to are listed below, each with its reason.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PAGES, type PageRow } from "../../catalogue/outputs/pages.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import {
  DIRECTORY_PAGES,
  PAGE_PATHS,
  href,
  listCalendarPath,
  listPath,
  servicePath,
} from "../../catalogue/base/urls.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const rows: readonly PageRow[] = PAGES;

/** Where source lives (tests, data and generated files are not source). */
const SOURCE_DIRS = ["catalogue", "sidecar", "mcp", "site/src", "site/integrations", "scripts", "deploy"];
const SOURCE_FILE = /\.(ts|mts|mjs|js|astro)$/;

/** Files that may spell a page's path, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  "catalogue/base/urls.ts": "the page table's path column itself",
  "scripts/bench/page-js.ts": "a CLI's default arguments, the pages whose script it weighs, typed as a user would",
};

function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
      .filter((file) => !file.includes("node_modules") && !file.startsWith("catalogue/data/")),
  );
}

/** The text without its comments: a comment may name a page (`GET /lists/{id}`); only code links. */
function withoutComments(text: string): string {
  return (
    text
      // A block comment keeps its line breaks, so that a finding's line number is the file's.
      .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
      .replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ""))
      .replace(/(^|[\s;,(])\/\/[^\n]*/g, "$1")
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A template literal's interpolation (`${…}`), as a filled `:name` or a base URL is. */
const INTERPOLATION = "\\$\\{[^}]*\\}";
/** An interpolation that fills the parameter `name`: one whose expression says so (`${service.providerId}`). */
const filling = (name: string) => `\\$\\{[^}]*${name}[^}]*\\}`;

/**
 * The ways source can spell a row's path: a string that starts with its fixed part ("/lifecycle",
 * `/compare/${…}`, href="/"), a string that starts with its parameters (`/${provider}/${service}`),
 * or one of its words after an interpolation (`${textUrl}/lifecycle`, `${listPath(list)}/exit-plan`).
 */
function literalPatterns(path: string): RegExp[] {
  if (path === "/*") return [];
  if (path === "/") return [/(?:href|action)\s*=\s*["'`]\/["'`]/];
  const chunks = path.split(/\/:\w+/);
  // A word ends where a path segment, a query, a fragment or the string does (lifecycle.ics is a file).
  const afterInterpolation = chunks
    .filter((chunk) => chunk !== "")
    .map((chunk) => new RegExp(`${INTERPOLATION}${escape(chunk)}(?![\\w.-])`));
  if (path.startsWith("/:")) {
    const filled = path
      .split("/")
      .slice(1)
      .map((segment) => (segment.startsWith(":") ? filling(segment.slice(1)) : escape(segment)));
    return [new RegExp(`["'\`]/${filled.join("/")}(?=["'\`/?#]|$)`), ...afterInterpolation];
  }
  const fixed = chunks[0]!;
  const end = path.includes("/:") ? "/" : `(?=["'\`/?#]|$)`;
  return [new RegExp(`["'\`]${escape(fixed)}${end}`), ...afterInterpolation];
}

/** An API path built on a page's (`/v1${listPath(list)}/…`): the page may move, the endpoint does not. */
const API_ON_PAGE = /\/v1\$\{(?:href|\w+Path)\(/;

describe("links from the page table", () => {
  it("takes every row's path from urls.ts, one row per path", () => {
    expect(rows.map((row) => row.id).sort()).toEqual(Object.keys(PAGE_PATHS).sort());
    for (const row of rows) expect(row.path, row.id).toBe(PAGE_PATHS[row.id as keyof typeof PAGE_PATHS]);
  });

  it("links with a slash exactly the pages the site prerenders at a fixed path", () => {
    const prerendered = rows.filter((row) =>
      row.site.some((file) => file.endsWith(".astro") && !file.startsWith("on-demand/") && !file.includes("[")),
    );
    expect(prerendered.map((row) => row.id).filter((id) => id !== "home")).toEqual([...DIRECTORY_PAGES]);
  });

  it("fills parameters, encodes them and appends the query", () => {
    expect(href("home")).toBe("/");
    expect(href("lifecycle")).toBe("/lifecycle/");
    expect(href("service", { provider: "aws", service: "s3" })).toBe("/aws/s3");
    expect(servicePath({ providerId: "aws", slug: "aws-s3" })).toBe("/aws/s3");
    expect(href("compare-ids", { ids: "aws-s3,gcp-gcs" })).toBe("/compare/aws-s3,gcp-gcs");
    expect(href("equivalence-group", { id: "a/../b" })).toBe("/equivalents/a%2F..%2Fb");
    expect(href("exit-plan", { id: "team" }, { provider: ["ovhcloud", "scaleway"] })).toBe(
      "/lists/team/exit-plan?provider=ovhcloud&provider=scaleway",
    );
    expect(href("search", { q: "object storage", page: undefined })).toBe("/search/?q=object+storage");
    expect(href("exit-planner", new URLSearchParams({ list: "x" }))).toBe("/list/exit/?list=x");
    expect(href("save-list")).toBe("/lists");
    expect(listPath({ slug: null, id: "abc" })).toBe("/lists/abc");
    // A list's calendar is an endpoint of the contract table, whatever the list page's path.
    const calendar = ENDPOINTS.find((row) => row.path.endsWith("/lifecycle.ics") && row.path.includes("{id}"));
    expect(listCalendarPath({ slug: "team a", id: "abc" })).toBe(calendar?.path.replace("{id}", "team%20a"));
  });

  it("is the only place a page's path is written", () => {
    const patterns = [
      ...rows.flatMap((row) => literalPatterns(row.path).map((pattern) => ({ id: row.id, pattern }))),
      { id: "(a page as an API path)", pattern: API_ON_PAGE },
    ];
    const found: string[] = [];
    for (const file of sourceFiles()) {
      if (file in ALLOWED) continue;
      const lines = withoutComments(readFileSync(join(ROOT, file), "utf8")).split("\n");
      lines.forEach((line, i) => {
        for (const { id, pattern } of patterns)
          if (pattern.test(line)) found.push(`${file}:${i + 1} spells page "${id}": ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("would find a literal path if one were written", () => {
    const patterns = [...rows.flatMap((row) => literalPatterns(row.path)), API_ON_PAGE];
    const caught = (line: string) => patterns.some((pattern) => pattern.test(line));
    expect(caught('<a href="/lifecycle/">')).toBe(true);
    expect(caught("link.href = `/equivalents/${job.id}`;")).toBe(true);
    expect(caught('<a href="/">Home</a>')).toBe(true);
    expect(caught("link.href = `/${service.providerId}/${serviceSegment(service)}`;")).toBe(true);
    expect(caught("const page = `/${providerId}`;")).toBe(true);
    expect(caught("const versioned = `/${API_MAJOR}/`;")).toBe(false);
    expect(caught("alternate: `${urls.textUrl}/lifecycle`,")).toBe(true);
    expect(caught("`${apiUrl}/v1${listPath(list)}/lifecycle.ics`")).toBe(true);
    expect(caught("`${listPath(list)}/exit-plan?provider=x`")).toBe(true);
    expect(caught('const api = "/v1/lists";')).toBe(false);
    expect(caught("`${apiUrl}/v1/lists/${id}/lifecycle.ics`")).toBe(false);
    expect(caught("`${dir}/lifecycles.json`")).toBe(false);
    expect(caught(withoutComments("// see /lists/{id}"))).toBe(false);
  });
});
