/**
 * Where a Terraform AWS provider's `endpoints` block sends a service's calls (issue 121): the AWS
 * provider drives any S3-compatible storage when `endpoints { s3 = "https://s3.gra.io.cloud.ovh.net" }`
 * names it, as OVHcloud's, Scaleway's and Exoscale's guides for Terraform do. A resource sent to
 * another vendor's host is that vendor's service, placed by the host (never AWS's S3, never under
 * an SCP); a host this table does not know is another vendor's the catalogue cannot place; a local
 * emulator (LocalStack on localhost) is no cloud at all. Each vendor's host pattern with the page
 * that states it.
 */

/** A vendor's S3-compatible endpoint: its host, the service it is, and the region the host names. */
export interface CompatibleEndpoint {
  /** The host, its region in the first group. */
  readonly host: RegExp;
  readonly providerId: string;
  readonly serviceId: string;
  /** The vendor page (or the vendor's own tool) that states the endpoint's form. */
  readonly source: string;
}

export const S3_COMPATIBLE_ENDPOINTS: readonly CompatibleEndpoint[] = [
  {
    // Object Storage S3 Standard (s3.<region>.io.cloud.ovh.net), High Performance (.perf.), SWIFT legacy.
    host: /^(?:[a-z0-9-]+\.)?s3\.([a-z]+)\.(?:io\.|perf\.)?cloud\.ovh\.net$/,
    providerId: "ovhcloud",
    serviceId: "ovhcloud-object-storage",
    source:
      "https://github.com/ovh/docs/blob/683f728d5575f932d96def9b0085c06fc6ec8af4/pages/storage_and_backup/object_storage/s3_location/guide.en-gb.md",
  },
  {
    host: /^(?:[a-z0-9-]+\.)?s3\.([a-z]+-[a-z]+)\.scw\.cloud$/,
    providerId: "scaleway",
    serviceId: "scaleway-object-storage",
    source:
      "https://github.com/scaleway/docs-content/blob/272a416155a9f66fcc37e9521f364e3732f737e1/pages/object-storage/concepts.mdx",
  },
  {
    host: /^(?:[a-z0-9-]+\.)?sos-([a-z]{2}-[a-z0-9]+-[0-9]+)\.exo\.io$/,
    providerId: "exoscale",
    serviceId: "exoscale-object-storage",
    source: "https://github.com/exoscale/cli (cmd/config.go: defaultSosEndpoint https://sos-{zone}.exo.io)",
  },
];

/** What an endpoint override makes of a resource's calls. */
export type EndpointUse =
  /** AWS's own (a FIPS, dual-stack or VPC endpoint): nothing changes. */
  | { readonly kind: "aws" }
  /** Another vendor's S3-compatible storage the table knows: its service, and the region its host names. */
  | { readonly kind: "vendor"; readonly host: string; readonly endpoint: CompatibleEndpoint; readonly region: string }
  /** A host of no vendor the catalogue knows, or a local emulator. */
  | { readonly kind: "other"; readonly host: string; readonly why: string };

/** The host of an endpoint URL (or a bare host), lower-cased, or undefined when it is not one. */
function hostOf(value: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

const AWS_HOST = /(^|\.)(amazonaws\.com(\.cn)?|api\.aws|amazonaws\.eu)$/;
const LOCAL_HOST =
  /^(localhost|127\.[0-9.]+|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal|localstack(\.[a-z0-9.-]+)?)$/;

/** What an `endpoints` entry's URL sends a service's calls to. */
export function endpointUse(url: string): EndpointUse | undefined {
  const host = hostOf(url.trim());
  if (!host) return undefined;
  if (AWS_HOST.test(host)) return { kind: "aws" };
  if (LOCAL_HOST.test(host))
    return {
      kind: "other",
      host,
      why: "a local emulator (LocalStack or the like), where nothing is deployed to a cloud",
    };
  for (const endpoint of S3_COMPATIBLE_ENDPOINTS) {
    const match = endpoint.host.exec(host);
    if (match) return { kind: "vendor", host, endpoint, region: match[1]! };
  }
  return {
    kind: "other",
    host,
    why: "a host of a vendor the catalogue does not place (catalogue/templates/tables/endpoints.ts names those it does)",
  };
}

/** The `endpoints` key of an aws_* type's service (the provider's service package: aws_s3_bucket → s3). */
export const endpointKeyOf = (type: string): string | undefined =>
  type.startsWith("aws_") ? type.split("_")[1] : undefined;

/** The item a resource sent to another vendor's host is read as: the host, then the type (never an aws_* name). */
export const endpointItem = (host: string, type: string) => `${host}/${type}`;

/** An item endpointItem made: its host and type, when it is one. */
export function endpointItemParts(item: string): { host: string; type: string } | undefined {
  const match = /^([a-z0-9.[\]:-]+)\/(aws_[a-z0-9_]+)$/.exec(item);
  return match ? { host: match[1]!, type: match[2]! } : undefined;
}
