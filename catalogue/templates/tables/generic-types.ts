/**
 * Resource types that serve several catalogue services, told apart by an attribute the resource
 * states (an engine, a kind), as data: the services rule places such a resource in the service its
 * traits name (../rules/services.ts), and the evaluator reads those attributes
 * (../evaluate/instances.ts). A value the table does not hold leaves the type to the inventories.
 */
import type { DeploymentItem } from "../model/deployment.ts";
import { endpointItemParts, S3_COMPATIBLE_ENDPOINTS } from "./endpoints.ts";

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
  // Each vendor's one database resource for every engine, told apart by an attribute (the providers'
  // registry pages at the inventories' commits list the values; catalogue/inventory/data/<provider>/terraform).
  ...(["exoscale_dbaas", "exoscale_database"] as const).map((type) => ({
    kind: "terraform-type" as const,
    type,
    attribute: "type",
    byValue: {
      pg: "exoscale-dbaas-postgresql",
      mysql: "exoscale-dbaas-mysql",
      kafka: "exoscale-dbaas-kafka",
      opensearch: "exoscale-dbaas-opensearch",
      valkey: "exoscale-dbaas-valkey",
    },
    source: `https://registry.terraform.io/providers/exoscale/exoscale/latest/docs/resources/${type.slice("exoscale_".length)}`,
  })),
  {
    kind: "terraform-type",
    type: "vultr_database",
    attribute: "database_engine",
    byValue: {
      pg: "vultr-managed-postgresql",
      mysql: "vultr-managed-mysql",
      valkey: "vultr-managed-valkey",
      kafka: "vultr-managed-kafka",
    },
    source: "https://registry.terraform.io/providers/vultr/vultr/latest/docs/resources/database",
  },
  {
    kind: "terraform-type",
    type: "digitalocean_database_cluster",
    attribute: "engine",
    byValue: {
      pg: "digitalocean-managed-postgresql",
      mysql: "digitalocean-managed-mysql",
      valkey: "digitalocean-managed-valkey",
      mongodb: "digitalocean-managed-mongodb",
      kafka: "digitalocean-managed-kafka",
      opensearch: "digitalocean-managed-opensearch",
    },
    source: "https://registry.terraform.io/providers/digitalocean/digitalocean/latest/docs/resources/database_cluster",
  },
  {
    kind: "terraform-type",
    type: "ibm_database",
    attribute: "service",
    byValue: Object.fromEntries(
      [
        "databases-for-postgresql",
        "databases-for-mysql",
        "databases-for-redis",
        "databases-for-mongodb",
        "databases-for-elasticsearch",
        "databases-for-etcd",
        "databases-for-enterprisedb",
        "messages-for-rabbitmq",
      ].map((service) => [service, `ibm-${service}`]),
    ),
    source: "https://registry.terraform.io/providers/IBM-Cloud/ibm/latest/docs/resources/database",
  },
  {
    // An instance of any IBM Cloud catalogue service, named by its service name.
    kind: "terraform-type",
    type: "ibm_resource_instance",
    attribute: "service",
    byValue: {
      "cloud-object-storage": "ibm-cloud-object-storage",
      kms: "ibm-key-protect",
      "secrets-manager": "ibm-secrets-manager",
      "hs-crypto": "ibm-hyper-protect-crypto-services",
      messagehub: "ibm-event-streams",
      "event-notifications": "ibm-event-notifications",
    },
    source: "https://registry.terraform.io/providers/IBM-Cloud/ibm/latest/docs/resources/resource_instance",
  },
  {
    kind: "terraform-type",
    type: "alicloud_db_instance",
    attribute: "engine",
    byValue: {
      mysql: "alibaba-rds-mysql",
      postgresql: "alibaba-rds-postgresql",
      sqlserver: "alibaba-rds-sql-server",
      mariadb: "alibaba-rds-mariadb",
    },
    source: "https://registry.terraform.io/providers/aliyun/alicloud/latest/docs/resources/db_instance",
  },
  {
    kind: "terraform-type",
    type: "huaweicloud_rds_instance",
    attribute: "db.0.type",
    byValue: {
      mysql: "huawei-rds-mysql",
      postgresql: "huawei-rds-postgresql",
      sqlserver: "huawei-rds-sql-server",
    },
    source: "https://registry.terraform.io/providers/huaweicloud/huaweicloud/latest/docs/resources/rds_instance",
  },
  {
    // The classic CDN profile (Front Door's are azurerm_cdn_frontdoor_profile): its SKU names the CDN.
    kind: "terraform-type",
    type: "azurerm_cdn_profile",
    attribute: "sku_name",
    byValue: Object.fromEntries(
      ["standard_akamai", "standard_chinacdn", "standard_microsoft", "standard_verizon", "premium_verizon"].map(
        (sku) => [sku, "azure-cdn"],
      ),
    ),
    source: "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cdn_profile",
  },
  {
    kind: "terraform-type",
    type: "azurerm_cognitive_account",
    attribute: "kind",
    byValue: {
      openai: "azure-openai",
      aiservices: "azure-ai-foundry",
      speechservices: "azure-ai-speech",
      textanalytics: "azure-ai-language",
      computervision: "azure-ai-vision",
      formrecognizer: "azure-ai-document-intelligence",
      texttranslation: "azure-ai-translator",
      contentsafety: "azure-ai-content-safety",
      contentmoderator: "azure-ai-content-moderator",
      "customvision.training": "azure-ai-custom-vision",
      "customvision.prediction": "azure-ai-custom-vision",
      anomalydetector: "azure-ai-anomaly-detector",
      personalizer: "azure-ai-personalizer",
      qnamaker: "azure-ai-qna-maker",
      luis: "azure-ai-language-understanding",
      metricsadvisor: "azure-ai-metrics-advisor",
    },
    source: "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cognitive_account",
  },
  {
    // A Cosmos DB account's kind says MongoDB; GlobalDocumentDB serves the NoSQL, Cassandra, Gremlin and Table APIs by its capabilities.
    kind: "terraform-type",
    type: "azurerm_cosmosdb_account",
    attribute: "kind",
    byValue: { mongodb: "azure-cosmos-db-for-mongodb" },
    source: "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cosmosdb_account",
  },
  {
    kind: "azure-type",
    type: "Microsoft.Web/sites",
    attribute: "kind",
    byValue: { functionapp: "azure-functions", app: "azure-app-service" },
    source: "https://learn.microsoft.com/en-us/azure/app-service/reference-app-settings",
  },
];

