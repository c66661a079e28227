/**
 * allowedLocations of a policy request, resolved to one vendor's regions through the one vocabulary
 * of places (locations/places.ts): a region code stands for itself, an ISO country code for every
 * region of the vendor located there, a group (EU, EEA) for every region in its member states, a
 * multi-region for the regions its vendor names, global for none (the vendors' global services are
 * outside any location rule, and the notes say so). Pure, so the browser could run it too;
 * documents.ts turns the result into each vendor's location rule.
 */
import type { ListCatalogue } from "../lists/list-catalogue.ts";
import { POLICY_PROVIDERS } from "../lists/list-catalogue.ts";
import {
  EEA_ONLY,
  EU_COUNTRIES,
  PLACE_GROUPS,
  multiRegionAllowed,
  resolvePlace,
  resolvePlaces,
  UnknownPlacesError,
  type Place,
  type PlaceKind,
} from "../locations/places.ts";
import { PolicyRequestError } from "./errors.ts";
import type { Vendor } from "./selection.ts";

/** The groups allowedLocations may name, with their member states (locations/places.ts's). */
export const LOCATION_GROUPS = PLACE_GROUPS;
export { EEA_ONLY, EU_COUNTRIES };

/** A region as the generators read it from the provider data. */
export interface LocationRegion {
  readonly id: string;
  readonly country: string;
  readonly market?: string | undefined;
}

