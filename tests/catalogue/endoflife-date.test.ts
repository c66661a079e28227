/**
 * The catalogue's version data (catalogue/data/versions/) against endoflife.date's cloud products
 * (catalogue/reference/endoflife-date.json, scripts/maintenance/endoflife-extract.ts): each of the 19 products
 * is a family of ours, and every release cycle both hold has the same dates (issue 113: 0
 * different). A cycle only one side holds is counted, never a difference: endoflife.date lists RDS
 * MySQL's minor versions, we their release lines; we leave out dates endoflife.date derives itself
 * (GKE's end of maintenance, AKS's approximate release days).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { realCatalogue } from "../helpers/catalogue.ts";
import { ENDOFLIFE_PRODUCTS } from "../../scripts/maintenance/endoflife-extract.ts";
import type { VersionEntryT } from "../../catalogue/schema/index.ts";

interface Cycle {
  readonly cycle: string;
  readonly releaseDate?: string;
  readonly eoas?: string | boolean;
  readonly eol?: string | boolean;
  readonly eoes?: string | boolean;
  readonly upgradeVersion?: string;
}
const extract = JSON.parse(
  readFileSync(new URL("../../catalogue/reference/endoflife-date.json", import.meta.url), "utf8"),
) as { products: Record<string, { commit: string; date: string; releases: Cycle[] }> };

type Ours = keyof Pick<VersionEntryT, "released" | "standardEnd" | "extendedEnd" | "blockUpdate" | "successor">;
/** Per product: our service and family, how a cycle is spelled as our id, and which of its fields are which of ours. */
const PRODUCTS: Record<
  (typeof ENDOFLIFE_PRODUCTS)[number],
  { slug: string; family: string; id?: (cycle: string) => string; fields: Partial<Record<keyof Cycle, Ours>> }
