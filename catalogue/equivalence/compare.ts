/** GET /v1/compare: services side by side with a shared-attribute table. */
import { providerHoldings } from "../compliance/compliance.ts";
import type { Catalogue } from "../load/load.ts";
import { keyDifferences, protocolReader } from "../capabilities/capabilities.ts";
import type { CompareResultT } from "../schema/index.ts";

type Value = string | boolean | string[] | null;

/**
 * The compare table's attributes by theme: the site's compare page shows them grouped, in this
 * order, and lets a reader keep one group. The API's answer does not carry the group (the
 * contract is unchanged); the type makes every row below name an attribute of some group.
 */
export const COMPARE_GROUPS = [
  {
    id: "service",
    label: "Service",
    attributes: ["category", "pricingModel", "hasFreeTier", "lifecycle", "compliance", "compatibility", "lineage"],
  },
  {
    id: "provider",
    label: "Provider and jurisdiction",
    attributes: [
      "provider",
      "headOfficeCountry",
      "jurisdiction",
      "regionCountries",
      "sovereignOption",
      "euResidentOnly",
      "providerCompliance",
    ],
  },
] as const;
export type CompareAttributeId = (typeof COMPARE_GROUPS)[number]["attributes"][number];

/** A compare value as every face shows it: "—" for none, "Yes"/"No", lists joined. */
export const compareCell = (value: string | boolean | readonly string[] | null): string =>
  value === null
    ? "—"
    : Array.isArray(value)
      ? value.join(", ") || "—"
      : typeof value === "boolean"
        ? value
          ? "Yes"
          : "No"
        : (value as string);

/** The rows whose values are compliance programme ids. */
const COMPLIANCE_ROWS: ReadonlySet<string> = new Set(["compliance", "providerCompliance"]);

/**
 * A row's value as every face shows it: compliance ids as their programmes' names (`nameOf`, as
 * the service pages name them), then compareCell.
 */
export const compareShown = (attribute: string, value: Value, nameOf: (id: string) => string): string =>
  compareCell(COMPLIANCE_ROWS.has(attribute) && Array.isArray(value) ? value.map(nameOf) : value);

export function compareServices(catalogue: Catalogue, slugs: readonly string[]): CompareResultT {
  const records = slugs.map((slug) => catalogue.bySlug.get(slug)!);
  const providerOf = (providerId: string) => catalogue.providerById.get(providerId)!;
  const row = (attribute: CompareAttributeId, label: string, pick: (index: number) => Value) => {
    const values = Object.fromEntries(records.map((record, index) => [record.service.slug, pick(index)]));
    const serialised = new Set(Object.values(values).map((value) => JSON.stringify(value)));
    return { attribute, label, values, shared: serialised.size === 1 };
  };
  const services = records.map((record) => record.service);
  const attributes = [
    row("provider", "Provider", (i) => providerOf(services[i]!.providerId).provider.name),
    row(
      "category",
      "Category",
      (i) => catalogue.categoryById.get(services[i]!.category)?.name ?? services[i]!.category,
    ),
    row("pricingModel", "Pricing model", (i) => services[i]!.pricingModel ?? null),
    row("hasFreeTier", "Free tier", (i) => services[i]!.hasFreeTier ?? null),
    row("lifecycle", "Lifecycle", (i) => services[i]!.lifecycle?.status ?? "active"),
    row("headOfficeCountry", "Head office", (i) => providerOf(services[i]!.providerId).file.headOffice.country),
    row("jurisdiction", "Jurisdiction", (i) => providerOf(services[i]!.providerId).file.jurisdiction),
    row("regionCountries", "Region countries", (i) => [...providerOf(services[i]!.providerId).regionCountries]),
    row("sovereignOption", "Sovereign option", (i) => providerOf(services[i]!.providerId).sovereignOption),
    row("euResidentOnly", "EU-resident-only", (i) => providerOf(services[i]!.providerId).euResidentOnly),
    row("compliance", "Compliance (this service)", (i) => [...(services[i]!.compliance ?? [])]),
    // What each speaks and whose product it is (1.8.0): the vocabulary's names, the origin's name.
    row("compatibility", "Compatible with", (i) =>
      records[i]!.compatibility.map((claim) => catalogue.compatibilityById.get(claim.id)?.name ?? claim.id),
    ),
    row("lineage", "Lineage", (i) => {
      const origin = records[i]!.lineage && catalogue.bySlug.get(records[i]!.lineage.origin)?.service;
      return origin ? `${providerOf(origin.providerId).provider.shortName} ${origin.name}` : null;
    }),
    // What the provider holds, a row of its own and never the service's: as the service pages show
    // it (catalogue/compliance/compliance.ts), none that is the service's own or that a full scope list leaves out.
    row("providerCompliance", "Provider holds", (i) =>
      providerHoldings(providerOf(services[i]!.providerId).provider, services[i]!).flatMap((h) => h.programmes),
    ),
  ];
  const complianceSets = services.map((service) => new Set(service.compliance ?? []));
  const common = [...(complianceSets[0] ?? [])].filter((id) => complianceSets.every((set) => set.has(id))).sort();
  const bySlug = Object.fromEntries(
    services.map((service, i) => [service.slug, [...complianceSets[i]!].filter((id) => !common.includes(id)).sort()]),
  );
  const groupsOf = (slug: string) => catalogue.bySlug.get(slug)?.groupIds ?? [];
  const sharedGroup = records[0]!.groupIds.some((groupId) =>
    records.every((record) => record.groupIds.includes(groupId)),
  );
  return {
    services: records.map((record) => ({
      ...record.service,
      subServices: [...record.subServices],
      policyIdentifiers: record.policyIdentifiers,
    })),
    attributes,
    compliance: { common, bySlug },
    equivalent: records.length > 1 && sharedGroup,
    keyDifferences: services.flatMap((from) =>
      services
        .filter((to) => to.slug !== from.slug)
        .flatMap((to) =>
          keyDifferences(catalogue.capabilities, groupsOf, from.slug, to.slug, protocolReader(catalogue)),
        ),
    ),
  };
}
