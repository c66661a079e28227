/**
 * Issue 113, "What retires in my deployment, said in time": every version a deployment pins judged
 * by the phase it is in and the phases to come, as each vendor defines them (Lambda: deprecation,
 * block function create, block function update; RDS, EKS, Cloud SQL, Azure PostgreSQL: paid
 * extended support), failing on the first phase the request chooses; and the services a deployment
 * uses judged against their own lifecycle. The 23 pinned versions of
 * tests/fixtures/deployments/retiring-2026-11/ are literals, each expected phase and date read on the
 * vendors' pages the catalogue cites.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { serviceLifecycleAnswers, serviceLifecycleStatements } from "../../catalogue/templates/retiring.ts";
import type { PhasedVersionAnswer } from "../../catalogue/templates/retiring.ts";
import type { FailOn } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { build } from "../helpers/app.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const catalogue = realCatalogue();
const DAY = "2026-11-28";
const FIXTURES = new URL("../fixtures/deployments/retiring-2026-11/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), "utf8");

const versionsOf = (template: unknown, ids: string[], withinDays: number, failOn?: FailOn) =>
  checkTemplate(catalogue, template, ids, { asOf: DAY, withinDays, ...(failOn ? { failOn } : {}) })
    .versions as PhasedVersionAnswer[];

/**
 * One pinned version: where, as written, its phase on the day, and the phase that makes it retiring
 * within 90 days: the first phase past standard support (failOn's default), begun or to come.
 */
interface Pinned {
  readonly from: string;
  readonly value: string;
  readonly phase: string;
  /** The failing phase and its first day under the default failOn, or null when it is not retiring within 90 days. */
  readonly retiring: readonly [string, string] | null;
}

const CLOUDFORMATION: readonly Pinned[] = [
  // AWS Lambda runtimes page: python3.8 deprecated 2024-10-14, creating blocked 2027-02-01, updating 2027-03-03.
  { from: "ReportFn", value: "python3.8", phase: "deprecated", retiring: ["deprecated", "2024-10-15"] },
  { from: "LegacyApi", value: "nodejs16.x", phase: "deprecated", retiring: ["deprecated", "2024-06-13"] },
  // A layer's compatible runtimes: python3.12 deprecated 2028-10-31, python3.10 on 2026-10-31.
  { from: "SharedLayer", value: "python3.12", phase: "supported", retiring: null },
  { from: "SharedLayer", value: "python3.10", phase: "deprecated", retiring: ["deprecated", "2026-11-01"] },
  // RDS for PostgreSQL 11: standard support ended 2024-02-29; RDS Extended Support to 2027-03-31.
  { from: "OrdersDb", value: "11.22", phase: "extended", retiring: ["extended", "2024-03-01"] },
  // EKS 1.31: standard support ended 2025-11-26 (the first phase failed on), extended support 2026-11-26.
  { from: "Workers", value: "1.31", phase: "ended", retiring: ["extended", "2025-11-27"] },
  // Amazon MQ for ActiveMQ 5.17: end of support 2025-06-16.
  { from: "Queue", value: "5.17.6", phase: "ended", retiring: ["ended", "2025-06-17"] },
  // Neptune 1.2.1.0: end of life 2026-11-30, two days after the day.
  { from: "Graph", value: "1.2.1.0.R7", phase: "supported", retiring: ["ended", "2026-12-01"] },
  // Glue 2.0: end of support 2026-04-01.
  { from: "Etl", value: "2.0", phase: "ended", retiring: ["ended", "2026-04-02"] },
];
const ARM: readonly Pinned[] = [
  // Functions runtime 3.x reached the end of extended support on 2022-12-13.
  { from: "orders-fn", value: "~3", phase: "ended", retiring: ["ended", "2022-12-14"] },
  // App Service PHP 7.4: end of security support 2022-11-28.
  { from: "shop-web", value: "PHP|7.4", phase: "ended", retiring: ["ended", "2022-11-29"] },
  // Azure Database for PostgreSQL 12: standard support to 2026-07-31, paid extended support from 2026-08-01.
  { from: "orders-pg", value: "12", phase: "extended", retiring: ["extended", "2026-08-01"] },
  // Azure Cache for Redis Premium retires 2028-09-30; Enterprise on 2027-03-31, past 90 days.
  { from: "sessions", value: "Premium", phase: "supported", retiring: null },
  // AKS 1.30: end of life 2025-08-22 (the first phase failed on), LTS ended 2026-07-31.
  { from: "aks/batch", value: "1.30.4", phase: "ended", retiring: ["extended", "2025-08-23"] },
  { from: "catalog-cache", value: "Enterprise_E10", phase: "supported", retiring: null },
];
const TERRAFORM: readonly Pinned[] = [
  // Cloud SQL for PostgreSQL 12: extended support from 2025-02-01, charged from 2025-05-01.
  {
    from: "google_sql_database_instance.reports",
    value: "POSTGRES_12",
    phase: "extended",
    retiring: ["extended", "2025-02-01"],
  },
  // RDS for MySQL 8.0: standard support ended 2026-07-31.
  { from: "aws_db_instance.billing", value: "8.0.40", phase: "extended", retiring: ["extended", "2026-08-01"] },
  // GKE 1.34: end of standard support 2026-10-01.
  {
    from: "google_container_node_pool.general",
    value: "1.34.1-gke.1829001",
    phase: "ended",
    retiring: ["ended", "2026-10-02"],
  },
  // EKS 1.34: standard support ends 2026-12-02, inside the window.
  { from: "aws_eks_node_group.web", value: "1.34", phase: "supported", retiring: ["extended", "2026-12-03"] },
  { from: "azurerm_linux_function_app.events", value: "~4", phase: "supported", retiring: null },
  // App Service PHP 8.2: end of security support 2026-12-31.
  { from: "azurerm_linux_web_app.shop", value: "8.2", phase: "supported", retiring: ["ended", "2027-01-01"] },
  { from: "aws_mq_broker.events", value: "3.13.7", phase: "supported", retiring: null },
  // ACK 1.33: end of life May 2026.
  {
    from: "alicloud_cs_managed_kubernetes.edge",
    value: "1.33.3-aliyun.1",
    phase: "ended",
    retiring: ["ended", "2026-06-01"],
  },
];