/** One asked location and the vendor's regions it stands for. */
export interface AskedLocation {
  /** As read: region codes lower case, countries and groups upper case, a multi-region as its vendor writes it, global. */
  readonly asked: string;
  readonly kind: PlaceKind;
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
 * Who asks, for the 400's words: every endpoint reads the same vocabulary of places (every
 * provider's regions, countries, groups, multi-regions, global); the policy endpoints then keep
 * their vendor's regions, the deployment check each resource's provider's.
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

/** The places of allowedLocations; an unknown one is the 400 every place parameter answers. */
export function allowedPlaces(catalogue: ListCatalogue, allowedLocations: readonly string[]): Place[] {
  try {
    return resolvePlaces(catalogue, allowedLocations, "allowedLocations");
  } catch (error) {
    if (error instanceof UnknownPlacesError) throw new PolicyRequestError("Unknown locations", error.message);
    throw error;
  }
}

/**
 * The asked locations, each resolved to the vendor's regions; every unknown one named in one 400
 * with its nearest known places. Repeats are dropped; a place of another vendor resolves to no
 * region of this one (the same list serves every endpoint). `known` is kept for the callers that
 * name their vocabulary; every endpoint reads the same places.
 */
export function resolveLocations(
  catalogue: ListCatalogue,
  vendor: Pick<Vendor, "providerId">,
  allowedLocations: readonly string[],
  _known: LocationVocabulary = POLICY_VOCABULARY,
): AskedLocation[] {
  const places = allowedPlaces(catalogue, allowedLocations);
  const own = regionsOf(catalogue, vendor.providerId);
  return places.map((place) => {
    const covered = new Set(
      place.regions.filter((region) => region.providerId === vendor.providerId).map((region) => region.id),
    );
    return { asked: place.place, kind: place.kind, regions: own.filter((region) => covered.has(region.id)) };
  });
}

/**
 * What explain says of the approved services and the allowed places (every policy): the approved
 * services whose own regions (placement regional) hold none of the allowed regions, named with where
 * they are offered, as the location rule denies them everywhere they run; how many are known only at
 * provider level (not checked); and what `global` means to this vendor's rule.
 */
export function placementNotes(
  catalogue: ListCatalogue,
  vendor: Pick<Vendor, "providerId" | "providerName">,
  ids: readonly string[],
  allowedRegions: readonly string[],
): string[] {
  const allowed = new Set(allowedRegions);
  const offeredNowhere: string[] = [];
  let unknown = 0;
  let asOf = "";
  for (const id of ids) {
    const record = catalogue.bySlug.get(id);
    if (!record?.placement || record.service.providerId !== vendor.providerId) continue;
    if (record.placement.kind === "provider-level") unknown++;
    if (record.placement.kind !== "regional") continue;
    const own = (record.regions ?? []).map((region) => region.id);
    if (own.some((region) => allowed.has(region))) continue;
    asOf = record.placement.asOf > asOf ? record.placement.asOf : asOf;
    const shown = own.length > 4 ? `${own.slice(0, 4).join(", ")}, … (${own.length} regions)` : own.join(", ");
    offeredNowhere.push(`${record.service.name} (${id}: ${shown}${own.length === 1 ? " only" : ""})`);
  }
  return [
    ...(offeredNowhere.length > 0
      ? [
          `Approved but offered in none of the allowed regions, by their own region lists (as of ${asOf}): ${offeredNowhere.join("; ")}. The location rule denies them wherever they run: allow one of their regions, or drop them from the list.`,
        ]
      : []),
    ...(unknown > 0
      ? [
          `${unknown} approved ${vendor.providerName} service${unknown === 1 ? "'s" : "s'"} own regions are not known (provider level): whether ${unknown === 1 ? "it is" : "they are"} offered in the allowed regions is not checked.`,
        ]
      : []),
  ];
}

/** What `global` among allowedLocations means to each vendor's location rule. */
const GLOBAL_NOTES: Readonly<Record<string, string>> = {
  aws: "global (allowedLocations): AWS's global services are answered from their global endpoints and stay usable through the region deny's exemptions whatever the list; global names no region.",
  azure:
    "global (allowedLocations): resources whose location is global are not evaluated by 'Allowed locations' whatever the list; global names no region.",
  gcp: "global (allowedLocations): global resources are created whatever gcp.resourceLocations allows; global names no region.",
};

/** The note on `global`, when it was asked. */
export const globalNote = (vendor: Pick<Vendor, "providerId">, asked: readonly AskedLocation[]): string[] =>
  asked.some((location) => location.kind === "global") && GLOBAL_NOTES[vendor.providerId]
    ? [GLOBAL_NOTES[vendor.providerId]!]
    : [];

/** The asked locations' regions, each once, sorted. */
export const regionIds = (asked: readonly AskedLocation[]) =>
  [...new Set(asked.flatMap((location) => location.regions.map((region) => region.id)))].sort();

/** The asked locations standing for none of the vendor's regions, for the notes (global has its own). */
export const unmatched = (asked: readonly AskedLocation[]) =>
  asked
    .filter((location) => location.regions.length === 0 && location.kind !== "global")
    .map((location) => location.asked);

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
 * AWS's own region-deny SCP sample, its NotAction list copied unchanged: the global services and
 * operations exempted so the region deny does not break them. From aws-samples/
 * service-control-policy-examples, Region-controls/Deny-access-to-AWS-based-on-the-requested-AWS-region.json
 * (AWS_REGION_DENY_SAMPLE), at commit 35a50b09 (2026-04-09), vendored byte for byte in
 * reference/aws-scp-examples/; tests/catalogue/policies-region-scp.test.ts holds the two equal. It
 * replaced the Organizations guide's archived copy: Route 53 ARC's three prefixes and
 * s3:ListMultiRegionAccessPoints added, supportplans:* dropped. AWS says it may not hold the
 * latest global services.
 */
export const AWS_REGION_DENY_SAMPLE =
  "https://github.com/aws-samples/service-control-policy-examples/blob/35a50b0948bda5ebeb05ef4c6fc5df4f48cd0682/Region-controls/Deny-access-to-AWS-based-on-the-requested-AWS-region.json";
/** The Organizations user guide's page of the same example, for readers. */
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
  "route53-recovery-cluster:*",
  "route53-recovery-control-config:*",
  "route53-recovery-readiness:*",
  "s3:GetAccountPublic*",
  "s3:ListAllMyBuckets",
  "s3:ListMultiRegionAccessPoints",
  "s3:PutAccountPublic*",
  "shield:*",
  "sts:*",
  "support:*",
  "trustedadvisor:*",
  "waf-regional:*",
  "waf:*",
  "wafv2:*",
  "wellarchitected:*",
];

