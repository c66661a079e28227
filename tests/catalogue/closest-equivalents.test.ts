/**
 * Issue 123: a service page's "Compare with" picks from the same ranking its equivalents table
 * shows (catalogue/equivalence/equivalents.ts closestEquivalents), and the table's "Moving there"
 * says each phrase once.
 */
import { describe, expect, it } from "vitest";
import { closestEquivalents } from "../../catalogue/equivalence/equivalents.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import type { Inline } from "../../catalogue/format/doc.ts";
import { servicePageFacts } from "../../site/src/lib/service-page.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const withEquivalents = catalogue.services.filter((s) => catalogue.bySlug.get(s.slug)!.equivalentSlugs.length > 0);
const open = (slug: string) => {
  const status = catalogue.bySlug.get(slug)!.service.lifecycle?.status;
  return status === undefined || status === "preview";
};
const providerOf = (slug: string) => catalogue.bySlug.get(slug)!.service.providerId;

/** The equivalents table of a service's text page (Markdown, ANSI, plain, MCP): its rows. */
function equivalentsTable(slug: string): { head: readonly string[]; rows: readonly (readonly Inline[])[] } {
  const blocks = servicePage(catalogue, slug).blocks;
  const table = blocks.find(
    (block) => block.kind === "table" && block.head[0] === "Service" && block.head.includes("Lifecycle"),
  );
  if (table?.kind !== "table") throw new Error(`${slug}: no equivalents table`);
  return table;
}
const textOf = (inline: Inline) =>
  typeof inline === "string" ? inline : "text" in inline ? inline.text : inline.strong;
const hrefOf = (inline: Inline) => (typeof inline === "object" && "href" in inline ? inline.href : "");

describe("the closest equivalents", () => {
  it("rank every service's equivalents, each once, the open ones before the closed", () => {
    for (const { slug } of withEquivalents) {
      const ranked = closestEquivalents(catalogue, slug);
      expect([...ranked].sort(), slug).toEqual([...catalogue.bySlug.get(slug)!.equivalentSlugs].sort());
      const firstClosed = ranked.findIndex((other) => !open(other));
      if (firstClosed >= 0) expect(ranked.slice(firstClosed).filter(open), slug).toEqual([]);
    }
  });

  it("put the ones still speaking a service's protocols first: Event Hubs and Managed Kafka for MSK", () => {
    expect(closestEquivalents(catalogue, "aws-msk").slice(0, 2)).toEqual(["azure-event-hubs", "gcp-managed-kafka"]);
    // HDInsight speaks Kafka but does one of MSK's two jobs among others; Pub/Sub speaks no Kafka.
    const msk = closestEquivalents(catalogue, "aws-msk");
    expect(msk.indexOf("azure-hdinsight")).toBeGreaterThan(msk.indexOf("azure-event-hubs"));
    expect(msk.indexOf("gcp-pubsub")).toBeGreaterThan(msk.indexOf("gcp-managed-kafka"));
    // Cloud SQL for PostgreSQL does the one job of RDS for PostgreSQL; AlloyDB does another besides.
    const postgres = closestEquivalents(catalogue, "aws-rds-postgresql");
    expect(postgres.indexOf("gcp-cloud-sql-postgresql")).toBeLessThan(postgres.indexOf("gcp-alloydb"));
  });
});

describe("a service page's Compare with", () => {
  it("names the peers of issue 123: Event Hubs and Managed Kafka for MSK, Cloud SQL for RDS PostgreSQL", () => {
    expect(servicePageFacts(catalogue, "aws-msk").compareWith).toEqual(["azure-event-hubs", "gcp-managed-kafka"]);
    expect(servicePageFacts(catalogue, "aws-rds-postgresql").compareWith).toEqual([
      "azure-database-for-postgresql",
      "gcp-cloud-sql-postgresql",
    ]);
    expect(servicePageFacts(catalogue, "azure-event-hubs").compareWith).toEqual(["aws-msk", "gcp-managed-kafka"]);
    expect(servicePageFacts(catalogue, "gcp-pubsub").compareWith).not.toContain("aws-data-firehose");
    expect(servicePageFacts(catalogue, "azure-blob-storage").compareWith.sort()).toEqual([
      "aws-s3",
      "gcp-cloud-storage",
    ]);
  });

  it("picks from the ranking the equivalents table shows, each provider's first, on every page", () => {
    for (const { slug } of withEquivalents) {
      const ranked = closestEquivalents(catalogue, slug);
      const { compareWith } = servicePageFacts(catalogue, slug);
      expect(compareWith.length, slug).toBeGreaterThan(0);
      expect(compareWith, slug).not.toContain(slug);
      // In the table's order, and none passed over for a later one of the same provider.
      const positions = compareWith.map((other) => ranked.indexOf(other));
      expect(positions, slug).toEqual([...positions].sort((a, b) => a - b));
      for (const other of compareWith)
        expect(
          ranked.find((first) => providerOf(first) === providerOf(other)),
          slug,
        ).toBe(other);
      // The table's rows, on the text host and in MCP, in the same ranking.
      expect(
        equivalentsTable(slug).rows.map((row) => hrefOf(row[0]!)),
        slug,
      ).toEqual(
        ranked.map((other) => {
          const service = catalogue.bySlug.get(other)!.service;
          return `/${service.providerId}/${service.slug.slice(service.providerId.length + 1)}`;
        }),
      );
    }
  });
});

describe("the equivalents table's Moving there", () => {
  it("says MSK's move to Event Hubs still speaks Kafka once, not once per job", () => {
    const table = equivalentsTable("aws-msk");
    const moving = table.head.indexOf("Moving there");
    const hubs = table.rows.find((row) => hrefOf(row[0]!) === "/azure/event-hubs")!;
    expect(textOf(hubs[moving]!)).toBe("still speaks Apache Kafka protocol");
  });

  it("repeats no phrase in any row of any page", () => {
    for (const { slug } of withEquivalents) {
      const table = equivalentsTable(slug);
      const moving = table.head.indexOf("Moving there");
      if (moving < 0) continue;
      for (const row of table.rows) {
        const phrases = textOf(row[moving]!).split("; ");
        expect(phrases, slug).toEqual([...new Set(phrases)]);
      }
    }
  });
});