const judged = (answers: readonly PhasedVersionAnswer[]) =>
  answers.map((answer) => ({
    from: answer.from,
    value: answer.value,
    phase: answer.phase ?? answer.status,
    retiring: answer.retiring ? ([answer.retiringPhase!.phase, answer.retiringPhase!.starts] as const) : null,
  }));

describe("23 pinned versions across CloudFormation, ARM and Terraform (issue 113)", () => {
  it("flags each CloudFormation version with its phase and date, and no other", () => {
    const answers = versionsOf(fixture("cloudformation.yaml"), ["aws-lambda"], 90);
    expect(judged(answers)).toEqual(CLOUDFORMATION);
  });

  it("flags each ARM version with its phase and date, and no other", () => {
    const answers = versionsOf(JSON.parse(fixture("arm.json")), ["azure-functions"], 90);
    expect(judged(answers)).toEqual(ARM);
  });

  it("flags each Terraform plan version with its phase and date, and no other", () => {
    const answers = versionsOf(JSON.parse(fixture("terraform-plan.json")), ["gcp-cloud-sql-postgresql"], 90);
    expect(judged(answers)).toEqual(TERRAFORM);
  });

  it("knows every pinned version: none is said not known, none is matched to a nearest", () => {
    const all = [
      ...versionsOf(fixture("cloudformation.yaml"), ["aws-lambda"], 90),
      ...versionsOf(JSON.parse(fixture("arm.json")), ["azure-functions"], 90),
      ...versionsOf(JSON.parse(fixture("terraform-plan.json")), ["aws-eks"], 90),
    ];
    expect(all).toHaveLength(23);
    expect(all.filter((answer) => answer.status === "unknown")).toEqual([]);
    expect(all.filter((answer) => answer.retiring)).toHaveLength(18);
  });
});

