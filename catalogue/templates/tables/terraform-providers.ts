/**
 * Which catalogue provider each Terraform provider deploys to, by its resource types' prefix: the
 * evaluator reads it to place an instance and to name the vendor whose policy governs it.
 */

/**
 * Each Terraform provider's resource type prefix, and the catalogue provider it deploys to (the
 * prefixes the inventories' items.txt name; tests check the two agree).
 */
export const TERRAFORM_PROVIDERS: ReadonlyMap<string, string> = new Map([
  ["aws", "aws"],
  ["azurerm", "azure"],
  ["azapi", "azure"],
  ["bunnynet", "bunny"],
  ["google", "gcp"],
  ["alicloud", "alibaba"],
  ["arubacloud", "aruba"],
  ["clevercloud", "clevercloud"],
  ["cloudflare", "cloudflare"],
  ["digitalocean", "digitalocean"],
  ["exoscale", "exoscale"],
  ["gcore", "gcore"],
  ["hcloud", "hetzner"],
  ["heroku", "heroku"],
  ["huaweicloud", "huawei"],
  ["ibm", "ibm"],
  ["infomaniak", "infomaniak"],
  ["ionoscloud", "ionos"],
  ["linode", "akamai"],
  ["ncloud", "naver"],
  ["nhncloud", "nhn"],
  ["oci", "oci"],
  ["opentelekomcloud", "otc"],
  ["outscale", "outscale"],
  ["ovh", "ovhcloud"],
  ["sakuracloud", "sakura"],
  ["scaleway", "scaleway"],
  ["stackit", "stackit"],
  ["tencentcloud", "tencent"],
  ["upcloud", "upcloud"],
  ["vultr", "vultr"],
]);

/** The catalogue provider a Terraform resource type deploys to, by its prefix. */
export const terraformProviderOf = (type: string): string | undefined =>
  TERRAFORM_PROVIDERS.get(type.slice(0, Math.max(0, type.indexOf("_"))));
