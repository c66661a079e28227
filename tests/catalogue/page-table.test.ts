/**
 * The page table (catalogue/outputs/pages.ts) is the one list of pages: every file of site/src/pages/ is a
 * row's (or an error page's), every file a row names exists, the build's text pages are the rows'
 * and the text host routes exactly the rows a sidecar answers.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_PAGES, PAGES, textPageFor, textPages, type PageRow } from "../../catalogue/outputs/pages.ts";
import { SERVICE_SECTIONS } from "../../catalogue/render/sections.ts";
import { servicePath } from "../../catalogue/base/urls.ts";
import { TEXT_ROUTES } from "../../sidecar/text/routes.ts";
import { realCatalogue } from "../helpers/app.ts";

const SITE_PAGES = join(import.meta.dirname, "..", "..", "site", "src", "pages");
const rows: readonly PageRow[] = PAGES;

describe("the page table", () => {
  it("has a row for every page file of the site, and every file it names exists", () => {
    const files = readdirSync(SITE_PAGES, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(SITE_PAGES.length + 1));
    const named = new Set([...rows, ...ERROR_PAGES].flatMap((row) => row.site));
    expect(files.filter((file) => !named.has(file))).toEqual([]);
    for (const file of named) expect(existsSync(join(SITE_PAGES, file)), file).toBe(true);
  });

  it("names each page once, by id and by path", () => {
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(new Set(rows.map((row) => row.path)).size).toBe(rows.length);
  });

  it("routes on the text host exactly the rows a sidecar answers, and the built pages last", () => {
    const routed = rows.filter((row) => row.serving !== "static" || row.path === "/*");
    expect(TEXT_ROUTES.map((route) => route.id)).toEqual(routed.map((row) => row.id));
    expect(TEXT_ROUTES.at(-1)!.path).toBe("/*");
    // A static page is served by `/*`, so a path of one must not be claimed by a routed row.
    for (const row of rows.filter((row) => row.serving === "static" && row.path !== "/*"))
      expect(TEXT_ROUTES.some((route) => route.path === row.path)).toBe(false);
  });

  it("gives the service page the sections both renderers walk", () => {
    expect(rows.find((row) => row.id === "service")!.sections).toEqual(SERVICE_SECTIONS.map((section) => section.id));
  });

  it("finds the built text page of every path a row's pages are at", () => {
    const catalogue = realCatalogue();
    const pages = [...textPages(catalogue)].map((page) => page.page);
    expect(new Set(pages).size).toBe(pages.length);
    const service = catalogue.services[0]!;
    expect(textPageFor(catalogue, "/")).toBe("index");
    expect(textPageFor(catalogue, "/lifecycle/")).toBe("lifecycle");
    expect(textPageFor(catalogue, `/${service.providerId}`)).toBe(`${service.providerId}/index`);
    expect(textPageFor(catalogue, `/category/${service.category}`)).toBe(`category/${service.category}`);
    expect(textPageFor(catalogue, servicePath(service))).toBe(servicePath(service).slice(1));
    expect(textPageFor(catalogue, `/${service.providerId}/${service.slug}`)).toBe(servicePath(service).slice(1));
    for (const path of ["/nowhere/at/all", "/category/nothing", `/${service.providerId}/nothing`, "/..", "//aws"])
      expect(textPageFor(catalogue, path), path).toBeUndefined();
    // Every page a path can name is a page the build writes.
    for (const page of pages.filter((page) => page !== "equivalents"))
      expect(textPageFor(catalogue, page === "index" ? "/" : `/${page.replace(/\/index$/, "")}`), page).toBe(page);
  });
});