> = {
  "aws-lambda": { slug: "aws-lambda", family: "*", fields: { eoas: "standardEnd", eol: "blockUpdate" } },
  "amazon-eks": {
    slug: "aws-eks",
    family: "kubernetes",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-rds-postgresql": {
    slug: "aws-rds-postgresql",
    family: "postgresql",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-rds-mysql": {
    slug: "aws-rds-mysql",
    family: "mysql",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-aurora-postgresql": {
    slug: "aws-aurora",
    family: "postgresql",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-elasticache-redis": {
    slug: "aws-elasticache",
    family: "redis-oss",
    fields: { eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-rds-mariadb": {
    slug: "aws-rds-mariadb",
    family: "mariadb",
    fields: { releaseDate: "released", eol: "standardEnd" },
  },
  "amazon-msk": { slug: "aws-msk", family: "kafka", fields: { releaseDate: "released", eol: "standardEnd" } },
  "amazon-opensearch": {
    slug: "aws-opensearch",
    family: "opensearch",
    id: (cycle) => `OpenSearch_${cycle}`,
    fields: { eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-documentdb": {
    slug: "aws-documentdb",
    family: "documentdb",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "amazon-neptune": {
    slug: "aws-neptune",
    family: "neptune",
    fields: { releaseDate: "released", eol: "standardEnd", upgradeVersion: "successor" },
  },
  "amazon-glue": { slug: "aws-glue", family: "glue", fields: { releaseDate: "released", eol: "standardEnd" } },
  "amazon-mq-activemq": { slug: "aws-mq", family: "activemq", fields: { releaseDate: "released", eol: "standardEnd" } },
  "amazon-mq-rabbitmq": { slug: "aws-mq", family: "rabbitmq", fields: { releaseDate: "released", eol: "standardEnd" } },
  "azure-kubernetes-service": {
    slug: "azure-kubernetes-service",
    family: "kubernetes",
    fields: { eol: "standardEnd", eoes: "extendedEnd" },
  },
  "azure-database-for-postgresql": {
    slug: "azure-database-for-postgresql",
    family: "postgresql",
    fields: { releaseDate: "released", eol: "standardEnd" },
  },
  "azure-database-for-mysql": {
    slug: "azure-database-for-mysql",
    family: "mysql",
    fields: { releaseDate: "released", eol: "standardEnd", eoes: "extendedEnd" },
  },
  "google-kubernetes-engine": {
    slug: "gcp-gke",
    family: "kubernetes",
    fields: { releaseDate: "released", eol: "standardEnd" },
  },
  "alibaba-ack": { slug: "alibaba-ack", family: "kubernetes", fields: { releaseDate: "released", eol: "standardEnd" } },
};

const catalogue = realCatalogue();

/**
 * Cycles where the vendor's newer page decides against endoflife.date's copy, each with the page:
 * Microsoft's extended-support page (2026-03-26) ends PostgreSQL 14's Azure standard support on
 * December 11, 2026; endoflife.date copies the version-policy page's November 12, 2026, the
 * community's retirement date (issue 124).
 */
const DECIDED_BY_VENDOR: Readonly<Record<string, string>> = {
  "azure-database-for-postgresql 14: standardEnd 2026-12-11 ≠ eol 2026-11-12":
    "https://github.com/MicrosoftDocs/azure-databases-docs/blob/070f7c9cc5b0791eb125b62c45e6c73984717c91/articles/postgresql/configure-maintain/extended-support.md",
};

/** Every cycle compared: identical, different (with what differs), or held by one side only. */
function compare() {
  const identical: string[] = [];
  const different: string[] = [];
  const theirsOnly: string[] = [];
  for (const product of ENDOFLIFE_PRODUCTS) {
    const { slug, family, id = (cycle) => cycle, fields } = PRODUCTS[product];
    const families = (catalogue.bySlug.get(slug)?.versions ?? []).filter(
      (each) => family === "*" || each.id === family,
    );
    const versions = new Map(families.flatMap((each) => each.versions.map((version) => [version.id, version])));
    for (const cycle of extract.products[product]!.releases) {
      const ours = versions.get(id(cycle.cycle));
      if (!ours) {
        theirsOnly.push(`${product} ${cycle.cycle}`);
        continue;
      }
      const differences = Object.entries(fields).flatMap(([theirField, ourField]) => {
        const theirs = cycle[theirField as keyof Cycle];
        // false: none published (ours must have none); true: a past end without a date (not compared).
        if (theirs === true) return [];
        const expected = theirs === false || theirs === "N/A" ? undefined : theirs;
        const mine = ours[ourField];
        return mine === expected ? [] : [`${ourField} ${mine ?? "none"} ≠ ${theirField} ${expected ?? "none"}`];
      });
      (differences.length === 0 ? identical : different).push(
        `${product} ${cycle.cycle}${differences.length > 0 ? `: ${differences.join(", ")}` : ""}`,
      );
    }
  }
  return { identical, different, theirsOnly };
}

describe("the version data against endoflife.date (issue 113)", () => {
  it("holds a family for each of endoflife.date's 19 cloud products of the catalogue's providers", () => {
    expect(ENDOFLIFE_PRODUCTS).toHaveLength(19);
    for (const product of ENDOFLIFE_PRODUCTS) {
      const { slug, family } = PRODUCTS[product];
      const families = catalogue.bySlug.get(slug)?.versions ?? [];
      expect(
        families.some((each) => family === "*" || each.id === family),
        product,
      ).toBe(true);
    }
  });

  it("finds no cycle whose dates differ, and compares most of them", () => {
    const { identical, different, theirsOnly } = compare();
    expect(different).toEqual(Object.keys(DECIDED_BY_VENDOR));
    // 271 cycles in the copy: 256 identical; only endoflife.date holds RDS MySQL's 14 minor
    // versions (we hold their release lines) and ElastiCache Redis OSS 7 (no end published).
    expect(identical.length).toBeGreaterThanOrEqual(250);
    expect(identical.length + theirsOnly.length + different.length).toBe(
      Object.values(extract.products).reduce((sum, product) => sum + product.releases.length, 0),
    );
  });

  it("cites, for each product read through endoflife.date, the very commit of the extract", () => {
    for (const product of ENDOFLIFE_PRODUCTS) {
      const { slug, family } = PRODUCTS[product];
      const families = (catalogue.bySlug.get(slug)?.versions ?? []).filter(
        (each) => family === "*" || each.id === family,
      );
      const { commit, date } = extract.products[product]!;
      for (const each of families.filter((candidate) => candidate.source.via?.includes("endoflife-date")))
        expect(each.source, `${product} ${each.id}`).toMatchObject({
          via: `https://github.com/endoflife-date/endoflife.date/blob/${commit}/products/${product}.md`,
          asOf: date,
        });
    }
  });
});
