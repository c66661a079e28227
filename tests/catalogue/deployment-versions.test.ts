/**
 * Issue 99: the attributes of a deployment that name a version a vendor retires, read as literals
 * with the service whose versions they name; anything else is not read as a version.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { versionedAttributes } from "../../catalogue/templates/tables/versioned.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { build } from "../helpers/app.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const serviceAndVersion = (found: ReturnType<typeof versionedAttributes>) =>
  found.map(({ serviceId, value }) => [serviceId, value]);

describe("versioned attributes", () => {
  it("reads a Lambda runtime and an EKS version from CloudFormation properties", () => {
    expect(
      versionedAttributes("cloudformation-type", "AWS::Lambda::Function", { Runtime: "nodejs18.x" }, "Fn"),
    ).toEqual([
      {
        type: "AWS::Lambda::Function",
        from: "Fn",
        attribute: "Runtime",
        value: "nodejs18.x",
        serviceId: "aws-lambda",
      },
    ]);
    // YAML reads an unquoted 1.29 as a number: it is the version as written.
    const eks = versionedAttributes("cloudformation-type", "AWS::EKS::Cluster", { Version: 1.29 }, "C");
    expect(serviceAndVersion(eks)).toEqual([["aws-eks", "1.29"]]);
  });

  it("chooses the service by the engine where one type serves several", () => {
    const pg = versionedAttributes(
      "cloudformation-type",
      "AWS::RDS::DBInstance",
      { Engine: "postgres", EngineVersion: "13.7" },
      "Db",
    );
    expect(serviceAndVersion(pg)).toEqual([["aws-rds-postgresql", "13.7"]]);
    const aurora = versionedAttributes(
      "terraform-type",
      "aws_rds_cluster",
      { engine: "aurora-postgresql", engine_version: "15.4" },
      "aws_rds_cluster.main",
    );
    expect(serviceAndVersion(aurora)).toEqual([["aws-aurora", "15.4"]]);
  });

  it("reads Kubernetes and database versions of Azure and Google resources", () => {
    const aks = versionedAttributes(
      "azure-type",
      "microsoft.containerservice/managedClusters",
      { properties: { kubernetesVersion: "1.28.5" } },
      "aks",
    );
    expect(serviceAndVersion(aks)).toEqual([["azure-kubernetes-service", "1.28.5"]]);
    const sql = versionedAttributes(
      "terraform-type",
      "google_sql_database_instance",
      { database_version: "MYSQL_8_0" },
      "db",
    );
    expect(serviceAndVersion(sql)).toEqual([["gcp-cloud-sql-mysql", "MYSQL_8_0"]]);
  });

  it("reads no version from a reference, an unknown engine or another type", () => {
    expect(versionedAttributes("cloudformation-type", "AWS::Lambda::Function", { Runtime: { Ref: "R" } }, "F")).toEqual(
      [],
    );
    expect(versionedAttributes("terraform-type", "aws_lambda_function", { runtime: "${var.runtime}" }, "f")).toEqual(
      [],
    );
    expect(
      versionedAttributes("terraform-type", "aws_db_instance", { engine: "oracle-ee", engine_version: "19" }, "o"),
    ).toEqual([]);
    expect(versionedAttributes("terraform-type", "aws_s3_bucket", { runtime: "nodejs18.x" }, "b")).toEqual([]);
    expect(
      versionedAttributes(
        "azure-type",
        "Microsoft.Web/sites",
        { kind: "functionapp,linux", properties: { siteConfig: { linuxFxVersion: "[parameters('stack')]" } } },
        "fn",
      ),
    ).toEqual([]);
  });
});

const catalogue = realCatalogue();
const ON = (withinDays: number, failOn?: "deprecated" | "extended" | "end") => ({
  asOf: "2026-11-28",
  withinDays,
  ...(failOn ? { failOn } : {}),
});
const plan = (resources: { type: string; name: string; after: Record<string, unknown> }[]) =>
  terraformPlan(resources.map(({ type, name, after }) => [type, name, after] as const));

describe("what in a deployment retires", () => {
  it("reports an EKS version in extended support from a Terraform plan: retiring now, or on its end with failOn end", () => {
    const eks = plan([{ type: "aws_eks_cluster", name: "main", after: { name: "main", version: "1.33" } }]);
    // EKS 1.33: standard support ended 2026-07-29, extended support ends 2027-07-29.
    const [within180] = checkTemplate(catalogue, eks, ["aws-eks"], ON(180)).versions;
    expect(within180).toMatchObject({
      from: "aws_eks_cluster.main",
      attribute: "version",
      value: "1.33",
      serviceId: "aws-eks",
      status: "extended",
      phase: "extended",
      version: "1.33",
      ends: "2027-07-29",
      endsWhich: "extendedEnd",
      retiring: true,
      retiringPhase: {
        phase: "extended",
        starts: "2026-07-30",
        paid: true,
        price: "an additional cost per cluster hour",
      },
      failOn: "deprecated",
      source: { url: "https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html" },
    });
    // Failing only on the end: not within 180 days, within 365.
    expect(checkTemplate(catalogue, eks, ["aws-eks"], ON(180, "end")).versions[0]!.retiring).toBe(false);
    const answer = checkTemplate(catalogue, eks, ["aws-eks"], ON(365, "end"));
    expect(answer.versions[0]).toMatchObject({
      retiring: true,
      retiringPhase: { phase: "ended", starts: "2027-07-30" },
    });
    expect(answer.statements.find((statement) => statement.kind === "versions")!.text).toContain(
      "aws_eks_cluster.main (version 1.33): in paid extended support since 2026-07-30; ended from 2027-07-30 (End of extended support)",
    );
  });

  it("reports an ARM AKS cluster and a PostgreSQL flexible server by their versions", () => {
    const arm = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [
        {
          type: "Microsoft.ContainerService/managedClusters",
          apiVersion: "2024-02-01",
          name: "aks",
          location: "westeurope",
          properties: { kubernetesVersion: "1.31.5", dnsPrefix: "aks" },
        },
        {
          type: "Microsoft.DBforPostgreSQL/flexibleServers",
          apiVersion: "2023-06-01-preview",
          name: "pg",
          location: "westeurope",
          properties: { version: "14" },
        },
      ],
    };
    const versions = checkTemplate(catalogue, arm, ["azure-kubernetes-service"], ON(180)).versions;
    expect(versions.map(({ from, status, ends, retiring }) => ({ from, status, ends, retiring }))).toEqual([
      { from: "aks", status: "extended", ends: "2026-11-30", retiring: true },
      // PostgreSQL 14: standard support ends 2026-12-11 (Microsoft's page, issue 124), within the window.
      { from: "pg", status: "supported", ends: "2026-12-11", retiring: true },
    ]);
  });

  it("reports an ARM App Service stack: a function app's by its language page, a web app's as not known", () => {
    const site = (name: string, kind: string, linuxFxVersion: string) => ({
      type: "Microsoft.Web/sites",
      apiVersion: "2023-12-01",
      name,
      kind,
      location: "westeurope",
      properties: { siteConfig: { linuxFxVersion } },
    });
    const arm = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [
        site("fn-node", "functionapp,linux", "Node|20"),
        site("fn-dotnet", "functionapp,linux", "DOTNET-ISOLATED|10.0"),
        site("web", "app,linux", "PYTHON|3.12"),
        // A container image names no stack the vendor retires: it is not read as a version.
        site("web-container", "app,linux,container", "DOCKER|nginx:1.27"),
      ],
    };
    const answer = checkTemplate(catalogue, arm, ["azure-functions", "azure-app-service"], ON(30));
    expect(
      answer.versions.map(({ from, attribute, serviceId, status, ends, retiring }) => ({
        from,
        attribute,
        serviceId,
        status,
        ends,
        retiring,
      })),
    ).toEqual([
      // Node.js 20 on Functions: expected end of support April 30, 2026 (past on the day).
      {
        from: "fn-node",
        attribute: "properties.siteConfig.linuxFxVersion",
        serviceId: "azure-functions",
        status: "ended",
        ends: "2026-04-30",
        retiring: true,
      },
      // .NET 10 (isolated worker model): November 14, 2028, beyond the window.
      {
        from: "fn-dotnet",
        attribute: "properties.siteConfig.linuxFxVersion",
        serviceId: "azure-functions",
        status: "supported",
        ends: "2028-11-14",
        retiring: false,
      },
      {
        from: "web",
        attribute: "properties.siteConfig.linuxFxVersion",
        serviceId: "azure-app-service",
        status: "unknown",
        ends: undefined,
        retiring: false,
      },
    ]);
    expect(answer.versions[0]!.source?.url).toBe(
      "https://learn.microsoft.com/azure/azure-functions/supported-languages",
    );
    expect(answer.statements.map((statement) => statement.text)).toContainEqual(
      expect.stringContaining("fn-node (properties.siteConfig.linuxFxVersion Node|20): ended since 2026-05-01"),
    );
    expect(answer.statements.map((statement) => statement.text)).toContainEqual(
      expect.stringContaining("1 version is not known to the catalogue"),
    );
  });

  it("reports a Cloud SQL for PostgreSQL and an RDS for MariaDB version from a Terraform plan", () => {
    const answer = checkTemplate(
      catalogue,
      plan([
        { type: "google_sql_database_instance", name: "pg", after: { database_version: "POSTGRES_14" } },
        { type: "aws_db_instance", name: "maria", after: { engine: "mariadb", engine_version: "10.6.14" } },
      ]),
      ["gcp-cloud-sql-postgresql", "aws-rds-mariadb"],
      ON(60),
    );
    expect(
      answer.versions.map(({ serviceId, version, status, ends, endsWhich, retiring }) => ({
        serviceId,
        version,
        status,
        ends,
        endsWhich,
        retiring,
      })),
    ).toEqual([
      // Google: PostgreSQL 14's extended support starts February 1, 2027.
      {
        serviceId: "gcp-cloud-sql-postgresql",
        version: "POSTGRES_14",
        status: "supported",
        ends: "2027-01-31",
        endsWhich: "standardEnd",
        retiring: false,
      },
      // AWS: RDS for MariaDB 10.6's end of standard support is December 31, 2026.
      {
        serviceId: "aws-rds-mariadb",
        version: "10.6",
        status: "supported",
        ends: "2026-12-31",
        endsWhich: "standardEnd",
        retiring: true,
      },
    ]);
  });

  it("reads a Linux function app's language stack from a Terraform plan's and a .tf file's nested blocks", () => {
    const stack = (application_stack: Record<string, unknown>) => ({
      site_config: [{ application_stack: [application_stack] }],
    });
    const fromPlan = checkTemplate(
      catalogue,
      plan([
        { type: "azurerm_linux_function_app", name: "node", after: stack({ node_version: "22" }) },
        { type: "azurerm_linux_function_app", name: "py", after: stack({ python_version: "3.12" }) },
      ]),
      ["azure-functions"],
      ON(90),
    ).versions;
    const tf = `resource "azurerm_linux_function_app" "node" {
  name = "fn"
  site_config {
    application_stack {
      node_version = "22"
    }
  }
}

resource "azurerm_linux_function_app" "py" {
  name = "py"
  site_config {
    application_stack {
      python_version = "3.12"
    }
  }
}
`;
    const fromConfig = checkTemplate(catalogue, tf, ["azure-functions"], ON(90)).versions;
    for (const versions of [fromPlan, fromConfig]) {
      // Node.js 22 on Functions: expected end of support April 30, 2027 (Microsoft's language page), past a 90-day window.
      expect(versions[0]).toMatchObject({
        from: "azurerm_linux_function_app.node",
        attribute: "site_config.0.application_stack.0.node_version",
        value: "22",
        serviceId: "azure-functions",
        family: "node",
        version: "22",
        status: "supported",
        ends: "2027-04-30",
        retiring: false,
      });
      // Python on Functions (recorded from issue 121): 3.12's expected end of support is October 2028.
      expect(versions[1]).toMatchObject({
        value: "3.12",
        family: "python",
        status: "supported",
        ends: "2028-10-31",
        retiring: false,
      });
    }
  });

  it("reads an MSK cluster's Kafka version as its release line, from CloudFormation and a plan", () => {
    const template = {
      Resources: { Kafka: { Type: "AWS::MSK::Cluster", Properties: { KafkaVersion: "3.6.0", ClusterName: "k" } } },
    };
    // AWS's supported Kafka versions page: 3.6's end of support is 2026-06-01, past on the day.
    expect(checkTemplate(catalogue, template, ["aws-msk"], ON(30)).versions[0]).toMatchObject({
      serviceId: "aws-msk",
      value: "3.6.0",
      version: "3.6",
      status: "ended",
      ends: "2026-06-01",
      retiring: true,
    });
    const fromPlan = checkTemplate(
      catalogue,
      plan([{ type: "aws_msk_cluster", name: "k", after: { kafka_version: "3.9.x" } }]),
      ["aws-msk"],
      ON(30),
    ).versions[0];
    // 3.9 has no end published: supported, no date.
    expect(fromPlan).toMatchObject({ version: "3.9", status: "supported", retiring: false });
    expect(fromPlan).not.toHaveProperty("ends");
  });

  it("reads an OpenSearch domain's engine version, and no Elasticsearch version as one", () => {
    const answer = checkTemplate(
      catalogue,
      plan([
        { type: "aws_opensearch_domain", name: "search", after: { engine_version: "OpenSearch_2.9" } },
        { type: "aws_opensearch_domain", name: "legacy", after: { engine_version: "Elasticsearch_7.10" } },
      ]),
      ["aws-opensearch"],
      ON(365),
    ).versions;
    // AWS: OpenSearch 2.9's standard support ended 2025-11-07, its extended support ends 2027-11-07.
    expect(answer[0]).toMatchObject({
      version: "OpenSearch_2.9",
      status: "extended",
      ends: "2027-11-07",
      endsWhich: "extendedEnd",
      retiring: true,
    });
    expect(answer[1]).toMatchObject({ value: "Elasticsearch_7.10", status: "unknown" });
  });

  it("reads a DocumentDB cluster's engine version as its release line", () => {
    const template = {
      Resources: { Docs: { Type: "AWS::DocDB::DBCluster", Properties: { EngineVersion: "3.6.0" } } },
    };
    // AWS: DocumentDB 3.6's standard support ended 2026-03-30; extended support runs to 2029-03-30.
    expect(checkTemplate(catalogue, template, ["aws-documentdb"], ON(180)).versions[0]).toMatchObject({
      serviceId: "aws-documentdb",
      version: "3.6",
      status: "extended",
      phase: "extended",
      ends: "2029-03-30",
      retiring: true,
    });
    expect(checkTemplate(catalogue, template, ["aws-documentdb"], ON(180, "end")).versions[0]!.retiring).toBe(false);
  });

  it("says a version it does not hold is not known, never the nearest one", () => {
    const eks = plan([{ type: "aws_eks_cluster", name: "old", after: { version: "1.2" } }]);
    const answer = checkTemplate(catalogue, eks, ["aws-eks"], ON(180));
    expect(answer.versions[0]).toMatchObject({ value: "1.2", status: "unknown", retiring: false });
    expect(answer.versions[0]).not.toHaveProperty("version");
    expect(answer.statements.map((statement) => statement.text)).toContainEqual(
      expect.stringContaining("1 version is not known to the catalogue"),
    );
  });

  it("takes retiringWithin on the API and refuses one that is no number of days", async () => {
    const app = await build();
    onTestFinished(() => app.close());
    const template = { Resources: { Fn: { Type: "AWS::Lambda::Function", Properties: { Runtime: "python3.9" } } } };
    const check = (body: object) =>
      app.inject({
        method: "POST",
        url: "/v1/deployments/check",
        payload: { template, approvedServiceIds: ["aws-lambda"], ...body },
      });
    const answered = await check({ retiringWithin: "30d" });
    expect(answered.statusCode).toBe(200);
    // python3.9: deprecated 2025-12-15, function updates blocked from 2027-03-03 (AWS's runtimes page).
    expect(answered.json().versions[0]).toMatchObject({ value: "python3.9", version: "python3.9", family: "python" });
    const refused = await check({ retiringWithin: "soon" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "Invalid body" });
    expect(refused.json().details).toContain("retiringWithin");
  });
});
