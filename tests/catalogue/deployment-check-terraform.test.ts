/**
 * A Terraform plan of aws_* and azurerm_* resources (issue 96): each type lands on its catalogue
 * service through the aws/terraform and azure/terraform inventories, an aws_* type makes its package's
 * IAM prefix needed in the SCP verdict and an azurerm_* type its ARM type in the Azure verdict, and
 * what the inventories cannot place or check is said so, never allowed.
 *
 * No vendor commits a `terraform show -json` plan of these types (searched: hashicorp/terraform-json's
 * testdata holds null and random resources only), so the plans are built here from the documented
 * shape (developer.hashicorp.com/terraform/internals/json-format: format_version, resource_changes
 * with address, mode, type and change.actions).
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** A plan creating one resource of each type, as `terraform show -json` writes it. */
const plan = (...types: string[]) => ({
  format_version: "1.2",
  terraform_version: "1.9.8",
  resource_changes: types.map((type) => ({
    address: `${type}.main`,
    mode: "managed",
    type,
    name: "main",
    provider_name: `registry.terraform.io/hashicorp/${type.split("_")[0]}`,
    change: { actions: ["create"], before: null, after: {} },
  })),
});
const RDS_ENGINES = ["db2", "mariadb", "mysql", "oracle", "postgresql", "sql-server"].map(
  (engine) => `aws-rds-${engine}`,
);
const AWS_PLAN = plan("aws_s3_bucket", "aws_db_instance", "aws_sqs_queue", "aws_lambda_function");
const AZURE_PLAN = plan(
  "azurerm_storage_account",
  "azurerm_linux_web_app",
  "azurerm_key_vault",
  "azurerm_postgresql_flexible_server",
);

describe("an AWS Terraform plan", () => {
  it("places its four types on their services and needs each package's IAM prefix, all allowed when approved", () => {
    const answer = checkTemplate(catalogue, AWS_PLAN, ["aws-s3", "aws-sqs", "aws-lambda", "aws-rds-postgresql"]);
    expect(answer.format).toBe("terraform-plan");
    expect(answer.services.map((service) => [service.id, service.items.map((item) => item.item)])).toEqual([
      ["aws-lambda", ["aws_lambda_function"]],
      ["aws-rds-postgresql", ["aws_db_instance"]],
      ["aws-s3", ["aws_s3_bucket"]],
      ["aws-sqs", ["aws_sqs_queue"]],
    ]);
    expect(answer.unplaced).toEqual([]);
    const [aws] = answer.verdicts;
    expect(aws).toMatchObject({ providerId: "aws", allowed: true, checked: 4, denied: [] });
    const verdict = answer.statements.find((statement) => statement.kind === "verdict")!;
    expect(verdict.text).toContain("aws/terraform's iam.yaml");
    expect(verdict.checked.some((line) => line.startsWith("inventory aws/terraform iam.yaml"))).toBe(true);
  });

  it("denies what the list lacks, prefix by prefix, with the type that needs it and who would allow it", () => {
    const answer = checkTemplate(catalogue, AWS_PLAN, ["aws-s3"]);
    expect(answer.verdicts[0]!.allowed).toBe(false);
    expect(answer.verdicts[0]!.denied.map((denied) => [denied.identifier, denied.neededFor])).toEqual([
      ["lambda:*", ["aws_lambda_function"]],
      ["rds:*", ["aws_db_instance"]],
      ["sqs:*", ["aws_sqs_queue"]],
    ]);
    expect(answer.verdicts[0]!.denied[0]!.approve).toEqual(["aws-lambda"]);
    // aws_db_instance runs one of six RDS engines: one is counted, the others named as choices.
    const [choice] = answer.choices;
    expect(choice!.item).toBe("aws_db_instance");
    expect([choice!.chosen, ...choice!.oneOf].sort()).toEqual(RDS_ENGINES);
    expect(answer.missingServiceIds).toEqual(["aws-lambda", choice!.chosen, "aws-sqs"].sort());
    // The list with what the check says to add is allowed.
    expect(answer.verdicts[1]).toMatchObject({ allowed: true, checked: 4 });
  });

  it("says why a type is unplaced or unchecked: excluded by its inventory, or not in it", () => {
    const answer = checkTemplate(catalogue, plan("aws_s3_bucket", "aws_account_alternate_contact", "aws_not_a_type"), [
      "aws-s3",
    ]);
    const reasons = Object.fromEntries(answer.unplaced.map((entry) => [entry.item, entry.reason]));
    expect(reasons.aws_account_alternate_contact).toMatch(
      /aws\/terraform excludes it as account.*evaluates account:\*/,
    );
    expect(reasons.aws_not_a_type).toContain("not in the aws/terraform inventory");
    const verdict = answer.statements.find((statement) => statement.kind === "verdict")!;
    expect(verdict.text).toContain(
      "1 resource type has no IAM prefix in aws/terraform's iam.yaml and was not checked (aws_not_a_type)",
    );
    // The excluded type's prefix is still evaluated (the SCP's account essentials allow it); the unknown one is not.
    expect(answer.verdicts[0]).toMatchObject({ allowed: true, checked: 2 });
  });
});

