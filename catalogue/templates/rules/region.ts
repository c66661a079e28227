/**
 * The request's region (where a deployment is made when it does not say) checked as the policies
 * check their locations: a region id the catalogue knows, else a 400 Unknown region naming the
 * nearest. A CloudFormation stack is made in an AWS region and an ARM deployment in an Azure
 * location, so a region of another vendor is refused for those formats (an Azure region on a
 * CloudFormation stack); Terraform's region is the environment's (AWS_REGION and the like), any
 * provider's region, zone or site (regionOf reads OVHcloud's GRA7 as its site).
 */
import { editDistance } from "../../base/edit-distance.ts";
import type { ListCatalogue } from "../../lists/list-catalogue.ts";
import { PolicyRequestError } from "../../policies/errors.ts";
import type { Deployment } from "../model/deployment.ts";
import { regionOf } from "./locations.ts";

/** The vendor whose regions a format's deployment is made in, when the format names one. */
const VENDOR_OF: Partial<
  Record<Deployment["format"], { readonly id: string; readonly name: string; readonly what: string }>
> = {
  cloudformation: { id: "aws", name: "AWS", what: "a CloudFormation stack is made in an AWS region" },
  arm: { id: "azure", name: "Azure", what: "an ARM deployment is made in an Azure location" },
};

/** The up to three region ids nearest a word. */
function nearest(ids: readonly string[], word: string): string[] {
  const lower = word.toLowerCase().replace(/\s+/g, "");
  const most = Math.max(2, Math.floor(lower.length / 3));
  return [...new Set(ids)]
    .map((id) => ({ id, distance: editDistance(lower, id.toLowerCase(), most) }))
    .filter(({ distance }) => distance <= most)
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map(({ id }) => id);
}

const nearestText = (ids: readonly string[]) => (ids.length > 0 ? ` (nearest: ${ids.join(", ")})` : "");

/** Refuses the request's region (a PolicyRequestError: 400 Unknown region) when no region fits the deployment's format. */
export function checkRequestRegion(catalogue: ListCatalogue, deployment: Deployment, region: string | undefined): void {
  if (region === undefined) return;
  const providers = catalogue.providers.filter((provider) => (provider.regions ?? []).length > 0);
  const vendor = VENDOR_OF[deployment.format];
  const exact = (providerId: string, regions: readonly { id: string }[]) => {
    const key = (providerId === "azure" ? region.replace(/\s+/g, "") : region).toLowerCase();
    return regions.some((candidate) => candidate.id.toLowerCase() === key);
  };
  if (vendor) {
    const own = providers.find((provider) => provider.id === vendor.id);
    if (own && exact(own.id, own.regions!)) return;
    const others = providers.filter((provider) => provider.id !== vendor.id && exact(provider.id, provider.regions!));
    const close = nearest(own?.regions?.map((candidate) => candidate.id) ?? [], region);
    throw new PolicyRequestError(
      "Unknown region",
      others.length > 0
        ? `region: "${region.slice(0, 40)}" is a region of ${others.map((provider) => provider.name).join(", ")}, not of ${vendor.name}: ${vendor.what}${nearestText(close)}.`
        : `region: "${region.slice(0, 40)}" is no ${vendor.name} region the catalogue knows: ${vendor.what}${nearestText(close)}.`,
    );
  }
  // A zone or site of a region (fr-par-1, europe-west3-a, fsn1-dc14, GRA7), never a longer word that starts like one.
  const fits = (provider: (typeof providers)[number]) => {
    const found = regionOf(provider.regions!, provider.id, region);
    if (!found) return false;
    const rest = region.toLowerCase().replace(/\s+/g, "").slice(found.id.length);
    return rest === "" || /^-([a-z]|[0-9]{1,2}|dc[0-9]+)$/.test(rest) || provider.id === "ovhcloud";
  };
  if (providers.some(fits)) return;
  throw new PolicyRequestError(
    "Unknown region",
    `region: "${region.slice(0, 40)}" is no region of any provider the catalogue knows (a region id such as eu-west-1, fr-par or westeurope, or a zone or site of one)${nearestText(
      nearest(
        providers.flatMap((provider) => provider.regions!.map((candidate) => candidate.id)),
        region,
      ),
    )}.`,
  );
}
