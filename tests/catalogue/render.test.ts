import { describe, expect, it } from "vitest";
import { renderAnsi, TERMINAL_WIDTH } from "../../catalogue/render/ansi.ts";
import { renderMarkdown } from "../../catalogue/render/markdown.ts";
import { categoryPage, categoryTables, comparePage, servicePage } from "../../catalogue/render/pages.ts";
import { textPages } from "../../catalogue/static.ts";
import { fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

/* eslint-disable no-control-regex -- these tests look for escape sequences on purpose */
describe("text renderings", () => {
  it("fit every page of the real catalogue in an 80-column terminal", () => {
    const tooWide: string[] = [];
    for (const { page, doc } of textPages(realCatalogue())) {
      for (const line of renderAnsi(doc(), false).split("\n"))
        if ([...line].length > TERMINAL_WIDTH) tooWide.push(`${page}: ${line}`);
    }
    expect(tooWide.slice(0, 5)).toEqual([]);
  });

  it("fit every page of the real catalogue in the narrowest and widest terminals asked for", () => {
    const tooWide: string[] = [];
    let widest = 0;
    for (const { page, doc } of textPages(realCatalogue()))
      for (const width of [40, 200]) {
        for (const line of renderAnsi(doc(), false, width).split("\n")) {
          if ([...line].length > width) tooWide.push(`${page} at ${width}: ${line}`);
          widest = Math.max(widest, [...line].length);
        }
      }
    expect(tooWide.slice(0, 5)).toEqual([]);
    expect(widest).toBeGreaterThan(TERMINAL_WIDTH);
  });

  it("count a category's services as its rows show them, saying which are listed under two groups", () => {
    const catalogue = realCatalogue();
    let repeatedSomewhere = false;
    for (const category of catalogue.categories) {
      const { services, groups, rest, rows, summary } = categoryTables(catalogue, category.id);
      const listed = [...groups.flatMap((entry) => entry.services), ...rest].map((service) => service.slug);
      expect(new Set(listed).size, category.id).toBe(services.length);
      expect(listed.length, category.id).toBe(rows);
      expect(summary.startsWith(`${services.length} service`), category.id).toBe(true);
      if (rows > services.length) {
        repeatedSomewhere = true;
        const repeated = listed.length - new Set(listed).size;
        expect(repeated, category.id).toBeGreaterThan(0);
        expect(summary, category.id).toContain(`so the tables have ${rows} rows.`);
      } else expect(summary, category.id).toMatch(/providers\.$/);
      // The text host's page says the same and has as many rows as it says.
      const markdown = renderMarkdown(categoryPage(catalogue, category.id));
      expect(markdown, category.id).toContain(summary.replace(/[*_[\]]/g, (c) => `\\${c}`));
      expect(markdown.match(/^\| \[/gm)?.length ?? 0, category.id).toBe(rows);
    }
    // The real data has services in two groups of one category (issue 54's "100 services" over 101 rows).
    expect(repeatedSomewhere).toBe(true);
  });

  it("colour only through SGR escape codes, and none when colour is off", () => {
    const { doc } = [...textPages(realCatalogue())].find((entry) => entry.page === "aws/index")!;
    const coloured = renderAnsi(doc(), true);
    const plain = renderAnsi(doc(), false);
    expect(coloured).toMatch(/\u001b\[\d+m/);
    expect(coloured.replace(/\u001b\[\d+m/g, "")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(plain).not.toMatch(/\u001b/);
    expect(coloured.replace(/\u001b\[\d+m/g, "")).toBe(plain.replace(/\u001b\[\d+m/g, ""));
  });

  it("write Markdown a parser reads back as the same headings", () => {
    const { doc } = [...textPages(realCatalogue())].find((entry) => entry.page === "aws/s3")!;
    const markdown = renderMarkdown(doc());
    expect(markdown.startsWith("# Amazon Simple Storage Service\n")).toBe(true);
    expect(markdown).toContain("## Equivalents");
  });

  it("show a service's sources, newest check first, in Markdown and ANSI", () => {
    const doc = servicePage(fixtureCatalogue(), "aws-s3");
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain("## Sources, checked 2026-11-25\n");
    expect(markdown).toContain(
      "- [https://docs.aws.amazon.com/s3/](https://docs.aws.amazon.com/s3/) — backs identity, description; checked 2026-11-25\n" +
        "- [https://aws.amazon.com/compliance/services-in-scope/PCI/](https://aws.amazon.com/compliance/services-in-scope/PCI/) — backs compliance; checked 2026-11-20",
    );
    const ansi = renderAnsi(doc, false);
    expect(ansi).toContain("SOURCES, CHECKED 2026-11-25");
    expect(ansi).toContain("• https://docs.aws.amazon.com/s3/ — backs identity, description; checked\n  2026-11-25");
    expect(ansi).toContain("• https://aws.amazon.com/compliance/services-in-scope/PCI/ — backs compliance;");
    for (const line of ansi.split("\n")) expect([...line].length).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("show what a service needs to be usable, each group with why and its source, beside its sources", () => {
    const doc = servicePage(fixtureCatalogue(), "aws-lambda");
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain(
      "## Needs to be usable\n\nIdentifiers besides the service's own that a policy allowing it must allow too",
    );
    expect(markdown).toContain(
      "- logs:CreateLogGroup, logs:CreateLogStream, logs:PutLogEvents — a Lambda function's execution role writes its logs",
    );
    expect(markdown).toContain(
      "Source: [https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html](https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html) (checked 2026-11-26)\n\n## Sources",
    );
    const ansi = renderAnsi(doc, false);
    expect(ansi).toContain("NEEDS TO BE USABLE");
    expect(ansi).toContain("• logs:CreateLogGroup, logs:CreateLogStream, logs:PutLogEvents — a Lambda");
    expect(ansi.indexOf("NEEDS TO BE USABLE")).toBeLessThan(ansi.indexOf("\nSOURCES"));
    // A service with none recorded has no such section.
    expect(renderMarkdown(servicePage(fixtureCatalogue(), "aws-s3"))).not.toContain("Needs to be usable");
  });

  it("say when a service has no source rather than show a date", () => {
    const doc = servicePage(fixtureCatalogue(), "aws-lambda");
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain("## Sources\n\nNo vendor page is recorded for this service yet");
    expect(markdown).not.toContain("Last verified");
    expect(renderAnsi(doc, false)).toContain("SOURCES\n");
  });

  it("keep a service's own compliance apart from the provider's, labelled as the provider's", () => {
    const s3 = renderMarkdown(servicePage(fixtureCatalogue(), "aws-s3"));
    expect(s3).toContain("- **Compliance:** PCI DSS\n");
    expect(s3).toContain("- **Provider-wide (AWS):** ISO/IEC 27001, SOC 2, PCI DSS\n");
    const lambda = renderAnsi(servicePage(fixtureCatalogue(), "aws-lambda"), false);
    expect(lambda).toMatch(/^Compliance: +none listed for this service$/m);
    expect(lambda).toMatch(/^Provider-wide \(AWS\): +ISO\/IEC 27001, SOC 2, PCI DSS$/m);
    const retired = renderAnsi(servicePage(fixtureCatalogue(), "aws-old-thing"), false);
    expect(retired).toMatch(/^Compliance: +none \(a retired service carries none\)$/m);
    const compare = renderMarkdown(comparePage(fixtureCatalogue(), ["aws-s3", "stackit-object-storage"]));
    expect(compare).toContain("- **Compliance:** PCI DSS\n- **Provider-wide (AWS):** ISO/IEC 27001, SOC 2, PCI DSS");
  });

  it("name the category and the compliance programmes on compare as service pages do, not by id", () => {
    const catalogue = fixtureCatalogue();
    const compare = renderMarkdown(comparePage(catalogue, ["aws-s3", "stackit-object-storage"]));
    const service = renderMarkdown(servicePage(catalogue, "aws-s3"));
    for (const line of [
      "- **Category:** [Storage](/category/storage)",
      "- **Compliance:** PCI DSS",
      "- **Provider-wide (AWS):** ISO/IEC 27001, SOC 2, PCI DSS",
    ]) {
      expect(compare).toContain(line);
      expect(service).toContain(line);
    }
    expect(compare).not.toMatch(/\*\*Category:\*\* storage|pci-dss|iso-27001/);
    expect(renderAnsi(comparePage(catalogue, ["aws-s3"]), false)).toMatch(
      /^Category: +Storage <\/category\/storage>$/m,
    );
  });
});

describe("lineage and compatibility on the service page (issue 61)", () => {
  it("names the origin of a partner-operated product and what a service speaks, each with its source", () => {
    const catalogue = realCatalogue();
    const s3ns = renderMarkdown(servicePage(catalogue, "s3ns-bigquery"));
    expect(s3ns).toContain("## Lineage");
    expect(s3ns).toMatch(/Google Cloud's \[BigQuery\]\(\/gcp\/bigquery\), operated by S3NS/);
    expect(s3ns).toContain("https://documentation.s3ns.fr/docs/overview/tpc-key-differences");
    const ovh = renderMarkdown(servicePage(catalogue, "ovhcloud-object-storage"));
    expect(ovh).toContain("## Compatible with");
    expect(ovh).toMatch(
      /\[Amazon S3 API\]\([^)]+\) — the vendor states it\. Source: .*read 2026-11-26, page dated 2026-02-03/,
    );
    // Nothing recorded, no section.
    expect(renderMarkdown(servicePage(catalogue, "aws-lambda"))).not.toContain("## Compatible with");
  });
});

describe("compatibility and lineage on a kind of service (issue 61)", () => {
  it("names what each member speaks and whose product it is", async () => {
    const { equivalenceGroupDoc } = await import("../../catalogue/render/equivalents.ts");
    const catalogue = realCatalogue();
    const kafka = renderMarkdown(equivalenceGroupDoc(catalogue, "managed-kafka")!);
    expect(kafka).toMatch(/Azure Event Hubs\]\([^)]+\) — active\..*Compatible with Apache Kafka protocol, AMQP\./);
    const warehouse = renderMarkdown(equivalenceGroupDoc(catalogue, "data-warehouse")!);
    expect(warehouse).toMatch(/The same product as Google Cloud's \[BigQuery\]\(\/gcp\/bigquery\)\./);
  });
});
