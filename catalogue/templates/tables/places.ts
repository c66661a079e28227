/**
 * Where each vendor's resources say they go, as data: the attributes of a resource (and of its
 * provider configuration) that state its region, zone or location, in the order one is taken, and
 * the resource types answered from a vendor's global endpoint, which no region holds. The
 * evaluator (../evaluate/instances.ts) reads these; nothing else decides a place.
 */

/** Per Terraform provider (its type prefix): the resource's location attributes and its provider block's. */
export interface TerraformPlaces {
  /** Dotted paths in the resource's attributes, first found wins (nested blocks as lists: nodes.0.region). */
  readonly resource: readonly string[];
  /** The provider block's attributes that give every resource without its own a place. */
  readonly provider: readonly string[];
}

const STATED = ["region", "location", "zone"] as const;

/**
 * Providers whose block sets a default region or zone (their Terraform providers' documented
 * arguments: region for aws, alicloud, tencentcloud, huaweicloud, opentelekomcloud, oci, ibm,
 * outscale, ncloud, nhncloud; region and zone for google and scaleway; default_region for stackit;
 * zone for sakuracloud). The rest state places on the resource alone.
 */
export const TERRAFORM_PLACES: ReadonlyMap<string, TerraformPlaces> = new Map<string, TerraformPlaces>([
  ["aws", { resource: ["region", "availability_zone"], provider: ["region"] }],
  ["google", { resource: [...STATED], provider: ["region", "zone"] }],
  ["azurerm", { resource: ["location"], provider: [] }],
  ["azapi", { resource: ["location"], provider: [] }],
  ["alicloud", { resource: [...STATED, "availability_zone", "zone_id"], provider: ["region"] }],
  ["tencentcloud", { resource: [...STATED, "availability_zone"], provider: ["region"] }],
  ["huaweicloud", { resource: [...STATED, "availability_zone"], provider: ["region"] }],
  ["opentelekomcloud", { resource: [...STATED, "availability_zone"], provider: ["region"] }],
  ["oci", { resource: [...STATED], provider: ["region"] }],
  ["ibm", { resource: [...STATED], provider: ["region"] }],
  ["outscale", { resource: [...STATED, "subregion_name"], provider: ["region"] }],
  ["ncloud", { resource: [...STATED], provider: ["region"] }],
  ["nhncloud", { resource: [...STATED], provider: ["region"] }],
  ["scaleway", { resource: [...STATED], provider: ["region", "zone"] }],
  // An SKE cluster names no region of its own: its node pools' zones (eu01-3) are in the cluster's.
  ["stackit", { resource: [...STATED, "node_pools.0.availability_zones.0"], provider: ["default_region", "region"] }],
  ["sakuracloud", { resource: [...STATED], provider: ["zone"] }],
  ["hcloud", { resource: ["location", "datacenter"], provider: [] }],
  ["ovh", { resource: [...STATED, "region_name", "nodes.0.region"], provider: [] }],
]);

/** A provider with no entry: its resources state region, location or zone themselves. */
export const DEFAULT_PLACES: TerraformPlaces = { resource: STATED, provider: [] };

/**
 * Attributes naming the further regions a resource keeps its data in beside its own (a DynamoDB
 * global table's replicas, a Cosmos DB account's geo-locations): each is a place of its own.
 */
export const REPLICA_PLACES: ReadonlyMap<string, string> = new Map([
  ["aws_dynamodb_table", "replica.*.region_name"],
  ["AWS::DynamoDB::GlobalTable", "Replicas.*.Region"],
  ["azurerm_cosmosdb_account", "geo_location.*.location"],
  ["Microsoft.DocumentDB/databaseAccounts", "properties.locations.*.locationName"],
]);

/** Every attribute name the places read of resources (the configuration reader keeps their expressions). */
export const PLACE_ATTRIBUTES: readonly string[] = [
  ...new Set(
    [...[...TERRAFORM_PLACES.values(), DEFAULT_PLACES].flatMap((places) => places.resource), ...REPLICA_PLACES.values()]
      .flatMap((path) => path.split("."))
      .filter((name) => !/^([0-9]+|\*)$/.test(name)),
  ),
];

/** Resource types answered from a vendor's global endpoint, by prefix or exact name, with the vendor's word for why. */
interface GlobalTypes {
  readonly prefixes: readonly string[];
  readonly exact?: readonly string[];
  /** Prefixes that look global but are regional (Route 53 Resolver runs in a region). */
  readonly except?: readonly string[];
  readonly why: string;
}

