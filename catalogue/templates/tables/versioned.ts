/**
 * The attributes of a deployment's resources that name a version a vendor retires: a Lambda
 * runtime and a layer's compatible runtimes, a Functions host (FUNCTIONS_EXTENSION_VERSION) and
 * language stack, an App Service PHP stack, a Kubernetes version of a cluster or its node pools
 * and node groups, a database engine's (DocumentDB's, Neptune's too), Kafka, OpenSearch, Amazon MQ
 * or Glue version, an Azure Cache for Redis tier. Each is read where the template or plan states it
 * as a literal (a Ref or a variable is not a version: the evaluator hands resolved values here),
 * with the service whose versions it names (by the engine where one type serves several, its case
 * aside: Engine: Postgres is postgres); the version data then says whether it retires, or that it
 * is not known.
 */
import type { DeploymentItem, VersionedAttribute } from "../model/deployment.ts";

export type { VersionedAttribute };

interface Rule {
  readonly kind: DeploymentItem["kind"];
  readonly type: string;
  /**
   * Dotted path of the version within the resource's properties (attributes for Terraform); a
   * number is an index (a Terraform nested block is a list: site_config.0.application_stack.0).
   */
  readonly path: string;
  /** The value where the path does not reach it (an app setting in a list of name/value pairs). */
  readonly read?: (properties: unknown) => unknown;
  /** The value is a list of versions (a layer's compatible runtimes): each literal item is one. */
  readonly list?: boolean;
  /** The version family the attribute names, where the attribute says which (node_version: node). */
  readonly family?: string;
  /**
   * The service the value belongs to, or the engine attribute and the service per engine (and the
   * family per engine, where one service has one family per engine), or a function of the
   * resource choosing it (an ARM site's kind says function app or web app).
   */
  readonly service:
    | string
    | {
        readonly enginePath: string;
        readonly byEngine: Readonly<Record<string, string>>;
        readonly familyByEngine?: Readonly<Record<string, string>>;
      }
    | ((properties: unknown) => string);
}

/** An App Service site (Microsoft.Web/sites) is a function app when its kind says so, else a web app. */
const siteService = (resource: unknown): string =>
  typeof at(resource, "kind") === "string" && (at(resource, "kind") as string).toLowerCase().includes("functionapp")
    ? "azure-functions"
    : "azure-app-service";

/** A linuxFxVersion naming a container image (DOCKER|nginx:1.25) names no stack the vendor retires. */
const CONTAINER_STACKS = /^(docker|compose|kube)\|/i;

/** An app setting's value in ARM's list of {name, value} pairs, the name's case aside. */
const appSetting =
  (listPath: string, name: string) =>
  (resource: unknown): unknown => {
    const settings = at(resource, listPath);
    if (!Array.isArray(settings)) return undefined;
    const found: unknown = (settings as unknown[]).find(
      (setting) =>
        isObject(setting) && typeof setting.name === "string" && setting.name.toLowerCase() === name.toLowerCase(),
    );
    return isObject(found) ? found.value : undefined;
  };

// Engine names are read case-insensitively (CloudFormation takes Engine: Postgres): keys in lower case.
const RDS_ENGINES = {
  postgres: "aws-rds-postgresql",
  mysql: "aws-rds-mysql",
  mariadb: "aws-rds-mariadb",
  "aurora-postgresql": "aws-aurora",
  "aurora-mysql": "aws-aurora",
};
const CACHE_ENGINES = { redis: "aws-elasticache", valkey: "aws-elasticache" };
const MQ_ENGINES = { activemq: "aws-mq", rabbitmq: "aws-mq" };
const MQ_FAMILIES = { activemq: "activemq", rabbitmq: "rabbitmq" };