describe("the phases as each vendor defines them", () => {
  const lambda = () =>
    versionsOf(fixture("cloudformation.yaml"), ["aws-lambda"], 90).find((answer) => answer.value === "python3.8")!;

  it("gives a Lambda runtime AWS's three dates and no extended support", () => {
    const answer = lambda();
    expect(answer.phases!.map(({ phase, starts, name }) => [phase, starts, name])).toEqual([
      ["deprecated", "2024-10-15", "Deprecation"],
      ["block-create", "2027-02-01", "Block function create"],
      ["block-update", "2027-03-03", "Block function update"],
    ]);
    expect(answer.phases!.some((phase) => phase.phase === "extended")).toBe(false);
    expect(answer.phases![1]!.consequence).toMatch(/can no longer be created/);
  });

  it("says a Lambda runtime is deprecated, never in extended support", () => {
    const statements = checkTemplate(catalogue, fixture("cloudformation.yaml"), ["aws-lambda"], {
      asOf: DAY,
      withinDays: 90,
    }).statements.map((statement) => statement.text);
    const lambdaText = statements.find((text) => text.includes("ReportFn"))!;
    expect(lambdaText).toContain(
      "ReportFn (Runtime python3.8): deprecated (no extended support) since 2024-10-15; creating blocked from 2027-02-01 (Block function create); updating blocked from 2027-03-03 (Block function update)",
    );
    expect(lambdaText).not.toMatch(/ReportFn[^;]*in (paid )?extended support/);
    expect(lambdaText).toContain("OrdersDb (EngineVersion 11.22): in paid extended support since 2024-03-01");
  });

  it("states extended support's price basis where the vendor states it", () => {
    const [reports] = versionsOf(JSON.parse(fixture("terraform-plan.json")), ["aws-eks"], 90);
    expect(reports!.retiringPhase).toMatchObject({
      phase: "extended",
      paid: true,
      price: expect.stringContaining("May 1, 2025"),
    });
    const pg = versionsOf(JSON.parse(fixture("arm.json")), ["azure-functions"], 90).find(
      (answer) => answer.from === "orders-pg",
    )!;
    expect(pg.retiringPhase).toMatchObject({ paid: true, price: expect.stringContaining("August 1, 2026") });
  });
});