/**
 * Types that serve several catalogue services with no attribute naming one, swept from the vendored
 * Terraform inventories (tests/catalogue/generic-types-sweep.test.ts): every type several services
 * own, or whose exclusion says it serves every engine, is a GENERIC_TYPES row or one of these, with
 * why no attribute places it. `pattern` is a type, or a prefix ending in `*`.
 */
export const SHARED_TYPES: readonly { readonly pattern: string; readonly why: string }[] = [
  ...[
    "aws_db_*",
    "aws_rds_*",
    "aws_fsx_*",
    "aws_iot_*",
    "aws_cloudfrontkeyvaluestore_*",
    "google_sql_*",
    "google_redis_*",
    "google_compute_*",
    "google_project_usage_export_bucket",
    "google_cloud_run_*",
    "google_colab_*",
    "google_container_*",
    "google_dialogflow_*",
    "google_discovery_engine_*",
    "google_gemini_*",
    "google_kms_*",
    "google_logging_*",
    "google_monitoring_*",
    "google_network_security_*",
    "google_network_services_*",
    "google_vertex_ai_*",
    "azurerm_application_insights_*",
    "azurerm_arc_kubernetes_*",
    "azurerm_kubernetes_cluster_extension",
    "azurerm_kubernetes_flux_configuration",
    "azurerm_automation_*",
    "azurerm_backup_*",
    "azurerm_cognitive_account_*",
    "azurerm_cognitive_deployment",
    "azurerm_cosmosdb_*",
    "azurerm_dev_center*",
    "azurerm_firewall_policy*",
    "azurerm_key_vault_managed_hardware_security_module_key",
    "azurerm_log_analytics_solution",
    "azurerm_logic_app_standard",
    "azurerm_managed_redis*",
    "azurerm_management_*",
    "azurerm_monitor_*",
    "azurerm_mssql_managed_instance_failover_group",
    "azurerm_pim_*",
    "azurerm_recovery_services_vault*",
    "azurerm_resource_*",
    "azurerm_role_*",
    "azurerm_route_*",
    "azurerm_security_center_storage_defender",
    "azurerm_service_plan",
    "azurerm_site_recovery_*",
    "azurerm_storage_*",
    "azurerm_subscription_policy_exemption",
    "azurerm_virtual_hub*",
    "azurerm_virtual_machine_scale_set_standby_pool",
    "azurerm_workloads_sap_*",
  ].map((pattern) => ({
    pattern,
    why: "a part several services share (a subnet group, a parameter group, a workspace, a policy), with no attribute naming one: counted under one owner, the others named in choices",
  })),
  ...[
    "alicloud_db_*",
    "alicloud_rds_*",
    "digitalocean_database_*",
    "exoscale_dbaas_*",
    "huaweicloud_rds_*",
    "huaweicloud_dms_group",
    "huaweicloud_dms_queue",
    "ovh_cloud_project_database_*",
    "upcloud_managed_database_*",
    "vultr_database_*",
  ].map((pattern) => ({
    pattern,
    why: "a part of a database of any engine (a user, a logical database, a replica, an integration) that states no engine: placed nowhere, and listed as unplaced with its inventory's reason",
  })),
  {
    pattern: "huaweicloud_dms_instance",
    why: "the provider's deprecated generic Distributed Message Service instance: its engine is named by the per-engine types that replaced it",
  },
  {
    pattern: "alicloud_cloud_control_resource",
    why: "any product through Alibaba Cloud's Cloud Control API, named by product and resource type codes the catalogue does not map",
  },
  {
    pattern: "ibm_resource_group",
    why: "IBM Cloud's resource group, of no service (the account's)",
  },
  {
    pattern: "ibm_resource_key",
    why: "a credential of an instance of any IBM Cloud service, which names the instance, not the service",
  },
  {
    pattern: "ibm_resource_reclamation_delete",
    why: "the deletion of a reclaimed instance of any IBM Cloud service: it creates nothing",
  },
];