const cfn = (type: string, path: string, service: Rule["service"], more: Partial<Rule> = {}): Rule => ({
  kind: "cloudformation-type",
  type,
  path,
  service,
  ...more,
});
const tf = (type: string, path: string, service: Rule["service"], more: Partial<Rule> = {}): Rule => ({
  kind: "terraform-type",
  type,
  path,
  service,
  ...more,
});
const arm = (type: string, path: string, service: Rule["service"], more: Partial<Rule> = {}): Rule => ({
  kind: "azure-type",
  type,
  path,
  service,
  ...more,
});

const RULES: readonly Rule[] = [
  // AWS CloudFormation (SAM's serverless types as written, before the transform).
  cfn("AWS::Lambda::Function", "Runtime", "aws-lambda"),
  cfn("AWS::Serverless::Function", "Runtime", "aws-lambda"),
  cfn("AWS::Lambda::LayerVersion", "CompatibleRuntimes", "aws-lambda", { list: true }),
  cfn("AWS::Serverless::LayerVersion", "CompatibleRuntimes", "aws-lambda", { list: true }),
  cfn("AWS::EKS::Cluster", "Version", "aws-eks"),
  cfn("AWS::EKS::Nodegroup", "Version", "aws-eks"),
  ...(["AWS::RDS::DBInstance", "AWS::RDS::DBCluster"] as const).map((type) =>
    cfn(type, "EngineVersion", { enginePath: "Engine", byEngine: RDS_ENGINES }),
  ),
  ...(["AWS::ElastiCache::CacheCluster", "AWS::ElastiCache::ReplicationGroup"] as const).map((type) =>
    cfn(type, "EngineVersion", { enginePath: "Engine", byEngine: CACHE_ENGINES }),
  ),
  cfn("AWS::OpenSearchService::Domain", "EngineVersion", "aws-opensearch"),
  cfn("AWS::DocDB::DBCluster", "EngineVersion", "aws-documentdb"),
  cfn("AWS::Neptune::DBCluster", "EngineVersion", "aws-neptune"),
  cfn("AWS::MSK::Cluster", "KafkaVersion", "aws-msk"),
  cfn("AWS::AmazonMQ::Broker", "EngineVersion", {
    enginePath: "EngineType",
    byEngine: MQ_ENGINES,
    familyByEngine: MQ_FAMILIES,
  }),
  cfn("AWS::Glue::Job", "GlueVersion", "aws-glue"),
  // AWS Terraform.
  tf("aws_lambda_function", "runtime", "aws-lambda"),
  tf("aws_lambda_layer_version", "compatible_runtimes", "aws-lambda", { list: true }),
  tf("aws_msk_cluster", "kafka_version", "aws-msk"),
  tf("aws_docdb_cluster", "engine_version", "aws-documentdb"),
  tf("aws_neptune_cluster", "engine_version", "aws-neptune"),
  tf("aws_opensearch_domain", "engine_version", "aws-opensearch"),
  tf("aws_eks_cluster", "version", "aws-eks"),
  tf("aws_eks_node_group", "version", "aws-eks"),
  tf("aws_glue_job", "glue_version", "aws-glue"),
  tf("aws_mq_broker", "engine_version", {
    enginePath: "engine_type",
    byEngine: MQ_ENGINES,
    familyByEngine: MQ_FAMILIES,
  }),
  ...(["aws_db_instance", "aws_rds_cluster"] as const).map((type) =>
    tf(type, "engine_version", { enginePath: "engine", byEngine: RDS_ENGINES }),
  ),
  ...(["aws_elasticache_cluster", "aws_elasticache_replication_group"] as const).map((type) =>
    tf(type, "engine_version", { enginePath: "engine", byEngine: CACHE_ENGINES }),
  ),
  // A Linux function app's language stack (Windows apps write other strings: ~20, v8.0).
  ...(
    [
      ["node_version", "node"],
      ["powershell_core_version", "powershell"],
      ["python_version", "python"],
      ["java_version", "java"],
    ] as const
  ).map(([attribute, family]) =>
    tf("azurerm_linux_function_app", `site_config.0.application_stack.0.${attribute}`, "azure-functions", { family }),
  ),
  // The Functions runtime host, both operating systems, and the older azurerm_function_app's version.
  ...(["azurerm_linux_function_app", "azurerm_windows_function_app"] as const).map((type) =>
    tf(type, "functions_extension_version", "azure-functions", { family: "host" }),
  ),
  tf("azurerm_function_app", "version", "azure-functions", { family: "host" }),
  // A Linux web app's PHP stack, and the older azurerm_app_service's linux_fx_version (PHP|8.2).
  tf("azurerm_linux_web_app", "site_config.0.application_stack.0.php_version", "azure-app-service", {
    family: "php",
  }),
  tf("azurerm_app_service", "site_config.0.linux_fx_version", "azure-app-service"),
  tf("azurerm_kubernetes_cluster", "kubernetes_version", "azure-kubernetes-service"),
  tf("azurerm_kubernetes_cluster", "default_node_pool.0.orchestrator_version", "azure-kubernetes-service"),
  tf("azurerm_kubernetes_cluster_node_pool", "orchestrator_version", "azure-kubernetes-service"),
  tf("azurerm_postgresql_flexible_server", "version", "azure-database-for-postgresql"),
  tf("azurerm_mysql_flexible_server", "version", "azure-database-for-mysql"),
  tf("azurerm_redis_cache", "sku_name", "azure-cache-for-redis", { family: "tier" }),
  tf("azurerm_redis_enterprise_cluster", "sku_name", "azure-cache-for-redis", { family: "tier" }),
  // Google Cloud Terraform.
  tf("google_container_cluster", "min_master_version", "gcp-gke"),
  tf("google_container_cluster", "node_version", "gcp-gke"),
  tf("google_container_node_pool", "version", "gcp-gke"),
  // A Cloud Run function's runtime: a 2nd-gen function's build, a 1st-gen function's own.
  tf("google_cloudfunctions2_function", "build_config.0.runtime", "gcp-cloud-run-functions"),
  tf("google_cloudfunctions_function", "runtime", "gcp-cloud-run-functions"),
  tf("google_sql_database_instance", "database_version", {
    enginePath: "database_version",
    byEngine: { postgres: "gcp-cloud-sql-postgresql", mysql: "gcp-cloud-sql-mysql" },
  }),
  // Alibaba Cloud Terraform: ACK clusters.
  ...(["alicloud_cs_managed_kubernetes", "alicloud_cs_kubernetes"] as const).map((type) =>
    tf(type, "version", "alibaba-ack"),
  ),
  // The other providers' Kubernetes, database and runtime versions (issue 121): read, and judged where
  // the catalogue holds the vendor's dates, else said to be not known to it.
  tf("ovh_cloud_project_kube", "version", "ovhcloud-managed-kubernetes"),
  tf("ovh_cloud_project_database", "version", {
    enginePath: "engine",
    byEngine: {
      postgresql: "ovhcloud-managed-postgresql",
      mysql: "ovhcloud-managed-mysql",
      valkey: "ovhcloud-managed-valkey",
      mongodb: "ovhcloud-managed-mongodb",
      kafka: "ovhcloud-managed-kafka",
      opensearch: "ovhcloud-managed-opensearch",
    },
  }),
  tf("scaleway_function", "runtime", "scaleway-serverless-functions"),
  tf("scaleway_k8s_cluster", "version", "scaleway-kubernetes-kapsule"),
  tf("scaleway_redis_cluster", "version", "scaleway-managed-database-redis"),
  // An rdb instance names its engine and version in one value (PostgreSQL-15, MySQL-8).
  tf("scaleway_rdb_instance", "engine", "scaleway-managed-database-postgresql-mysql"),
  ...(
    [
      ["pg", "exoscale-dbaas-postgresql"],
      ["mysql", "exoscale-dbaas-mysql"],
      ["kafka", "exoscale-dbaas-kafka"],
      ["opensearch", "exoscale-dbaas-opensearch"],
    ] as const
  )
    // A block (pg { version = "16" }) in older releases, an attribute (pg = { version = "16" }) in newer ones.
    .flatMap(([block, service]) => [
      tf("exoscale_dbaas", `${block}.0.version`, service),
      tf("exoscale_dbaas", `${block}.version`, service),
    ]),
  tf("exoscale_sks_cluster", "version", "exoscale-sks"),
  tf("stackit_ske_cluster", "kubernetes_version_min", "stackit-kubernetes-engine"),
  tf("stackit_ske_cluster", "kubernetes_version", "stackit-kubernetes-engine"),
  tf("stackit_postgresflex_instance", "version", "stackit-postgresql-flex"),
  tf("ionoscloud_k8s_cluster", "k8s_version", "ionos-managed-kubernetes"),
  tf("ionoscloud_k8s_node_pool", "k8s_version", "ionos-managed-kubernetes"),
  tf("ionoscloud_pg_cluster", "postgres_version", "ionos-postgresql"),
  tf("digitalocean_kubernetes_cluster", "version", "digitalocean-kubernetes"),
  tf("digitalocean_database_cluster", "version", {
    enginePath: "engine",
    byEngine: {
      pg: "digitalocean-managed-postgresql",
      mysql: "digitalocean-managed-mysql",
      valkey: "digitalocean-managed-valkey",
      mongodb: "digitalocean-managed-mongodb",
      kafka: "digitalocean-managed-kafka",
      opensearch: "digitalocean-managed-opensearch",
    },
  }),
  tf("linode_lke_cluster", "k8s_version", "akamai-lke"),
  tf("vultr_kubernetes", "version", "vultr-kubernetes-engine"),
  tf("upcloud_kubernetes_cluster", "version", "upcloud-managed-kubernetes"),
  // Azure Resource Manager.
  arm("Microsoft.Web/sites", "properties.siteConfig.linuxFxVersion", siteService),
  // A Windows site's PHP (phpVersion 7.4); a function app's runtime host among its app settings.
  arm("Microsoft.Web/sites", "properties.siteConfig.phpVersion", "azure-app-service", { family: "php" }),
  arm("Microsoft.Web/sites", "properties.siteConfig.appSettings.FUNCTIONS_EXTENSION_VERSION", "azure-functions", {
    family: "host",
    read: appSetting("properties.siteConfig.appSettings", "FUNCTIONS_EXTENSION_VERSION"),
  }),
  // The same app settings written as a child resource (Microsoft.Web/sites/config named appsettings).
  arm("Microsoft.Web/sites/config", "properties.FUNCTIONS_EXTENSION_VERSION", "azure-functions", { family: "host" }),
  arm("Microsoft.ContainerService/managedClusters", "properties.kubernetesVersion", "azure-kubernetes-service"),
  arm("Microsoft.ContainerService/managedClusters", "properties.agentPoolProfiles", "azure-kubernetes-service", {
    list: true,
    read: (resource) => {
      const pools = at(resource, "properties.agentPoolProfiles");
      return Array.isArray(pools) ? pools.map((pool) => at(pool, "orchestratorVersion")) : undefined;
    },
  }),
  arm(
    "Microsoft.ContainerService/managedClusters/agentPools",
    "properties.orchestratorVersion",
    "azure-kubernetes-service",
  ),
  arm("Microsoft.DBforPostgreSQL/flexibleServers", "properties.version", "azure-database-for-postgresql"),
  arm("Microsoft.DBforMySQL/flexibleServers", "properties.version", "azure-database-for-mysql"),
  arm("Microsoft.Cache/redis", "properties.sku.name", "azure-cache-for-redis", { family: "tier" }),
  arm("Microsoft.Cache/redisEnterprise", "sku.name", "azure-cache-for-redis", { family: "tier" }),
];