/**
 * AWS Control Tower's own Region deny control (GRREGIONDENY, "Deny access to AWS based on the
 * requested AWS Region", https://docs.aws.amazon.com/controltower/latest/userguide/primary-region-deny-policy.html,
 * read 2026-11-29) exempts the account and billing operations AWS's Organizations sample leaves
 * out: these six of the essentials (essentials.ts) are in its NotAction as read in the stored copy
 * (which runs from "a4b:*" to "quicksight:DescribeAccountSubscription"), so the region deny exempts
 * them too (issue 124: with EU allowed, account:GetAlternateContact, billing:GetBillingData,
 * payments:…, invoicing:… and freetier:… were denied, being answered in us-east-1). The essentials
 * the copy read does not show (tax, supportplans, signin, sso, sso-directory, identitystore) are
 * named in explain mode as blocked outside the allowed regions (REGION_DENY_BLOCKED_ESSENTIALS).
 */
export const AWS_CONTROL_TOWER_REGION_DENY =
  "https://docs.aws.amazon.com/controltower/latest/userguide/primary-region-deny-policy.html";
export const AWS_REGION_DENY_ESSENTIALS: readonly string[] = [
  "account:*",
  "billing:*",
  "consolidatedbilling:*",
  "freetier:*",
  "invoicing:*",
  "payments:*",
];
/** The region deny's NotAction: AWS's sample, then the essentials Control Tower's Region deny exempts. */
export const AWS_REGION_DENY_NOT_ACTION: readonly string[] = [
  ...AWS_GLOBAL_SERVICE_EXEMPTIONS,
  ...AWS_REGION_DENY_ESSENTIALS.filter((action) => !AWS_GLOBAL_SERVICE_EXEMPTIONS.includes(action)),
];

/** The essential prefixes (essentials.ts) the region deny does not exempt: usable only in the allowed regions. */
export function regionDenyBlockedEssentials(essentialPrefixes: readonly string[]): string[] {
  const exempt = new Set(AWS_REGION_DENY_NOT_ACTION.filter((a) => a.endsWith(":*")).map((a) => a.slice(0, -2)));
  return essentialPrefixes.filter((prefix) => !exempt.has(prefix));
}

/**
 * Amazon Bedrock's cross-Region inference: a geographic inference profile serves a request in
 * another Region of its geography than the one called, and AWS's sample SCP "with Bedrock CRIS
 * support" carves the inference actions out of the region deny for that reason (aws-samples/
 * service-control-policy-examples, Region-controls/…-with-Bedrock-CRIS.json at 35a50b09).
 */
export const AWS_BEDROCK_CRIS_SAMPLE =
  "https://github.com/aws-samples/service-control-policy-examples/blob/35a50b0948bda5ebeb05ef4c6fc5df4f48cd0682/Region-controls/Deny-access-to-AWS-based-on-the-requested-AWS-region-with-Bedrock-CRIS.json";
