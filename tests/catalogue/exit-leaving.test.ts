/**
 * What leaving costs (issue 114): a provider's published egress bands priced band by band, a price
 * stated for one product applied to that product's data only, a waiver said with its conditions
 * and page, the Data Act's rule for the plan's date, retired services' data left out, and the
 * planner form's jobsUsed and dataGb fields read or refused.
 */
import { describe, expect, it } from "vitest";
import { HttpError } from "../../catalogue/base/problem.ts";
import { egressCost } from "../../catalogue/exit/leaving.ts";
import { listFieldsOf, listFieldsText } from "../../catalogue/exit/list-plan.ts";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { egressProblems } from "../../catalogue/load/exit-data.ts";
import type { EgressFileT } from "../../catalogue/schema/exit-data.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("what leaving costs", () => {
  it("prices data band by band past the allowance, each band at its own price", () => {
    const tiers = [{ upToGb: 10_240, perGb: 0.09 }, { upToGb: 51_200, perGb: 0.085 }, { perGb: 0.07 }];
    expect(egressCost({ tiers }, 0)).toBe(0);
    expect(egressCost({ tiers }, 1000)).toBe(90);
    expect(egressCost({ tiers }, 20_000)).toBe(Math.round((10_240 * 0.09 + 9_760 * 0.085) * 100) / 100);
    expect(egressCost({ tiers }, 60_000)).toBe(Math.round((10_240 * 0.09 + 40_960 * 0.085 + 8_800 * 0.07) * 100) / 100);
    expect(egressCost({}, 1000)).toBeUndefined();
  });

  it("prices R2's data at R2's published price and says Stream's is not covered by it", () => {
    const plan = exitPlan(catalogue, ["cloudflare-r2", "cloudflare-stream"], { jurisdictions: ["EU"] }, undefined, {
      "cloudflare-r2": 3000,
      "cloudflare-stream": 1500,
    });
    const [cloudflare] = plan.leaving!.providers;
    expect(cloudflare!.egress).toMatchObject({ currency: "USD", services: ["cloudflare-r2"] });
    expect(cloudflare!.egress!.source.url).toBe("https://developers.cloudflare.com/r2/pricing/");
    expect(cloudflare!.estimate).toMatchObject({ dataGb: 4500, billableGb: 3000, unpricedGb: 1500, cost: 0 });
    expect(cloudflare!.estimate!.words).toMatch(
      /1,500 GB from Cloudflare Stream: the published price does not cover it/,
    );
  });

  it("says a waiver with its conditions and page, and never prices a provider without a page", () => {
    const plan = exitPlan(catalogue, ["azure-blob-storage"], { sovereignOption: true }, undefined, {
      "azure-blob-storage": 5000,
    });
    const [azure] = plan.leaving!.providers;
    expect(azure!.egress).toBeUndefined();
    expect(azure!.estimate).toMatchObject({ dataGb: 5000 });
    expect(azure!.estimate!.cost).toBeUndefined();
    expect(azure!.words).toMatch(/no official page stating the internet egress price of Microsoft Azure/);
    expect(azure!.waiver!.announced).toBe("2024-03-12");
    expect(azure!.waiver!.conditions.length).toBeGreaterThan(2);
    expect(azure!.words).toContain(azure!.waiver!.source.url);
    expect(azure!.words).toContain(`read ${azure!.waiver!.source.retrieved}`);
    const gcp = exitPlan(catalogue, ["gcp-cloud-storage"], { sovereignOption: true }).leaving!.providers[0]!;
    expect(gcp.waiver!.source.url).toBe("https://cloud.google.com/exit-cloud");
    expect(gcp.estimate).toBeUndefined();
  });

  it("states the Data Act's rule for the plan's date: reduced charges until 2027-01-12, none after", () => {
    const now = exitPlan(catalogue, ["aws-s3"], { providers: ["scaleway"] }).leaving!.dataAct;
    expect(now.periods.map((period) => [period.from, period.until])).toEqual([
      ["2024-01-11", "2027-01-12"],
      ["2027-01-12", undefined],
    ]);
    expect(now.source.url).toMatch(/^https:\/\/eur-lex\.europa\.eu\//);
    expect(now.rule).toMatch(/reduced switching charges/);
    const later = exitPlan({ ...catalogue, lastUpdated: "2027-03-01T00:00:00Z" }, ["aws-s3"], {
      providers: ["scaleway"],
    }).leaving!.dataAct;
    expect(later.rule).toMatch(/may not impose any switching charge/);
  });

  it("leaves out a retired service's data and refuses data for a service not in the list", () => {
    const plan = exitPlan(catalogue, ["azure-media-services", "azure-files"], { sovereignOption: true }, undefined, {
      "azure-media-services": 900,
      "azure-files": 100,
    });
    expect(plan.leaving!.providers[0]!.estimate!.dataGb).toBe(100);
    let thrown: unknown;
    try {
      exitPlan(catalogue, ["azure-files"], { sovereignOption: true }, undefined, { "aws-s3": 10 });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as HttpError).statusCode).toBe(400);
    expect((thrown as HttpError).details).toMatch(/dataGb names aws-s3, which is not in approvedServiceIds/);
  });
});

