/**
 * Issue 124's exit-plan findings, each as a test, on the six stacks judged before the code changed
 * (docs/audits/issue-124-six-stacks.md): Kafka services in the groups whose rule says they do the
 * job (MSK to OTC's Kafka service, not its Data Ingestion Service); a flagship per job from the
 * vendor's own positioning (Cloudflare Queues to SQS, not Amazon MQ); the three false gaps closed
 * (Heroku Scheduler, Turnstile, Cloud Composer); a protocol the service speaks and the target does
 * not named as lost (Kafka, HBase, MongoDB); a waiver line for every provider left; no invented
 * estimate figures; the Data Act's Articles 25 and 34 with their pages.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import type { ExitPlanT, ExitTargetT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const catalogue = realCatalogue();
const plan = (ids: string[], to: ExitTargetT, dataGb?: Record<string, number>): ExitPlanT =>
  exitPlan(catalogue, ids, to, undefined, dataGb);
const entry = (result: ExitPlanT, slug: string) => result.services.find((service) => service.slug === slug)!;
const first = (result: ExitPlanT, slug: string) => entry(result, slug).candidates[0]?.slug;
const job = (result: ExitPlanT, slug: string, group: string) =>
  entry(result, slug).jobs!.find((each) => each.group === group)!;

describe("exit plans after issue 124", () => {
  it("moves Amazon MSK to Open Telekom Cloud's Kafka service, for both its jobs", () => {
    const result = plan(["aws-msk", "aws-ec2", "aws-s3"], { providers: ["otc"] });
    expect(first(result, "aws-msk")).toBe("otc-distributed-message-service");
    for (const group of ["stream-ingestion", "managed-kafka"])
      expect(job(result, "aws-msk", group).by).toBe("otc-distributed-message-service");
  });

  it("names Kafka as lost where the only stream store speaks no Kafka", () => {
    const result = plan(["aws-msk"], { providers: ["s3ns"] });
    expect(job(result, "aws-msk", "stream-ingestion").lost).toEqual([expect.stringMatching(/^kafka: not supported/)]);
  });

  it("takes the vendor's own queue service as AWS's flagship: Cloudflare Queues to SQS, not Amazon MQ", () => {
    expect(first(plan(["cloudflare-queues"], { providers: ["aws"] }), "cloudflare-queues")).toBe("aws-sqs");
  });

  it("closes the three false gaps with the vendors' pages", () => {
    expect(first(plan(["cloudflare-turnstile"], { providers: ["aws"] }), "cloudflare-turnstile")).toBe("aws-waf");
    expect(first(plan(["heroku-scheduler"], { providers: ["digitalocean"] }), "heroku-scheduler")).toBe(
      "digitalocean-app-platform",
    );
    expect(first(plan(["gcp-cloud-composer"], { providers: ["azure"] }), "gcp-cloud-composer")).toBe(
      "azure-microsoft-fabric",
    );
  });

  it("names the protocols a service speaks, even in part, that the target records it does not", () => {
    const result = plan(["gcp-bigtable", "gcp-firestore"], { providers: ["azure"] });
    expect(job(result, "gcp-bigtable", "wide-column-database").lost).toContainEqual(
      expect.stringMatching(/^apache-hbase: not supported/),
    );
    expect(job(result, "gcp-firestore", "document-database").lost).toContainEqual(
      expect.stringMatching(/^mongodb: not supported/),
    );
  });

  it("says for every provider left whether an exit waiver is recorded, and invents no estimate figure", () => {
    const result = plan(["aws-s3", "gcp-cloud-storage"], { providers: ["scaleway"] }, { "aws-s3": 120000 });
    const aws = result.leaving!.providers.find((provider) => provider.providerId === "aws")!;
    expect(aws.waiverRecorded).toBe(false);
    expect(aws.words).toMatch(/Exit waiver: not recorded/);
    expect(aws.estimate).toEqual({ dataGb: 120000, words: expect.stringMatching(/so no estimate/) });
    const gcp = result.leaving!.providers.find((provider) => provider.providerId === "gcp")!;
    expect(gcp.waiverRecorded).toBe(true);
    expect(gcp.waiver).toBeDefined();
  });

  it("states the Data Act's Article 25 periods and Article 34 on parallel use, each with EUR-Lex", () => {
    const rules = plan(["aws-s3"], { providers: ["scaleway"] }).leaving!.dataAct.rules!;
    expect(rules.map((rule) => rule.article)).toEqual([
      expect.stringMatching(/^Article 25/),
      expect.stringMatching(/^Article 34/),
    ]);
    expect(rules[0]!.says).toMatch(/two months.*30 calendar days/);
    expect(rules[1]!.says).toMatch(/parallel/);
    for (const rule of rules) expect(rule.source.url).toBe("https://eur-lex.europa.eu/eli/reg/2023/2854/oj");
  });
});