/**
 * The attribute paths of Terraform resources the rules read (../evaluate/terraform-config.ts keeps their
 * literals): strings, so a list (a layer's compatible_runtimes) is read from plans only.
 */
export const VERSION_ATTRIBUTES = [
  ...new Set(
    RULES.filter((rule) => rule.kind === "terraform-type" && !rule.list).flatMap((rule) => [
      rule.path,
      ...(typeof rule.service === "object" ? [rule.service.enginePath] : []),
    ]),
  ),
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function at(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split(".")) {
    if (Array.isArray(here) && /^[0-9]+$/.test(key)) here = here[Number(key)];
    else if (!isObject(here) || !Object.hasOwn(here, key)) return undefined;
    else here = here[key];
  }
  return here;
}

/**
 * The values at dotted paths as the nested object `at` reads (a number makes a list): what a
 * reader of Terraform configuration found in a resource's blocks, in a plan's shape.
 */
export function valuesAtPaths(found: readonly (readonly [string, string])[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of found) {
    const keys = path.split(".");
    let here: Record<string, unknown> | unknown[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const slot = Array.isArray(here) ? Number(key) : key;
      const into = here as Record<string | number, unknown>;
      if (last) into[slot] = value;
      else into[slot] ??= /^[0-9]+$/.test(keys[i + 1]!) ? [] : {};
      here = into[slot] as Record<string, unknown> | unknown[];
    });
  }
  return root;
}

