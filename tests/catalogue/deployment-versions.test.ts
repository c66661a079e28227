/**
 * Issue 99: the attributes of a deployment that name a version a vendor retires, read as literals
 * with the service whose versions they name; anything else is not read as a version.
 */
import { describe, expect, it } from "vitest";
import { versionedAttributes } from "../../catalogue/templates/versioned.ts";

const serviceAndVersion = (found: ReturnType<typeof versionedAttributes>) =>
  found.map(({ serviceId, version }) => [serviceId, version]);

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
        version: "nodejs18.x",
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
    expect(serviceAndVersion(sql)).toEqual([["gcp-cloud-sql-mysql", "8.0"]]);
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
  });
});
