/**
 * allowedLocations of a policy request, resolved to one vendor's regions from the catalogue's
 * provider region data (data/providers/*.yaml): a region code stands for itself, an ISO country
 * code for every region of the vendor located there, a group (EU, EEA) for every region in its
 * member states. Pure, so the browser could run it too; documents.ts turns the result into each
 * vendor's location rule.
 */
import { editDistance } from "../base/edit-distance.ts";
import type { ListCatalogue } from "../lists/list-catalogue.ts";
import { POLICY_PROVIDERS } from "../lists/list-catalogue.ts";
import { PolicyRequestError } from "./errors.ts";
import type { Vendor } from "./selection.ts";

/**
 * The EU's 27 member states (ISO 3166-1 alpha-2). schema/vocabulary.ts's EU_EEA_COUNTRIES is this
 * plus EEA_ONLY; tests/catalogue/policies-locations.test.ts checks the two agree (zod keeps the
 * browser from importing it here).
 */
const EU_COUNTRIES = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" ");
/** The EEA members outside the EU. */
const EEA_ONLY = ["IS", "LI", "NO"];
/** The groups allowedLocations may name, with their member states. */
export const LOCATION_GROUPS: ReadonlyMap<string, readonly string[]> = new Map([
  ["EU", EU_COUNTRIES],
  ["EEA", [...EU_COUNTRIES, ...EEA_ONLY]],
]);

/** A region as the generators read it from the provider data. */
export interface LocationRegion {
  readonly id: string;
  readonly country: string;
  readonly market?: string | undefined;
}

/** One asked location and the vendor's regions it stands for. */
export interface AskedLocation {
  /** As the request wrote it, normalised: region codes lower case, countries and groups upper case. */
  readonly asked: string;
  readonly kind: "region" | "country" | "group";
  /** The vendor's regions it stands for, sorted; empty when the vendor has none there. */
  readonly regions: readonly LocationRegion[];
}

function regionsOf(catalogue: ListCatalogue, providerId: string): readonly LocationRegion[] {
  const provider = catalogue.providers.find((candidate) => candidate.id === providerId);
  if (!provider?.regions)
    throw new PolicyRequestError(
      "Invalid request",
      "allowedLocations needs the catalogue's region data, which this copy of the catalogue does not carry: ask the API.",
    );
  return provider.regions;
}

/**
 * Whose regions allowedLocations may name, and how a 400 names them: the policy endpoints know the
 * three policy providers'; the deployment check every provider's with regions.
 */
export interface LocationVocabulary {
  readonly providerIds: readonly string[];
  /** "AWS, Azure or Google Cloud", "any provider of the catalogue". */
  readonly named: string;
}
export const POLICY_VOCABULARY: LocationVocabulary = {
  providerIds: POLICY_PROVIDERS,
  named: "AWS, Azure or Google Cloud",
};

/** Region ids of the vocabulary's providers, and countries and groups, as allowedLocations knows them. */
function vocabulary(catalogue: ListCatalogue, known: LocationVocabulary) {
  const regions = new Map<string, string>();
  const countries = new Set<string>([...LOCATION_GROUPS.values()].flat());
  for (const providerId of known.providerIds)
    for (const region of regionsOf(catalogue, providerId)) {
      regions.set(region.id.toLowerCase(), providerId);
      countries.add(region.country);
    }
  return { regions, countries };
}