describe("egress.yaml's checks", () => {
  const file = (provider: Record<string, unknown>): EgressFileT =>
    ({
      dataAct: {
        name: "Data Act",
        periods: [{ from: "2024-01-11", rule: "no charges" }],
        source: { url: "https://eur-lex.europa.eu/eli/reg/2023/2854/oj", retrieved: "2026-11-28" },
      },
      providers: [provider],
    }) as EgressFileT;
  const providers = new Map([
    ["cloudflare", { file: { officialDomains: ["cloudflare.com", "developers.cloudflare.com"] } }],
  ]) as unknown as Parameters<typeof egressProblems>[2];
  const providerOf = (slug: string) => catalogue.bySlug.get(slug)?.service.providerId;
  const source = { url: "https://developers.cloudflare.com/r2/pricing/", retrieved: "2026-11-28" };

  it("names a priced service of another provider, and bands out of order", () => {
    const problems = egressProblems(
      file({
        provider: "cloudflare",
        currency: "USD",
        scope: "R2 object storage",
        source,
        services: ["aws-s3"],
        tiers: [{ upToGb: 100, perGb: 0.1 }, { upToGb: 50, perGb: 0.05 }, { perGb: 0 }],
      }),
      "egress.yaml",
      providers,
      providerOf,
    );
    expect(problems.join("\n")).toMatch(/services: "aws-s3" is not a service of cloudflare/);
    expect(problems.join("\n")).toMatch(/tiers\.1: upToGb 50 is not above the band before \(100\)/);
  });
});

describe("the planner form's jobsUsed and dataGb fields", () => {
  const fields = (jobsUsed: string | null, dataGb: string | null) =>
    listFieldsOf((key) => (key === "jobsUsed" ? jobsUsed : dataGb));

  it("reads id:job|job and id:GB lists, and writes them back the same", () => {
    const read = fields("azure-key-vault:key-management|secrets-management, aws-ec2:virtual-machines", "aws-s3:5000");
    expect(read).toEqual({
      jobsUsed: { "azure-key-vault": ["key-management", "secrets-management"], "aws-ec2": ["virtual-machines"] },
      dataGb: { "aws-s3": 5000 },
    });
    const text = listFieldsText(read);
    expect(fields(text.jobsUsed, text.dataGb)).toEqual(read);
    expect(fields(null, "")).toEqual({});
  });

  it("refuses an entry that is not id:value and a volume that is not a number of GB, as 400s", () => {
    for (const [jobsUsed, dataGb, says] of [
      ["azure-key-vault", null, /jobsUsed: "azure-key-vault" is not id:value/],
      [null, "aws-s3:lots", /dataGb: aws-s3: "lots" is not a number of GB/],
      [null, "aws-s3:-5", /is not a number of GB/],
      [null, "aws-s3:", /is not a number of GB/],
    ] as const) {
      let thrown: unknown;
      try {
        fields(jobsUsed, dataGb);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpError);
      expect((thrown as HttpError).statusCode).toBe(400);
      expect((thrown as HttpError).details).toMatch(says);
    }
  });
});