describe("an AzureRM Terraform plan", () => {
  it("places its four types on their services and needs each type's ARM type, all allowed when approved", () => {
    const answer = checkTemplate(catalogue, AZURE_PLAN, [
      "azure-blob-storage",
      "azure-app-service",
      "azure-key-vault",
      "azure-database-for-postgresql",
    ]);
    expect(answer.services.map((service) => [service.id, service.items.map((item) => item.item)])).toEqual([
      ["azure-app-service", ["azurerm_linux_web_app"]],
      ["azure-blob-storage", ["azurerm_storage_account"]],
      ["azure-database-for-postgresql", ["azurerm_postgresql_flexible_server"]],
      ["azure-key-vault", ["azurerm_key_vault"]],
    ]);
    expect(answer.verdicts).toHaveLength(1);
    expect(answer.verdicts[0]).toMatchObject({ providerId: "azure", allowed: true, checked: 4, denied: [] });
    expect(answer.statements.find((statement) => statement.kind === "verdict")!.text).toContain(
      "the ARM type each imports, per azure/terraform's arm.yaml",
    );
  });

  it("denies the ARM types of the services the list lacks, each with the azurerm_* type needing it", () => {
    const answer = checkTemplate(catalogue, AZURE_PLAN, ["azure-key-vault"]);
    expect(answer.verdicts[0]!.denied.map((denied) => [denied.identifier, denied.neededFor])).toEqual([
      ["Microsoft.DBforPostgreSQL/flexibleServers", ["azurerm_postgresql_flexible_server"]],
      ["Microsoft.Storage/storageAccounts", ["azurerm_storage_account"]],
      ["Microsoft.Web/sites", ["azurerm_linux_web_app"]],
    ]);
    // A storage account serves every storage service: one is counted, the others named.
    expect(answer.choices.map((choice) => choice.item)).toEqual(["azurerm_storage_account"]);
    expect(answer.missingServiceIds).toContain("azure-app-service");
    expect(answer.missingServiceIds).toContain("azure-database-for-postgresql");
  });

  it("places a data-plane type without an ARM type but says no verdict covers it", () => {
    // A blob's ID is its URL: the docs give no ARM type, so Azure Policy has nothing to evaluate.
    const answer = checkTemplate(catalogue, plan("azurerm_storage_blob"), ["azure-blob-storage"]);
    expect(answer.services.map((service) => service.id)).toEqual(["azure-blob-storage"]);
    expect(answer.verdicts).toEqual([]);
    const said = answer.statements.find((statement) => statement.kind === "not-evaluated")!;
    expect(said.text).toContain("azurerm_storage_blob (no ARM type in azure/terraform's arm.yaml)");
  });
});
