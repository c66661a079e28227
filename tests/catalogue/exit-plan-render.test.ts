import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { link, paragraph } from "../../catalogue/format/doc.ts";
import { exitPlanCsv, exitPlanDoc } from "../../catalogue/render/exit-plan.ts";
import { renderHtml } from "../../catalogue/format/html.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("exit plan renderings", () => {
  it("HTML escapes every text and lets links only navigate", () => {
    const html = renderHtml({
      title: "<script>x</script>",
      blocks: [
        paragraph('a <b> & "c"', link("bad", "javascript:alert(1)"), link("ok", "/aws/s3"), link("far", "//evil")),
      ],
    });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    expect(html).toContain('<a href="#">bad</a>');
    expect(html).toContain('<a href="/aws/s3">ok</a>');
    expect(html).toContain('<a href="#">far</a>');
  });

  it("CSV has one row per candidate, job, gap and same-category service, quoted and defused", () => {
    const plan = exitPlan(catalogue, ["aws-s3", "azure-entra-id", "ovhcloud-dns"], { providers: ["ovhcloud"] });
    const csv = exitPlanCsv(plan);
    const rows = csv.trimEnd().split("\r\n");
    const s3 = plan.services[0]!;
    expect(rows.filter((row) => row.startsWith("aws-s3,"))).toHaveLength(s3.candidates.length + s3.jobs!.length);
    const entra = plan.services[1]!;
    expect(entra.outcome).toBe("no-equivalent");
    expect(rows.filter((row) => row.startsWith("azure-entra-id,"))).toHaveLength(
      1 + entra.nearest.length + entra.jobs!.length,
    );
    expect(rows.some((row) => row.startsWith("ovhcloud-dns,DNS,ovhcloud,stays,stays,,ovhcloud-dns,"))).toBe(true);
    // What each candidate is: S3 to OVHcloud's Object Storage shares the S3 API (compatible);
    // the same-category rows are "nearest", never equivalents.
    const kinds = rows.slice(1).map((row) => row.split(",")[4]);
    for (const kind of kinds)
      expect(["stays", "lineage", "compatible", "equivalent", "gap", "kept", "nearest", "job"]).toContain(kind);
    expect(
      rows.find((row) => row.startsWith("aws-s3,") && row.includes(",ovhcloud-object-storage,"))!.split(",")[4],
    ).toBe(
      plan.services[0]!.candidates.find((c) => c.slug === "ovhcloud-object-storage")!.compatibility.length > 0
        ? "compatible"
        : "equivalent",
    );
    expect(kinds.filter((kind) => kind === "nearest")).toHaveLength(entra.nearest.length);
    // Every reason has commas or semicolons: quoted, and a row has exactly the header's columns.
    for (const row of rows.slice(1)) expect(row.match(/"[^"]*"|[^,]+|(?<=,)(?=,|$)/g)!.length).toBe(17);
  });

  it("CSV marks a gap the proposed list keeps where it is (the site's partial exit) as kept and proposed", () => {
    const plan = exitPlan(catalogue, ["aws-s3", "azure-entra-id"], { providers: ["ovhcloud"] });
    const partial = {
      ...plan,
      targetList: { ...plan.targetList, approvedServiceIds: [...plan.targetList.approvedServiceIds, "azure-entra-id"] },
    };
    expect(exitPlanCsv(plan)).toMatch(/\r\nazure-entra-id,[^,]+,azure,no-equivalent,gap,,,,,,false,/);
    expect(exitPlanCsv(partial)).toMatch(
      /\r\nazure-entra-id,[^,]+,azure,no-equivalent,kept,,azure-entra-id,[^,]+,azure,active,true,/,
    );
  });

  it("Markdown shows the gaps first, marks the nearest services as not equivalents, and names the release", () => {
    const plan = exitPlan(catalogue, ["azure-entra-id", "aws-s3"], { providers: ["ovhcloud"] });
    const md = renderMarkdown(exitPlanDoc(catalogue, plan, { base: "https://text.example" }));
    expect(md.indexOf("## Gaps")).toBeLessThan(md.indexOf("## Moving from"));
    expect(md).toContain("Same category, not equivalent");
    expect(md).toContain(plan.catalogue.release ? `release ${plan.catalogue.release}` : "no release recorded");
    // After counts the gap (Entra ID) where it is: a gap is not an exit, and the document says so.
    expect(md).toContain("| US-headquartered providers | 2 of 2 (100%) | 1 of 2 (50%) |");
    expect(md).toContain("After counts 1 service with no equivalent where it is now");
    expect(md).toContain("](https://text.example/aws/s3)");
  });

  it("Markdown escapes nothing inside a link as an entity: link text takes backslashes", () => {
    expect(
      renderMarkdown({ title: "t", blocks: [paragraph(link("AT&T <Cloud> [EU]", "https://x.example/?a=1&b=2"))] }),
    ).toBe("[AT\\&T \\<Cloud\\> \\[EU\\]](https://x.example/?a=1&b=2)\n");
    // Every service with & in its name or a source's backs, planned anywhere: no entity inside a link.
    const withAmpersand = catalogue.services.filter((service) => service.name.includes("&")).map((s) => s.slug);
    expect(withAmpersand.length).toBeGreaterThan(0);
    const plan = exitPlan(catalogue, withAmpersand.slice(0, 20), { sovereignOption: true });
    const md = renderMarkdown(exitPlanDoc(catalogue, plan, { base: "https://text.example" }));
    const links = [...md.matchAll(/\[((?:\\.|[^\]\\])*)\]\(([^)]*)\)/g)];
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter(([whole]) => /&(amp|lt|gt);/.test(whole)).map(([whole]) => whole)).toEqual([]);
  });
});
