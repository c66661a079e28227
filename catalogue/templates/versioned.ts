/**
 * The attributes of a deployment's resources that name a version a vendor retires: a Lambda
 * runtime, a Kubernetes version, a database engine's (DocumentDB's too), Kafka or OpenSearch version, an App Service site's language stack. Each is read where the template or
 * plan states it as a literal (a Ref or a variable is not a version), with the service whose
 * versions it names (by the engine where one type serves several); the version data then says
 * whether it retires, or that it is not known.
 */
import type { DeploymentItem, VersionedAttribute } from "./deployment.ts";

export type { VersionedAttribute };

interface Rule {
  readonly kind: DeploymentItem["kind"];
  readonly type: string;
  /**
   * Dotted path of the version within the resource's properties (attributes for Terraform); a
   * number is an index (a Terraform nested block is a list: site_config.0.application_stack.0).
   */
  readonly path: string;
  /** The version family the attribute names, where the attribute says which (node_version: node). */
  readonly family?: string;
  /**
   * The service the value belongs to, or the engine attribute and the service per engine, or a
   * function of the resource choosing it (an ARM site's kind says function app or web app).
   */
  readonly service:
    | string
    | { readonly enginePath: string; readonly byEngine: Readonly<Record<string, string>> }
    | ((properties: unknown) => string);
}

/** An App Service site (Microsoft.Web/sites) is a function app when its kind says so, else a web app. */
const siteService = (resource: unknown): string =>
  typeof at(resource, "kind") === "string" && (at(resource, "kind") as string).toLowerCase().includes("functionapp")
    ? "azure-functions"
    : "azure-app-service";

/** A linuxFxVersion naming a container image (DOCKER|nginx:1.25) names no stack the vendor retires. */
const CONTAINER_STACKS = /^(docker|compose|kube)\|/i;

const RDS_ENGINES = {
  postgres: "aws-rds-postgresql",
  mysql: "aws-rds-mysql",
  mariadb: "aws-rds-mariadb",
  "aurora-postgresql": "aws-aurora",
  "aurora-mysql": "aws-aurora",
};
const CACHE_ENGINES = { redis: "aws-elasticache", valkey: "aws-elasticache" };