/** A literal version: a string or a number (YAML reads 1.29 as a number); anything else is not one. */
function literal(value: unknown): string | undefined {
  // An ARM expression ([parameters('x')]) is no literal; "[[" is ARM's escape for a literal "[".
  if (typeof value === "string" && /^\s*\[(?!\[)/.test(value)) return undefined;
  if (typeof value === "string" && value.trim() !== "" && !value.includes("${")) return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * What each version rule of a resource type reads in `properties`, as found (a literal, or a value
 * the evaluator does not know): the evaluator names those it does not know (../evaluate/versions.ts).
 */
export function versionValuesRead(
  kind: DeploymentItem["kind"],
  type: string,
  properties: unknown,
): { attribute: string; raw: unknown }[] {
  return RULES.filter((rule) => ruleFits(rule, kind, type)).map((rule) => ({
    attribute: rule.path,
    raw: rule.read ? rule.read(properties) : at(properties, rule.path),
  }));
}

const ruleFits = (rule: Rule, kind: DeploymentItem["kind"], type: string) =>
  rule.kind === kind && (kind === "azure-type" ? rule.type.toLowerCase() === type.toLowerCase() : rule.type === type);

/**
 * The versioned attributes of one resource: `properties` is a CloudFormation resource's
 * Properties, an ARM resource itself, or a Terraform resource's attribute values.
 */
export function versionedAttributes(
  kind: DeploymentItem["kind"],
  type: string,
  properties: unknown,
  from: string,
): VersionedAttribute[] {
  const found: VersionedAttribute[] = [];
  for (const rule of RULES) {
    if (!ruleFits(rule, kind, type)) continue;
    const raw = rule.read ? rule.read(properties) : at(properties, rule.path);
    const values = (rule.list ? (Array.isArray(raw) ? raw : []) : [raw])
      .map(literal)
      .filter((value): value is string => value !== undefined && !CONTAINER_STACKS.test(value));
    if (values.length === 0) continue;
    let serviceId: string | undefined;
    let family = rule.family;
    if (typeof rule.service === "string") serviceId = rule.service;
    else if (typeof rule.service === "function") serviceId = rule.service(properties);
    else {
      const named = (literal(at(properties, rule.service.enginePath)) ?? "").toLowerCase();
      // Cloud SQL names the engine in the version itself (POSTGRES_13).
      const engine = rule.service.enginePath === rule.path ? (named.split("_")[0] ?? "") : named;
      serviceId = Object.hasOwn(rule.service.byEngine, engine) ? rule.service.byEngine[engine] : undefined;
      if (rule.service.familyByEngine && Object.hasOwn(rule.service.familyByEngine, engine))
        family = rule.service.familyByEngine[engine];
    }
    if (serviceId === undefined) continue;
    for (const value of new Set(values))
      found.push({ type, from, attribute: rule.path, value, serviceId, ...(family ? { family } : {}) });
  }
  return found;
}