const AWS_GLOBAL =
  "answered by AWS's global endpoint (us-east-1 in the aws partition; us-west-2 for Global Accelerator and Cloud WAN): CloudFront, IAM, Organizations, Route 53, Budgets, Cost Explorer, Shield, Global Accelerator, Cloud WAN, Health; AWS's region-deny SCP exempts them, and CloudFront serves data from edge locations worldwide";
const GOOGLE_GLOBAL =
  "a global Google Cloud resource (global load balancing, networks, firewalls, DNS, IAM): gcp.resourceLocations does not restrict it, and a global load balancer serves from Google's edge worldwide";
const AZURE_GLOBAL =
  "a global Azure resource (location global: Front Door, CDN, DNS, Traffic Manager): Azure's Allowed locations policy exempts it, and it serves from Microsoft's edge worldwide";

/** Per vendor prefix of types (Terraform's `aws_`, CloudFormation's `AWS::`, ARM's `Microsoft.`). */
const GLOBAL_TYPES: readonly GlobalTypes[] = [
  {
    prefixes: [
      "aws_cloudfront_",
      "aws_iam_",
      "aws_organizations_",
      "aws_route53_",
      "aws_budgets_",
      "aws_ce_",
      "aws_shield_",
      "aws_globalaccelerator_",
      "aws_networkmanager_",
      "aws_codecatalyst_",
      "AWS::CloudFront::",
      "AWS::IAM::",
      "AWS::Organizations::",
      "AWS::Route53::",
      "AWS::Budgets::",
      "AWS::CE::",
      "AWS::Shield::",
      "AWS::GlobalAccelerator::",
      "AWS::NetworkManager::",
    ],
    except: ["aws_route53_resolver_"],
    why: AWS_GLOBAL,
  },
  {
    prefixes: [
      "google_compute_global_",
      "google_dns_",
      "google_project_iam_",
      "google_service_account",
      "google_organization_",
      "google_folder",
    ],
    exact: [
      "google_compute_backend_service",
      "google_compute_backend_bucket",
      "google_compute_url_map",
      "google_compute_target_http_proxy",
      "google_compute_target_https_proxy",
      "google_compute_target_ssl_proxy",
      "google_compute_target_tcp_proxy",
      "google_compute_ssl_certificate",
      "google_compute_managed_ssl_certificate",
      "google_compute_ssl_policy",
      "google_compute_health_check",
      "google_compute_security_policy",
      "google_compute_network",
      "google_compute_firewall",
      "google_compute_route",
      "google_project_service",
      "google_project",
    ],
    why: GOOGLE_GLOBAL,
  },
  {
    prefixes: [
      "azurerm_cdn_frontdoor_",
      "azurerm_frontdoor",
      "azurerm_dns_",
      "azurerm_private_dns_",
      "azurerm_traffic_manager_",
    ],
    why: AZURE_GLOBAL,
  },
  {
    prefixes: ["cloudflare_"],
    why: "Cloudflare's network answers from every data centre it runs (its Data Localization Suite, not a region, limits where data is processed)",
  },
];

/**
 * Google Cloud types that live in a parent resource and have no place of their own (a Cloud SQL
 * instance's databases and users, a bucket's objects and ACLs, a dataset's tables, IAM bindings):
 * the provider's default region does not place them; their parent's place is checked.
 */
const GOOGLE_CHILD_TYPES = {
  exact: [
    "google_sql_database",
    "google_sql_user",
    "google_sql_ssl_cert",
    "google_storage_bucket_object",
    "google_storage_bucket_acl",
    "google_storage_default_object_acl",
    "google_storage_object_acl",
    "google_storage_notification",
    "google_bigquery_table",
    "google_bigquery_routine",
    "google_secret_manager_secret_version",
  ],
  suffixes: ["_iam_member", "_iam_binding", "_iam_policy"],
};

/** Whether a type lives in its parent, without a place of its own. */
export const childType = (type: string): boolean =>
  type.startsWith("google_") &&
  (GOOGLE_CHILD_TYPES.exact.includes(type) || GOOGLE_CHILD_TYPES.suffixes.some((suffix) => type.endsWith(suffix)));

/** Why a type is global, when it is. */
export function globalType(type: string): string | undefined {
  const matches = (entry: GlobalTypes) =>
    (entry.exact?.includes(type) === true || entry.prefixes.some((prefix) => type.startsWith(prefix))) &&
    !entry.except?.some((prefix) => type.startsWith(prefix));
  return GLOBAL_TYPES.find(matches)?.why;
}

/** A location value that means "no region" to its vendor (Azure's and Google's "global"). */
export const isGlobalValue = (value: string): boolean => value.trim().toLowerCase() === "global";

export { AZURE_GLOBAL, GOOGLE_GLOBAL };