describe("failOn: the first phase the check fails on", () => {
  const plan = (type: string, after: Record<string, unknown>) => terraformPlan([[type, "x", after]]);
  const retiring = (template: unknown, withinDays: number, failOn?: FailOn) =>
    versionsOf(template, ["aws-lambda"], withinDays, failOn)[0]!;
  const lambda = (runtime: string) => ({
    Resources: { Fn: { Type: "AWS::Lambda::Function", Properties: { Runtime: runtime } } },
  });

  it("fails within 90 days on the issue's versions already past a phase: Lambda python3.8 and nodejs16.x, RDS PostgreSQL 11, Cloud SQL POSTGRES_12", () => {
    expect(retiring(lambda("python3.8"), 90)).toMatchObject({ retiring: true, phase: "deprecated" });
    expect(retiring(lambda("nodejs16.x"), 90)).toMatchObject({ retiring: true, phase: "deprecated" });
    expect(retiring(plan("aws_db_instance", { engine: "postgres", engine_version: "11" }), 90)).toMatchObject({
      retiring: true,
      phase: "extended",
    });
    expect(retiring(plan("google_sql_database_instance", { database_version: "POSTGRES_12" }), 90)).toMatchObject({
      retiring: true,
      phase: "extended",
    });
    // And within 180 days Cloud SQL PG12 and RDS MySQL 8.0.40 likewise.
    expect(retiring(plan("google_sql_database_instance", { database_version: "POSTGRES_12" }), 180).retiring).toBe(
      true,
    );
    expect(retiring(plan("aws_db_instance", { engine: "mysql", engine_version: "8.0.40" }), 180).retiring).toBe(true);
  });

  it("fails on extended support or worse with extended: a Lambda runtime only once creating is blocked", () => {
    // python3.8 is deprecated (not extended); its block-create day, 2027-02-01, is 65 days away.
    expect(retiring(lambda("python3.8"), 30, "extended")).toMatchObject({ retiring: false, phase: "deprecated" });
    expect(retiring(lambda("python3.8"), 90, "extended")).toMatchObject({
      retiring: true,
      retiringPhase: { phase: "block-create", starts: "2027-02-01" },
    });
    // RDS PostgreSQL 11 has been in paid extended support since 2024-03-01: retiring now.
    const rds = plan("aws_db_instance", { engine: "postgres", engine_version: "11" });
    expect(retiring(rds, 0, "extended")).toMatchObject({ retiring: true, retiringPhase: { phase: "extended" } });
  });

  it("fails only on the vendor's refusal or the end with end", () => {
    const rds = plan("aws_db_instance", { engine: "postgres", engine_version: "11" });
    // RDS Extended Support for PostgreSQL 11 ends 2027-03-31: 123 days away.
    expect(retiring(rds, 90, "end").retiring).toBe(false);
    expect(retiring(rds, 124, "end")).toMatchObject({
      retiring: true,
      retiringPhase: { phase: "ended", starts: "2027-04-01" },
    });
    expect(retiring(lambda("nodejs16.x"), 64, "end").retiring).toBe(false);
    expect(retiring(lambda("nodejs16.x"), 65, "end").retiringPhase).toMatchObject({ phase: "block-create" });
    // A version ended long ago is retiring now, whatever the window.
    expect(retiring(lambda("python2.7"), 0, "end")).toMatchObject({ retiring: true, phase: "block-update" });
  });

  it("reads Engine: Postgres whatever its case, and an app setting whatever its name's case", () => {
    const pg = {
      Resources: { Db: { Type: "AWS::RDS::DBInstance", Properties: { Engine: "POSTGRES", EngineVersion: "13.4" } } },
    };
    expect(retiring(pg, 90)).toMatchObject({ serviceId: "aws-rds-postgresql", version: "13", phase: "extended" });
  });

  it("takes failOn on the API and refuses any other value", async () => {
    const app = await build();
    onTestFinished(() => app.close());
    const check = (body: object) =>
      app.inject({
        method: "POST",
        url: "/v1/deployments/check",
        payload: { template: lambda("python3.8"), approvedServiceIds: ["aws-lambda"], retiringWithin: "30d", ...body },
      });
    const deprecated = await check({});
    expect(deprecated.statusCode).toBe(200);
    expect(deprecated.json().versions[0]).toMatchObject({ retiring: true, failOn: "deprecated", phase: "deprecated" });
    const end = await check({ failOn: "end" });
    expect(end.statusCode).toBe(200);
    expect(end.json().versions[0]).toMatchObject({ retiring: false, failOn: "end" });
    const refused = await check({ failOn: "soon" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toContain("failOn");
  });
});

describe("the services a deployment uses, against their own lifecycle", () => {
  it("says Azure Blueprints sunsets within 90 days, DevOps Guru and Cloud Directory only in a longer window", () => {
    const ids = ["azure-blueprints", "aws-devops-guru", "aws-cloud-directory", "aws-s3"];
    const within90 = serviceLifecycleAnswers(catalogue, ids, DAY, 90);
    expect(within90.map(({ serviceId, date, retiring }) => [serviceId, date, retiring])).toEqual([
      ["aws-cloud-directory", "2027-07-24", false],
      ["aws-devops-guru", "2027-09-30", false],
      ["azure-blueprints", "2027-01-31", true],
    ]);
    const within365 = serviceLifecycleAnswers(catalogue, ids, DAY, 365);
    expect(within365.every((answer) => answer.retiring)).toBe(true);
    const [statement] = serviceLifecycleStatements(within90, 90);
    expect(statement!.text).toContain("azure-blueprints sunsets on 2027-01-31 (successor azure-resource-manager)");
    expect(statement!.checked).toEqual([
      "https://learn.microsoft.com/azure/governance/blueprints/migrate-to-template-specs",
    ]);
  });
});
