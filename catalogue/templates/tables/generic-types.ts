/**
 * Resource types that serve several catalogue services, told apart by an attribute the resource
 * states (an engine, a kind), as data: the services rule places such a resource in the service its
 * traits name (../rules/services.ts), and the evaluator reads those attributes
 * (../evaluate/instances.ts). A value the table does not hold leaves the type to the inventories.
 */
import type { DeploymentItem } from "../model/deployment.ts";

export interface GenericType {
  readonly kind: DeploymentItem["kind"];
  readonly type: string;
  /** The attribute (dotted path) whose value names the service; "*" in byValue names it whatever the attribute says. */
  readonly attribute: string;
  /** Lower-cased value (or its prefix before "_", Cloud SQL's POSTGRES_15) → catalogue service. */
  readonly byValue: Readonly<Record<string, string>>;
  /** The vendor page that lists the values. */
  readonly source: string;
}

const RDS = {
  postgres: "aws-rds-postgresql",
  mysql: "aws-rds-mysql",
  mariadb: "aws-rds-mariadb",
  "aurora-postgresql": "aws-aurora",
  "aurora-mysql": "aws-aurora",
  aurora: "aws-aurora",
  oracle: "aws-rds-oracle",
  sqlserver: "aws-rds-sql-server",
  db2: "aws-rds-db2",
};
const RDS_SOURCE = "https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/API_CreateDBInstance.html";

export const GENERIC_TYPES: readonly GenericType[] = [
  {
    kind: "terraform-type",
    type: "ovh_cloud_project_database",
    attribute: "engine",
    byValue: {
      postgresql: "ovhcloud-managed-postgresql",
      mysql: "ovhcloud-managed-mysql",
      mongodb: "ovhcloud-managed-mongodb",
      valkey: "ovhcloud-managed-valkey",
      kafka: "ovhcloud-managed-kafka",
      opensearch: "ovhcloud-managed-opensearch",
    },
    source: "https://registry.terraform.io/providers/ovh/ovh/latest/docs/resources/cloud_project_database",
  },
  ...(["aws_db_instance", "aws_rds_cluster"] as const).map((type) => ({
    kind: "terraform-type" as const,
    type,
    attribute: "engine",
    byValue: RDS,
    source: RDS_SOURCE,
  })),
  ...(["AWS::RDS::DBInstance", "AWS::RDS::DBCluster"] as const).map((type) => ({
    kind: "cloudformation-type" as const,
    type,
    attribute: "Engine",
    byValue: RDS,
    source: RDS_SOURCE,
  })),
  {
    kind: "terraform-type",
    type: "google_sql_database_instance",
    attribute: "database_version",
    byValue: {
      postgres: "gcp-cloud-sql-postgresql",
      mysql: "gcp-cloud-sql-mysql",
      sqlserver: "gcp-cloud-sql-sql-server",
    },
    source: "https://cloud.google.com/sql/docs/db-versions",
  },
  {
    // The virtual data centre every IONOS Compute Engine server, volume and LAN is created in.
    kind: "terraform-type",
    type: "ionoscloud_datacenter",
    attribute: "location",
    byValue: { "*": "ionos-compute-engine" },
    source: "https://registry.terraform.io/providers/ionos-cloud/ionoscloud/latest/docs/resources/datacenter",
  },
  {
    kind: "azure-type",
    type: "Microsoft.Web/sites",
    attribute: "kind",
    byValue: { functionapp: "azure-functions", app: "azure-app-service" },
    source: "https://learn.microsoft.com/en-us/azure/app-service/reference-app-settings",
  },
];

const normal = (value: string) => value.trim().toLowerCase();

/** The attributes the evaluator reads as traits of a type. */
export const traitAttributes = (kind: DeploymentItem["kind"], type: string): string[] =>
  GENERIC_TYPES.filter((row) => row.kind === kind && sameType(row, type)).map((row) => row.attribute);

const sameType = (row: GenericType, type: string) =>
  row.kind === "azure-type" ? row.type.toLowerCase() === type.toLowerCase() : row.type === type;

/** The service an instance's traits name, when the table holds its value. */
export function serviceOfTraits(
  kind: DeploymentItem["kind"],
  type: string,
  traits: Readonly<Record<string, string>>,
): string | undefined {
  for (const row of GENERIC_TYPES) {
    if (row.kind !== kind || !sameType(row, type)) continue;
    if (row.byValue["*"]) return row.byValue["*"];
    if (traits[row.attribute] === undefined) continue;
    const value = normal(traits[row.attribute]!);
    // A site's kind is a list ("functionapp,linux"); Cloud SQL's version names its engine (POSTGRES_15);
    // an RDS engine its edition (oracle-ee, sqlserver-se).
    const keys = [value, value.split(",")[0]!, value.split("_")[0]!, value.split("-")[0]!];
    const found = keys.find((key) => Object.hasOwn(row.byValue, key));
    if (found) return row.byValue[found];
  }
  return undefined;
}

/** Every attribute any row reads (the configuration reader keeps them). */
export const TRAIT_ATTRIBUTES: readonly string[] = [
  ...new Set(GENERIC_TYPES.map((row) => row.attribute.split(".")[0]!)),
];

/**
 * Types a newer provider release removed in favour of another that creates the same resource: a
 * configuration written for the older release is placed as the newer type (azurerm 4.0 removed the
 * App Service and Function App resources of 2.x/3.x for their Linux and Windows forms, which import
 * the same ARM types: https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/guides/4.0-upgrade-guide).
 */
export const RENAMED_TYPES: ReadonlyMap<string, string> = new Map([
  ["azurerm_app_service", "azurerm_linux_web_app"],
  ["azurerm_app_service_slot", "azurerm_linux_web_app_slot"],
  ["azurerm_app_service_plan", "azurerm_service_plan"],
  ["azurerm_function_app", "azurerm_linux_function_app"],
  ["azurerm_function_app_slot", "azurerm_linux_function_app_slot"],
]);

/**
 * Policy identifiers the inventories cannot give: azure/terraform's arm.yaml maps a type by the
 * provider namespace of the ID it imports, and a resource group's ID
 * (/subscriptions/{id}/resourceGroups/{name}) has none; azurerm_resource_group creates
 * Microsoft.Resources/resourceGroups, as an ARM template's resource group is.
 */
export const TERRAFORM_IDENTIFIERS: ReadonlyMap<string, { readonly vendor: "azure"; readonly identifier: string }> =
  new Map([["azurerm_resource_group", { vendor: "azure", identifier: "Microsoft.Resources/resourceGroups" }]]);