const RULES: readonly Rule[] = [
  {
    kind: "cloudformation-type",
    type: "AWS::Lambda::Function",
    path: "Runtime",
    service: "aws-lambda",
  },
  {
    kind: "cloudformation-type",
    type: "AWS::Serverless::Function",
    path: "Runtime",
    service: "aws-lambda",
  },
  {
    kind: "cloudformation-type",
    type: "AWS::EKS::Cluster",
    path: "Version",
    service: "aws-eks",
  },
  ...(["AWS::RDS::DBInstance", "AWS::RDS::DBCluster"] as const).map((type): Rule => ({
    kind: "cloudformation-type",
    type,
    path: "EngineVersion",
    service: { enginePath: "Engine", byEngine: RDS_ENGINES },
  })),
  ...(["AWS::ElastiCache::CacheCluster", "AWS::ElastiCache::ReplicationGroup"] as const).map((type): Rule => ({
    kind: "cloudformation-type",
    type,
    path: "EngineVersion",
    service: { enginePath: "Engine", byEngine: CACHE_ENGINES },
  })),
  {
    kind: "cloudformation-type",
    type: "AWS::OpenSearchService::Domain",
    path: "EngineVersion",
    service: "aws-opensearch",
  },
  {
    kind: "cloudformation-type",
    type: "AWS::DocDB::DBCluster",
    path: "EngineVersion",
    service: "aws-documentdb",
  },
  {
    kind: "cloudformation-type",
    type: "AWS::MSK::Cluster",
    path: "KafkaVersion",
    service: "aws-msk",
  },
  { kind: "terraform-type", type: "aws_lambda_function", path: "runtime", service: "aws-lambda" },
  { kind: "terraform-type", type: "aws_msk_cluster", path: "kafka_version", service: "aws-msk" },
  { kind: "terraform-type", type: "aws_docdb_cluster", path: "engine_version", service: "aws-documentdb" },
  { kind: "terraform-type", type: "aws_opensearch_domain", path: "engine_version", service: "aws-opensearch" },
  { kind: "terraform-type", type: "aws_eks_cluster", path: "version", service: "aws-eks" },
  ...(["aws_db_instance", "aws_rds_cluster"] as const).map((type): Rule => ({
    kind: "terraform-type",
    type,
    path: "engine_version",
    service: { enginePath: "engine", byEngine: RDS_ENGINES },
  })),
  ...(["aws_elasticache_cluster", "aws_elasticache_replication_group"] as const).map((type): Rule => ({
    kind: "terraform-type",
    type,
    path: "engine_version",
    service: { enginePath: "engine", byEngine: CACHE_ENGINES },
  })),
  // A Linux function app's language stack (Windows apps write other strings: ~20, v8.0).
  ...(
    [
      ["node_version", "node"],
      ["powershell_core_version", "powershell"],
      ["python_version", "python"],
      ["java_version", "java"],
    ] as const
  ).map(([attribute, family]): Rule => ({
    kind: "terraform-type",
    type: "azurerm_linux_function_app",
    path: `site_config.0.application_stack.0.${attribute}`,
    service: "azure-functions",
    family,
  })),
  {
    kind: "terraform-type",
    type: "azurerm_kubernetes_cluster",
    path: "kubernetes_version",
    service: "azure-kubernetes-service",
  },
  {
    kind: "terraform-type",
    type: "azurerm_postgresql_flexible_server",
    path: "version",
    service: "azure-database-for-postgresql",
  },
  {
    kind: "terraform-type",
    type: "azurerm_mysql_flexible_server",
    path: "version",
    service: "azure-database-for-mysql",
  },
  {
    kind: "terraform-type",
    type: "google_container_cluster",
    path: "min_master_version",
    service: "gcp-gke",
  },
  {
    kind: "terraform-type",
    type: "google_sql_database_instance",
    path: "database_version",
    service: {
      enginePath: "database_version",
      byEngine: { POSTGRES: "gcp-cloud-sql-postgresql", MYSQL: "gcp-cloud-sql-mysql" },
    },
  },
  {
    kind: "azure-type",
    type: "Microsoft.Web/sites",
    path: "properties.siteConfig.linuxFxVersion",
    service: siteService,
  },
  {
    kind: "azure-type",
    type: "Microsoft.ContainerService/managedClusters",
    path: "properties.kubernetesVersion",
    service: "azure-kubernetes-service",
  },
  {
    kind: "azure-type",
    type: "Microsoft.DBforPostgreSQL/flexibleServers",
    path: "properties.version",
    service: "azure-database-for-postgresql",
  },
  {
    kind: "azure-type",
    type: "Microsoft.DBforMySQL/flexibleServers",
    path: "properties.version",
    service: "azure-database-for-mysql",
  },
];

/** The attribute paths of Terraform resources the rules read (./terraform-config.ts reads their literals). */
export const VERSION_ATTRIBUTES = [
  ...new Set(
    RULES.filter((rule) => rule.kind === "terraform-type").flatMap((rule) => [
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
    if (
      rule.kind !== kind ||
      (kind === "azure-type" ? rule.type.toLowerCase() !== type.toLowerCase() : rule.type !== type)
    )
      continue;
    const value = literal(at(properties, rule.path));
    if (value === undefined || CONTAINER_STACKS.test(value)) continue;
    let serviceId: string | undefined;
    if (typeof rule.service === "string") serviceId = rule.service;
    else if (typeof rule.service === "function") serviceId = rule.service(properties);
    else {
      const engine = literal(at(properties, rule.service.enginePath)) ?? "";
      // Cloud SQL names the engine in the version itself (POSTGRES_13).
      serviceId = rule.service.byEngine[rule.service.enginePath === rule.path ? (engine.split("_")[0] ?? "") : engine];
    }
    if (serviceId === undefined) continue;
    found.push({ type, from, attribute: rule.path, value, serviceId, ...(rule.family ? { family: rule.family } : {}) });
  }
  return found;
}