/** The up to three known locations nearest an unknown one, for the 400's "did you mean". */
function nearest(word: string, known: readonly string[]): string[] {
  const most = Math.max(2, Math.floor(word.length / 3));
  return known
    .map((candidate) => ({ candidate, distance: editDistance(word.toLowerCase(), candidate.toLowerCase(), most) }))
    .filter(({ distance }) => distance <= most)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/**
 * The asked locations, each resolved to the vendor's regions; every unknown one named in one 400
 * with its nearest known locations. Repeats are dropped; a region code of another vendor resolves
 * to no region of this one (the same list serves the three endpoints).
 */
export function resolveLocations(
  catalogue: ListCatalogue,
  vendor: Pick<Vendor, "providerId">,
  allowedLocations: readonly string[],
  known: LocationVocabulary = POLICY_VOCABULARY,
): AskedLocation[] {
  const { regions, countries } = vocabulary(catalogue, known);
  const own = regionsOf(catalogue, vendor.providerId);
  const asked: AskedLocation[] = [];
  const unknown: string[] = [];
  for (const raw of new Set(allowedLocations.map((location) => location.trim()))) {
    const lower = raw.toLowerCase();
    const upper = raw.toUpperCase();
    // Groups and countries first: a few providers' region ids are a group's or a country's code
    // (Heroku's eu, Cloudflare's us and ca), and EU or DE means the group or the country.
    if (LOCATION_GROUPS.has(upper)) {
      const members = new Set(LOCATION_GROUPS.get(upper));
      asked.push({ asked: upper, kind: "group", regions: own.filter((region) => members.has(region.country)) });
    } else if (/^[A-Z]{2}$/.test(upper) && countries.has(upper))
      asked.push({ asked: upper, kind: "country", regions: own.filter((region) => region.country === upper) });
    else if (regions.has(lower))
      asked.push({ asked: lower, kind: "region", regions: own.filter((region) => region.id.toLowerCase() === lower) });
    else unknown.push(raw);
  }
  if (unknown.length > 0) {
    const words = [...LOCATION_GROUPS.keys(), ...[...countries].sort(), ...[...regions.keys()].sort()];
    const named = unknown.map((word) => {
      const near = nearest(word, words);
      return `"${word}"${near.length > 0 ? ` (nearest: ${near.join(", ")})` : ""}`;
    });
    throw new PolicyRequestError(
      "Unknown locations",
      `allowedLocations names no region of ${known.named}, no country they have a region in and no group (EU, EEA): ${named.join("; ")}.`,
    );
  }
  return asked;
}

/** The asked locations' regions, each once, sorted. */
export const regionIds = (asked: readonly AskedLocation[]) =>
  [...new Set(asked.flatMap((location) => location.regions.map((region) => region.id)))].sort();

/** The asked locations standing for none of the vendor's regions, for the notes. */
export const unmatched = (asked: readonly AskedLocation[]) =>
  asked.filter((location) => location.regions.length === 0).map((location) => location.asked);

/** A 400 when none of the asked locations is a region of the vendor: the rule would deny everything. */
export function requireRegions(vendor: Vendor, asked: readonly AskedLocation[]): void {
  if (regionIds(asked).length === 0)
    throw new PolicyRequestError(
      "Unknown locations",
      `None of allowedLocations (${asked.map((location) => location.asked).join(", ")}) is or holds a region of ${vendor.providerName}: the location rule would deny every region. Add ${vendor.aProvider} region, or a country or group where ${vendor.providerName} has one.`,
    );
}

// ---------------------------------------------------------------------------------------------
// AWS: a region deny statement, in one partition

/**
 * AWS's own "Deny access to AWS based on the requested AWS Region" SCP example (Organizations user
 * guide, General examples: AWS_REGION_DENY_EXAMPLE), its NotAction list copied unchanged: the global
 * services whose endpoints sit in us-east-1, exempted so the region deny does not break them.
 * Copied from the guide's source (awsdocs/aws-organizations-docs, doc_source/
 * orgs_manage_policies_scps_examples_general.md, commit 19e0cbe3); AWS says it may not hold the
 * latest global services.
 */
export const AWS_REGION_DENY_EXAMPLE =
  "https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps_examples_general.html#example-scp-deny-region";
export const AWS_GLOBAL_SERVICE_EXEMPTIONS: readonly string[] = [
  "a4b:*",
  "acm:*",
  "aws-marketplace-management:*",
  "aws-marketplace:*",
  "aws-portal:*",
  "budgets:*",
  "ce:*",
  "chime:*",
  "cloudfront:*",
  "config:*",
  "cur:*",
  "directconnect:*",
  "ec2:DescribeRegions",
  "ec2:DescribeTransitGateways",
  "ec2:DescribeVpnGateways",
  "fms:*",
  "globalaccelerator:*",
  "health:*",
  "iam:*",
  "importexport:*",
  "kms:*",
  "mobileanalytics:*",
  "networkmanager:*",
  "organizations:*",
  "pricing:*",
  "route53:*",
  "route53domains:*",
  "s3:GetAccountPublic*",
  "s3:ListAllMyBuckets",
  "s3:PutAccountPublic*",
  "shield:*",
  "sts:*",
  "support:*",
  "supportplans:*",
  "trustedadvisor:*",
  "waf-regional:*",
  "waf:*",
  "wafv2:*",
  "wellarchitected:*",
];

/** The AWS partition a region is in: the European Sovereign Cloud's market is its own partition. */
const awsPartition = (region: LocationRegion) => (region.market === "eu-sovereign" ? "aws-eusc" : "aws");

export interface AwsRegionDeny {
  readonly partition: string;
  readonly regions: readonly string[];
  readonly notes: readonly string[];
}

/**
 * The regions of the region deny, all in one partition: an SCP lives in one partition's
 * organization, so explicit region codes of two partitions are a 400; a country or group stands
 * for the regions of the partition the explicit codes are in (aws when none is), the others left
 * out with a note. Exempt principals must be of that partition too, or they would exempt nobody.
 */
export function awsRegionDeny(
  catalogue: ListCatalogue,
  vendor: Vendor,
  allowedLocations: readonly string[],
  exemptPrincipalArns: readonly string[],
): AwsRegionDeny {
  const asked = resolveLocations(catalogue, vendor, allowedLocations);
  const explicit = asked.filter((location) => location.kind === "region").flatMap((location) => location.regions);
  const partitions = [...new Set(explicit.map(awsPartition))].sort();
  if (partitions.length > 1)
    throw new PolicyRequestError(
      "Invalid request",
      `allowedLocations mixes regions of two AWS partitions (${explicit.map((region) => `${region.id}: ${awsPartition(region)}`).join(", ")}). An SCP lives in one partition's organization, and the AWS European Sovereign Cloud (aws-eusc) has its own organizations, accounts and IAM: ask for each partition's regions in a separate request.`,
    );
  const partition = partitions[0] ?? "aws";
  requireRegions(vendor, asked);
  const all = asked.flatMap((location) => location.regions);
  const regions = [...new Set(all.filter((region) => awsPartition(region) === partition).map((r) => r.id))].sort();
  const leftOut = [...new Set(all.filter((region) => awsPartition(region) !== partition).map((r) => r.id))].sort();
  if (regions.length === 0)
    throw new PolicyRequestError(
      "Unknown locations",
      `allowedLocations holds no region of the ${partition} partition: ask for its regions by code.`,
    );
  const foreign = exemptPrincipalArns.filter((arn) => arn.split(":")[1] !== partition);
  if (foreign.length > 0)
    throw new PolicyRequestError(
      "Invalid request",
      `exemptPrincipalArns ${foreign.join(", ")} are not of the ${partition} partition the allowed regions are in: an SCP of that partition's organization never sees those principals. Write them as arn:${partition}:iam::….`,
    );
  const none = unmatched(asked);
  return {
    partition,
    regions,
    notes: [
      `Region deny (allowedLocations): a second Deny statement denies every request for a region other than ${regions.join(", ")} (StringNotEquals aws:RequestedRegion), except the global services AWS's own example exempts in NotAction (${AWS_REGION_DENY_EXAMPLE}), copied unchanged.`,
      "What the region deny cannot cover: the exempted services (IAM, Organizations, STS, Route 53, CloudFront, WAF, Shield, Support, billing and pricing, Health, Config, Direct Connect, Global Accelerator, KMS and ACM among them) stay usable whatever the region, so a KMS key, an ACM certificate or a Config rule can still be created outside the list; global resources (IAM roles, Route 53 zones, CloudFront distributions) have no region at all. AWS says its list may miss newer global services: check it against the services your accounts use (IAM access advisor). With AWS Control Tower, use its own Region deny control instead.",
      ...(partition === "aws-eusc"
        ? [
            "For the aws-eusc partition (AWS European Sovereign Cloud): create and attach the SCP in that partition's organization; it has its own accounts and IAM, and global services there answer in eusc-de-east-1.",
          ]
        : []),
      ...(leftOut.length > 0
        ? [
            `Left out of the region deny: ${leftOut.join(", ")}, of another partition than ${partition} (an SCP lives in one partition's organization). Ask for ${leftOut.join(", ")} by region code, alone, for that partition's SCP.`,
          ]
        : []),
      ...(none.length > 0 ? [`allowedLocations with no AWS region of this partition: ${none.join(", ")}.`] : []),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Azure: the built-in location policies' list

/** The Azure locations of allowedLocations, sorted, and what explain mode says of them. */
export function azureLocations(catalogue: ListCatalogue, vendor: Vendor, allowedLocations: readonly string[]) {
  const asked = resolveLocations(catalogue, vendor, allowedLocations);
  requireRegions(vendor, asked);
  const none = unmatched(asked);
  const locations = regionIds(asked);
  return {
    locations,
    notes: [
      `Locations (allowedLocations): the built-in 'Allowed locations' denies resources outside ${locations.join(", ")}, and 'Allowed locations for resource groups' resource groups outside them.`,
      "'Allowed locations' runs in Indexed mode and does not evaluate resources whose location is \"global\" (Front Door, Traffic Manager, DNS zones, Entra ID objects…), nor types without a location, nor Azure AD B2C directories: those are created whatever the list says.",
      ...(none.length > 0 ? [`allowedLocations with no Azure region: ${none.join(", ")}.`] : []),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Google Cloud: gcp.resourceLocations' allowed values

/**
 * Google's value group per asked group: in:eu-locations is its "European Union" group (Restricting
 * resource locations, value groups:
 * https://cloud.google.com/resource-manager/docs/organization-policy/defining-locations). Google has
 * no EEA group: EEA is the EU group and the regions in IS, LI and NO.
 */
const GCP_GROUP_VALUES: ReadonlyMap<string, string> = new Map([
  ["EU", "in:eu-locations"],
  ["EEA", "in:eu-locations"],
]);
export const GCP_SUPPORTED_SERVICES =
  "https://cloud.google.com/resource-manager/docs/organization-policy/defining-locations-supported-services";

/** The allowed values of gcp.resourceLocations, sorted, and what explain mode says of them. */
export function gcpLocationValues(catalogue: ListCatalogue, vendor: Vendor, allowedLocations: readonly string[]) {
  const asked = resolveLocations(catalogue, vendor, allowedLocations);
  requireRegions(vendor, asked);
  const eu = new Set(LOCATION_GROUPS.get("EU"));
  const values = new Set<string>();
  for (const location of asked) {
    const group = GCP_GROUP_VALUES.get(location.asked);
    if (location.kind === "group" && group) {
      values.add(group);
      // What the group holds beyond the EU (EEA: IS, LI, NO) by region.
      for (const region of location.regions) if (!eu.has(region.country)) values.add(`in:${region.id}-locations`);
    } else for (const region of location.regions) values.add(`in:${region.id}-locations`);
  }
  const none = unmatched(asked);
  return {
    values: [...values].sort(),
    notes: [
      `Locations (allowedLocations): a second organization policy restricts gcp.resourceLocations to ${[...values].sort().join(", ")} (Google's value groups: in:eu-locations for the EU, in:<region>-locations per region). Apply it too: gcloud org-policies set-policy locations.json.`,
      `gcp.resourceLocations covers only the resource types Google lists as supporting it (${GCP_SUPPORTED_SERVICES}), and only resources created after the policy: global resources (Compute Engine global addresses…) and resources with no location choice are created whatever it says, and it is not a data-residency commitment.`,
      ...(none.length > 0 ? [`allowedLocations with no Google Cloud region: ${none.join(", ")}.`] : []),
    ],
  };
}
