/**
 * A service page's two faces walk the same sections (catalogue/render/sections.ts): the site's built
 * page and the text rendering show the same section headings in the same order — for a service of
 * each optional section, and for one that shows none of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { SERVICE_SECTIONS, shownSections } from "../../catalogue/render/sections.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { servicePath } from "../../catalogue/base/urls.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap } from "../../build/dist.ts";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const HEADED = SERVICE_SECTIONS.filter((section) => "heading" in section);

/** The h2 headings of the page's main content, as text. */
function siteHeadings(html: string): string[] {
  const main = /<main\b[\s\S]*?<\/main>/.exec(html)?.[0] ?? "";
  return [...main.matchAll(/<h2\b[^>]*>([\s\S]*?)<\/h2>/g)].map((match) =>
    match[1]!
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

const textHeadings = (slug: string) =>
  renderMarkdown(servicePage(catalogue, slug))
    .split("\n")
    .filter((line) => line.startsWith("## "))
    .map((line) => line.slice(3).trim());

/** A service showing each optional section, and one showing only the sections every service has. */
function chosenServices(): string[] {
  const slugs = new Set<string>();
  for (const section of SERVICE_SECTIONS) {
    const found = catalogue.services.find((service) => shownSections(catalogue, service.slug).includes(section));
    if (found) slugs.add(found.slug);
  }
  const fewest = catalogue.services.reduce((best, service) =>
    shownSections(catalogue, service.slug).length < shownSections(catalogue, best.slug).length ? service : best,
  );
  return [...slugs, fewest.slug];
}

describe("the service page's sections", () => {
  let built = "";
  beforeAll(async () => {
    built = await buildAndSwap({ urls: buildUrls(loadConfig({})), build: buildDist, log: () => undefined });
  }, 240_000);

  const slugs = chosenServices();

  it("are chosen so that every section with a heading is shown at least once", () => {
    const shown = new Set(slugs.flatMap((slug) => shownSections(catalogue, slug).map((section) => section.id)));
    expect([...shown].sort()).toEqual(SERVICE_SECTIONS.map((section) => section.id).sort());
    expect(slugs.length).toBeGreaterThan(2);
  });

  it.each(slugs)("%s: the site's page and the text rendering show the same sections in the same order", (slug) => {
    const service = catalogue.bySlug.get(slug)!.service;
    const html = readFileSync(join(built, "site", "client", servicePath(service).slice(1), "index.html"), "utf8");
    const expected = shownSections(catalogue, slug).flatMap((section) =>
      "heading" in section ? [section.heading] : [],
    );
    expect(textHeadings(slug)).toEqual(expected);
    expect(siteHeadings(html)).toEqual(expected);
    // Headings come only from the list: neither face adds one of its own.
    for (const heading of siteHeadings(html)) expect(HEADED.map((section) => section.heading)).toContain(heading);
  });
});
