/**
 * Rule "another product's page" (issue 100; catalogue/quality/other-product-sources.ts): a source
 * for a service's identity or description that is another service's own page backs nothing, and
 * check:data fails on it.
 */
import { describe, expect, it } from "vitest";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { otherProductProblems, otherProductSources } from "../../catalogue/quality/other-product-sources.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** The catalogue with one more source on a service. */
function withSource(slug: string, url: string, backs: ("identity" | "description" | "compliance")[]): Catalogue {
  const bySlug = new Map(catalogue.bySlug);
  const record = bySlug.get(slug)!;
  bySlug.set(slug, {
    ...record,
    sources: [...record.sources, { url, retrieved: "2026-11-28", checked: "2026-11-28", backs }],
  });
  return { ...catalogue, bySlug };
}

describe("a source that is another product's page", () => {
  it("is found nowhere in the data", () => {
    expect(otherProductProblems(catalogue)).toEqual([]);
  });

  it("fails when a service cites another service's own page for its description", () => {
    const s3 = catalogue.bySlug.get("aws-s3")!.service.documentationUrl!;
    const problems = otherProductProblems(withSource("aws-glacier", s3, ["description"]));
    expect(problems).toEqual([
      expect.stringMatching(/^OTHER_PRODUCT_SOURCE: aws-glacier cites .* it is aws-s3's page/),
    ]);
  });

  it("reads the page the way a browser does: www., a trailing slash and case do not hide it", () => {
    const s3 = new URL(catalogue.bySlug.get("aws-s3")!.service.documentationUrl!);
    const variant = `${s3.protocol}//${s3.hostname.toUpperCase()}${s3.pathname.replace(/\/?$/, "/")}`;
    expect(otherProductSources(withSource("aws-glacier", variant, ["identity"]))).toHaveLength(1);
  });

  it("leaves a source that backs neither identity nor description, and a hub several services share", () => {
    const s3 = catalogue.bySlug.get("aws-s3")!.service.documentationUrl!;
    expect(otherProductSources(withSource("aws-glacier", s3, ["compliance"]))).toEqual([]);
    // Naver's Dev Tools overview is the documentationUrl of three services: no one product's page.
    const hub = catalogue.bySlug.get("naver-sourcecommit")!.service.documentationUrl!;
    expect(catalogue.services.filter((s) => s.documentationUrl === hub).length).toBeGreaterThan(1);
    expect(otherProductSources(withSource("naver-sourcebuild", hub, ["identity"]))).toEqual([]);
  });
});
