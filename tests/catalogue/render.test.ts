import { describe, expect, it } from "vitest";
import { renderAnsi, TERMINAL_WIDTH } from "../../catalogue/format/ansi.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { categoryPage, categoryTables, comparePage } from "../../catalogue/render/pages.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { textPages } from "../../catalogue/outputs/pages.ts";
import { fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

/* eslint-disable no-control-regex -- these tests look for escape sequences on purpose */

/** A line holding one link target or URL and nothing else. */
const LONE_TARGET = /^(<[^\s<>]+>|\S+:\/\/\S+)$/;
describe("text renderings", () => {
  it("fit every page of the real catalogue in an 80-column terminal", () => {
    const tooWide: string[] = [];
    for (const { page, doc } of textPages(realCatalogue())) {
      for (const line of renderAnsi(doc(), false).split("\n"))
        if ([...line].length > TERMINAL_WIDTH && !LONE_TARGET.test(line)) tooWide.push(`${page}: ${line}`);
    }
    expect(tooWide.slice(0, 5)).toEqual([]);
  });

  it("never split a URL or path across lines in a table or a field, at 40 and 80 columns", () => {
    const split: string[] = [];
    for (const { page, doc } of textPages(realCatalogue()))
      for (const width of [40, TERMINAL_WIDTH]) {
        const { title, blocks } = doc();
        const tables = blocks.filter((block) => block.kind === "table" || block.kind === "fields");
        const text = renderAnsi({ title, blocks: tables }, false, width);
        // Every <target> opens and closes on one line (a cut one was "</equivalents/virt" then "ual-machines>").
        for (const line of text.split("\n"))
          if ((line.match(/</g) ?? []).length !== (line.match(/>/g) ?? []).length)
            split.push(`${page} at ${width}: ${line}`);
      }
    expect(split.slice(0, 5)).toEqual([]);
  });

  it("fit every page of the real catalogue in the narrowest and widest terminals asked for", () => {
    const tooWide: string[] = [];
    let widest = 0;
    for (const { page, doc } of textPages(realCatalogue()))
      for (const width of [40, 200]) {
        for (const line of renderAnsi(doc(), false, width).split("\n")) {
          // A link target alone on its line stays whole, however long (it is never split).
          if ([...line].length > width && !LONE_TARGET.test(line)) tooWide.push(`${page} at ${width}: ${line}`);
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
    // The real data has services in two groups of one category (decisions.md#one-search's "100 services" over 101 rows).
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

  it("show a service's sources, newest first, each with the day it was read, in Markdown and ANSI", () => {
    const doc = servicePage(fixtureCatalogue(), "aws-s3");
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain("## Sources\n");
    expect(markdown).toContain(
      "- [https://docs.aws.amazon.com/s3/](https://docs.aws.amazon.com/s3/) — backs identity, description; retrieved 2026-11-25\n" +
        "- [https://aws.amazon.com/compliance/services-in-scope/PCI/](https://aws.amazon.com/compliance/services-in-scope/PCI/) — backs compliance; retrieved 2026-11-20",
    );
    // Verified per kind of fact, never one date over the whole service.
    expect(markdown).toContain("- **Verified:** identity 2026-11-25; description 2026-11-25; compliance 2026-11-20\n");
    expect(markdown).not.toContain("Last verified");
    const ansi = renderAnsi(doc, false);
    expect(ansi).toContain("SOURCES\n");
    expect(ansi).toContain("• https://docs.aws.amazon.com/s3/ — backs identity, description; retrieved\n  2026-11-25");
    expect(ansi).toContain("• https://aws.amazon.com/compliance/services-in-scope/PCI/ — backs compliance;");
    for (const line of ansi.split("\n")) expect([...line].length).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("name the copy a source was read from and its date, and the programmes a scope page backs", () => {
    const aws = servicePage(realCatalogue(), "aws-s3");
    const markdown = renderMarkdown(aws);
    expect(markdown).toContain(
      "PCI DSS, SOC 1, SOC 2, SOC 3); retrieved 2026-11-26 (copy of 2022-07-15, via [https://github.com/salesforce/aws-allowlister/",
    );
    expect(markdown).toMatch(
      /list_amazons3\.html\) — backs identifiers; retrieved 2026-11-26 \(copy of 2026-03-07, via/,
    );
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

  it("keep a service's own compliance apart from what the provider holds, worded as the provider's", () => {
    const s3 = renderMarkdown(servicePage(fixtureCatalogue(), "aws-s3"));
    expect(s3).toContain("- **Compliance (this service):** PCI DSS\n");
    // PCI DSS is the service's own: the provider's line leaves it out; a scope page is linked where cited.
    expect(s3).toContain(
      "- **Provider (AWS):** AWS holds SOC 2; which services are in scope: [https://aws.amazon.com/compliance/services-in-scope/](https://aws.amazon.com/compliance/services-in-scope/)\n",
    );
    expect(s3).toContain(
      "- **Provider (AWS):** AWS holds ISO/IEC 27001 provider-wide; the catalogue cites no list of the services in scope\n",
    );
    const lambda = renderAnsi(servicePage(fixtureCatalogue(), "aws-lambda"), false);
    expect(lambda).toMatch(/^Compliance \(this service\): Not known: no scope list the catalogue holds names\n/m);
    expect(lambda).toMatch(/^Provider \(AWS\): +AWS holds SOC 2, PCI DSS; which services are in/m);
    const retired = renderAnsi(servicePage(fixtureCatalogue(), "aws-old-thing"), false);
    expect(retired).toMatch(/^Compliance \(this service\): None \(a retired service is in no programme's scope\)$/m);
    expect(retired).not.toContain("Provider (AWS)");
    const compare = renderMarkdown(comparePage(fixtureCatalogue(), ["aws-s3", "stackit-object-storage"]));
    expect(compare).toContain("- **Compliance (this service):** PCI DSS\n- **Provider (AWS):** AWS holds SOC 2;");
  });

  it("never show a provider's programme on a service its full scope list leaves out", () => {
    const catalogue = realCatalogue();
    // Microsoft's FedRAMP list is carried in full: Azure services it names list FedRAMP High as their own …
    const aks = renderMarkdown(servicePage(catalogue, "azure-kubernetes-service"));
    expect(aks).toMatch(/\*\*Compliance \(this service\):\*\* [^\n]*FedRAMP High/);
    // … and one it leaves out shows it nowhere, not even as the provider's.
    const lustre = renderMarkdown(servicePage(catalogue, "azure-managed-lustre"));
    expect(lustre).not.toContain("FedRAMP");
    expect(lustre).toContain("Azure holds");
  });

  it("name the category and the compliance programmes on compare as service pages do, not by id", () => {
    const catalogue = fixtureCatalogue();
    const compare = renderMarkdown(comparePage(catalogue, ["aws-s3", "stackit-object-storage"]));
    const service = renderMarkdown(servicePage(catalogue, "aws-s3"));
    for (const line of [
      "- **Category:** [Storage](/category/storage)",
      "- **Compliance (this service):** PCI DSS",
      "- **Provider (AWS):** AWS holds SOC 2; which services are in scope:",
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

describe("lineage and compatibility on the service page (decisions.md#exit-ranking)", () => {
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
    // A claim read through the vendor's repository names that copy beside the page (1.9.0).
    expect(renderMarkdown(servicePage(catalogue, "aruba-cloud-dbaas"))).toMatch(
      /\[MySQL wire protocol\]\([^)]+\) — the vendor states it\. Source: .*read 2026-11-27, via \[https:\/\/github\.com\/Arubacloud\/terraform-provider-arubacloud\/blob\/[0-9a-f]{40}\/docs\/resources\/dbaas\.md\]/,
    );
    // Nothing recorded, no section.
    expect(renderMarkdown(servicePage(catalogue, "aws-lambda"))).not.toContain("## Compatible with");
  });
});

describe("compatibility and lineage on a kind of service (decisions.md#exit-ranking)", () => {
  it("names what each member speaks and whose product it is", async () => {
    const { equivalenceGroupDoc } = await import("../../catalogue/render/equivalents.ts");
    const catalogue = realCatalogue();
    const kafka = renderMarkdown(equivalenceGroupDoc(catalogue, "managed-kafka")!);
    expect(kafka).toMatch(/Azure Event Hubs\]\([^)]+\) — active\..*Compatible with Apache Kafka protocol, AMQP\./);
    const warehouse = renderMarkdown(equivalenceGroupDoc(catalogue, "data-warehouse")!);
    expect(warehouse).toMatch(/The same product as Google Cloud's \[BigQuery\]\(\/gcp\/bigquery\)\./);
  });
});