/** Whether a SHARED_TYPES pattern names a type. */
export const sharedPatternMatches = (pattern: string, type: string) =>
  pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;

/** The row of resources another vendor's S3-compatible endpoint serves (tables/endpoints.ts): placed by the host's service. */
const ENDPOINT_ROW: GenericType = {
  kind: "terraform-type",
  type: "<host>/aws_*",
  attribute: "endpoint",
  byValue: Object.fromEntries(S3_COMPATIBLE_ENDPOINTS.map((row) => [row.serviceId, row.serviceId])),
  source: "catalogue/templates/tables/endpoints.ts",
};

const normal = (value: string) => value.trim().toLowerCase();

/** The attributes the evaluator reads as traits of a type. */
export const traitAttributes = (kind: DeploymentItem["kind"], type: string): string[] =>
  GENERIC_TYPES.filter((row) => row.kind === kind && sameType(row, type)).map((row) => row.attribute);

const sameType = (row: GenericType, type: string) =>
  row === ENDPOINT_ROW
    ? endpointItemParts(type) !== undefined
    : row.kind === "azure-type"
      ? row.type.toLowerCase() === type.toLowerCase()
      : row.type === type;

/** The service an instance's traits name, when the table holds its value. */
export function serviceOfTraits(
  kind: DeploymentItem["kind"],
  type: string,
  traits: Readonly<Record<string, string>>,
): string | undefined {
  for (const row of [...GENERIC_TYPES, ENDPOINT_ROW]) {
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

/**
 * Why an instance of a generic type is in no service: it states a value (exoscale_database's type
 * grafana) the table holds no service for. Such an instance is never left to the inventories, which
 * would place it by its type alone in one of the type's other services.
 */
export function unmappedTrait(
  kind: DeploymentItem["kind"],
  type: string,
  traits: Readonly<Record<string, string>>,
): string | undefined {
  for (const row of GENERIC_TYPES) {
    if (row.kind !== kind || !sameType(row, type) || row.byValue["*"] || traits[row.attribute] === undefined) continue;
    const values = Object.keys(row.byValue).sort();
    return `Its ${row.attribute} ${traits[row.attribute]} names no catalogue service: of ${type}'s values, the catalogue holds ${values.slice(0, 8).join(", ")}${values.length > 8 ? ", …" : ""} (${row.source}).`;
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