const BEDROCK_INFERENCE_SLUGS = new Set(["aws-bedrock"]);

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
  ids: readonly string[] = [],
  essentialPrefixes: readonly string[] = [],
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
  const blocked = regionDenyBlockedEssentials(essentialPrefixes);
  return {
    partition,
    regions,
    notes: [
      `Region deny (allowedLocations): a second Deny statement denies every request for a region other than ${regions.join(", ")} (StringNotEquals aws:RequestedRegion), except the global services AWS's own region-deny sample exempts in NotAction (${AWS_REGION_DENY_SAMPLE}), copied unchanged, and the account and billing operations AWS Control Tower's Region deny exempts (${AWS_REGION_DENY_ESSENTIALS.join(", ")}; ${AWS_CONTROL_TOWER_REGION_DENY}).`,
      ...(blocked.length > 0
        ? [
            `Essentials the region deny blocks outside ${regions.join(", ")}: ${blocked.map((prefix) => `${prefix}:*`).join(", ")}. They stay usable only when requested in an allowed region (IAM Identity Center and its directory in its home region; tax settings and support plans are answered in us-east-1): allow that region, or add them to the second statement's NotAction.`,
          ]
        : []),
      ...(ids.some((id) => BEDROCK_INFERENCE_SLUGS.has(id))
        ? [
            `Amazon Bedrock cross-Region inference: a geographic or global inference profile serves a request in another Region than the one called, so inference can run outside ${regions.join(", ")} while the call names an allowed Region, and a call naming a Region outside them is denied even through a profile. AWS's sample for cross-Region inference carves bedrock:InvokeModel, bedrock:InvokeModelWithResponseStream and bedrock:CreateModelInvocationJob out of the region deny and denies them unless the inference profile is of an approved geography (${AWS_BEDROCK_CRIS_SAMPLE}).`,
          ]
        : []),
      "What the region deny cannot cover: the exempted services (IAM, Organizations, STS, Route 53 and its Application Recovery Controller, CloudFront, WAF, Shield, Support, billing and pricing, Health, Config, Direct Connect, Global Accelerator, KMS and ACM among them) stay usable whatever the region, so a KMS key, an ACM certificate or a Config rule can still be created outside the list; global resources (IAM roles, Route 53 zones, CloudFront distributions) have no region at all. AWS says its list may miss newer global services: check it against the services your accounts use (IAM access advisor). With AWS Control Tower, use its own Region deny control instead.",
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
      ...globalNote(vendor, asked),
      ...placementNotes(catalogue, vendor, ids, regions),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Azure: the built-in location policies' list

/** The Azure locations of allowedLocations, sorted, and what explain mode says of them. */
export function azureLocations(
  catalogue: ListCatalogue,
  vendor: Vendor,
  allowedLocations: readonly string[],
  ids: readonly string[] = [],
) {
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
      ...globalNote(vendor, asked),
      ...placementNotes(catalogue, vendor, ids, locations),
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
export function gcpLocationValues(
  catalogue: ListCatalogue,
  vendor: Vendor,
  allowedLocations: readonly string[],
  ids: readonly string[] = [],
) {
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
  // A multi- or dual-region is a location value of its own: in:<region>-locations never holds it
  // (Google: "Allowing or denying a multi-region or region does not imply that all included
  // sub-locations should also be allowed"). Each one the deployment check allows under these
  // places (every region or country it covers allowed) is listed as Google spells it (nam4, us).
  for (const multi of catalogue.multiRegions ?? [])
    if (multi.providerId === vendor.providerId) {
      const place = resolvePlace(catalogue, `${multi.providerId}:${multi.value}`);
      if (place && multiRegionAllowed(place, allowedPlaces(catalogue, allowedLocations)))
        values.add(multi.value.toLowerCase());
    }
  const none = unmatched(asked);
  return {
    values: [...values].sort(),
    notes: [
      `Locations (allowedLocations): a second organization policy restricts gcp.resourceLocations to ${[...values].sort().join(", ")} (Google's value groups: in:eu-locations for the EU, in:<region>-locations per region; a multi-region or dual-region, such as us or nam4, by its own value, where every region or country it covers is allowed). Apply it too: gcloud org-policies set-policy locations.json.`,
      `gcp.resourceLocations covers only the resource types Google lists as supporting it (${GCP_SUPPORTED_SERVICES}), and only resources created after the policy: global resources (Compute Engine global addresses…) and resources with no location choice are created whatever it says, and it is not a data-residency commitment.`,
      ...(none.length > 0 ? [`allowedLocations with no Google Cloud region: ${none.join(", ")}.`] : []),
      ...globalNote(vendor, asked),
      ...placementNotes(catalogue, vendor, ids, regionIds(asked)),
    ],
  };
}
