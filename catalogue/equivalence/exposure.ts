/** GET /v1/exposure: the jurisdictional exposure scorecard of a selection of services. */
import type { ServiceRecord } from "../load/load.ts";
import { outOfScopeByLifecycle, providerHoldings } from "../compliance/compliance.ts";
import type { ExposureReportT, ProviderFileT } from "../schema/index.ts";

/**
 * How the catalogue records a provider's jurisdiction, said where a visitor chooses or reads one
 * (the scorecard, the exit planner): a French provider is EU, so "FR" finds none (issue 116).
 */
export const JURISDICTION_RULE =
  "A provider's jurisdiction is its head office's legal regime: EU for a provider based in an EU/EEA member state (a French or German provider counts as EU), otherwise its country (CH, US…).";

export const EXPOSURE_DISCLAIMER =
  "Procurement triage, not legal advice. The figures describe where providers are headquartered and where their public regions are; they do not assess contracts, data flows, encryption, or which laws apply to your data. Consult counsel before relying on them.";

/** Said when the scorecard is placed in regions: where the data sits does not change who can be compelled. */
export const REGIONS_DISCLAIMER =
  "Regions place the data, not the company: the provider's parent company, and the jurisdiction of its head office, still reach the data in every region it operates, a European region included.";

const percentage = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

function counts(keys: Iterable<string>, whole: number) {
  const tally = new Map<string, number>();
  for (const key of keys) tally.set(key, (tally.get(key) ?? 0) + 1);
  return [...tally]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([key, count]) => ({ key, count, percentage: percentage(count, whole) }));
}

/** What the scorecard reads of a catalogue (a full Catalogue is one; the site's exit plans pass theirs). */
export interface ExposureCatalogue {
  readonly bySlug: ReadonlyMap<string, Pick<ServiceRecord, "service"> & Partial<Pick<ServiceRecord, "regions">>>;
  readonly providerById: ReadonlyMap<
    string,
    {
      readonly file: Pick<ProviderFileT, "jurisdiction" | "controllingCountry"> &
        Partial<Pick<ProviderFileT, "defaultCompliance" | "complianceScope">> & {
          readonly headOffice: Pick<ProviderFileT["headOffice"], "country"> &
            Partial<Pick<ProviderFileT["headOffice"], "company">>;
        };
      readonly regionCountries: readonly string[];
      readonly sovereignOption: boolean;
      readonly euResidentOnly: boolean;
    }
  >;
}

/** Each provider of the rows with its operating company and jurisdictions, most services first. */
function operatorsOf(
  catalogue: ExposureCatalogue,
  rows: readonly { readonly providerId: string }[],
): NonNullable<ExposureReportT["operators"]> {
  const tally = new Map<string, number>();
  for (const row of rows) tally.set(row.providerId, (tally.get(row.providerId) ?? 0) + 1);
  return [...tally]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([providerId, services]) => {
      const { file } = catalogue.providerById.get(providerId)!;
      return {
        providerId,
        ...(file.headOffice.company ? { company: file.headOffice.company } : {}),
        headOfficeCountry: file.headOffice.country,
        jurisdiction: file.jurisdiction,
        controllingCountry: file.controllingCountry,
        services,
      };
    });
}

/**
 * The scorecard of a selection; with `regions` (lower-case region ids), each service's region
 * countries are those of the asked regions it runs in (ServiceRecord.regions), where its data sits,
 * rather than every country its provider has a region in.
 */
export function exposureReport(
  catalogue: ExposureCatalogue,
  slugs: readonly string[],
  regions?: ReadonlySet<string>,
): ExposureReportT {
  const rows = slugs.map((slug) => {
    const record = catalogue.bySlug.get(slug)!;
    const service = record.service;
    const provider = catalogue.providerById.get(service.providerId)!;
    const placed = regions ? (record.regions ?? []).filter(({ id }) => regions.has(id.toLowerCase())) : undefined;
    return {
      slug,
      name: service.name,
      providerId: service.providerId,
      headOfficeCountry: provider.file.headOffice.country,
      jurisdiction: provider.file.jurisdiction,
      controllingCountry: provider.file.controllingCountry,
      regionCountries: placed
        ? [...new Set(placed.map(({ country }) => country))].sort()
        : [...provider.regionCountries],
      ...(placed ? { dataRegions: placed.map(({ id }) => id) } : {}),
      usHeadquartered: provider.file.headOffice.country === "US",
      sovereignOption: provider.sovereignOption,
      euResidentOnly: provider.euResidentOnly,
      ...(service.lifecycle ? { lifecycle: service.lifecycle } : {}),
      compliance: {
        own: outOfScopeByLifecycle(service) ? [] : [...(service.compliance ?? [])],
        // What the provider holds that no scope list the catalogue cites names this service for.
        providerOnly: providerHoldings(provider.file, service).flatMap((holding) => [...holding.programmes]),
      },
    };
  });
  const providers = new Map(rows.map((row) => [row.providerId, row.usHeadquartered]));
  const usProviders = [...providers.values()].filter(Boolean).length;
  const usServices = rows.filter((row) => row.usHeadquartered).length;
  return {
    totalServices: rows.length,
    totalProviders: providers.size,
    byJurisdiction: counts(
      rows.map((row) => row.jurisdiction),
      rows.length,
    ),
    byRegionCountry: counts(
      rows.flatMap((row) => row.regionCountries),
      rows.length,
    ),
    usHeadquarteredProviderPercentage: percentage(usProviders, providers.size),
    usHeadquarteredServiceCount: usServices,
    usHeadquarteredServicePercentage: percentage(usServices, rows.length),
    byControllingCountry: counts(
      rows.map((row) => row.controllingCountry),
      rows.length,
    ),
    operators: operatorsOf(catalogue, rows),
    sovereignOptionCount: rows.filter((row) => row.sovereignOption).length,
    euResidentOnlyCount: rows.filter((row) => row.euResidentOnly).length,
    services: rows,
    ...(regions
      ? {
          regions: [...regions],
          notInRegions: rows.filter((row) => row.dataRegions?.length === 0).map((row) => row.slug),
        }
      : {}),
    disclaimer: regions ? `${EXPOSURE_DISCLAIMER} ${REGIONS_DISCLAIMER}` : EXPOSURE_DISCLAIMER,
  };
}
