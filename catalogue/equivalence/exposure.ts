/** GET /v1/exposure: the jurisdictional exposure scorecard of a selection of services. */
import type { ServiceRecord } from "../load/load.ts";
import { outOfScopeByLifecycle, providerHoldings } from "../compliance/compliance.ts";
import type { ExposureReportT, ProviderFileT, RegionT } from "../schema/index.ts";
import { placesCover, type Place } from "../locations/places.ts";

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
  readonly bySlug: ReadonlyMap<
    string,
    Pick<ServiceRecord, "service"> & Partial<Pick<ServiceRecord, "regions" | "placement">>
  >;
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
      /** Its regions with their operators (a full Catalogue's; read only when the scorecard is placed). */
      readonly regions?: readonly Pick<RegionT, "id" | "country" | "operator">[];
    }
  >;
}

/**
 * Each provider of the rows with its operating company and jurisdictions, most services first.
 * Placed in regions, the company is named only where every region the selection sits in (or may sit
 * in) names its operator and all name the same one; else no company, and the regions that name none.
 */
function operatorsOf(
  catalogue: ExposureCatalogue,
  rows: readonly {
    readonly providerId: string;
    readonly dataRegions?: readonly string[];
    readonly possibleRegions?: readonly string[];
  }[],
  placed: boolean,
): NonNullable<ExposureReportT["operators"]> {
  const tally = new Map<string, number>();
  const sitsIn = new Map<string, Set<string>>();
  for (const row of rows) {
    tally.set(row.providerId, (tally.get(row.providerId) ?? 0) + 1);
    const regions = sitsIn.get(row.providerId) ?? new Set<string>();
    for (const id of [...(row.dataRegions ?? []), ...(row.possibleRegions ?? [])]) regions.add(id);
    sitsIn.set(row.providerId, regions);
  }
  return [...tally]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([providerId, services]) => {
      const record = catalogue.providerById.get(providerId)!;
      const { file } = record;
      const operatorOf = new Map((record.regions ?? []).map((region) => [region.id, region.operator]));
      const regions = [...(sitsIn.get(providerId) ?? [])];
      const unnamed = placed ? regions.filter((id) => operatorOf.has(id) && !operatorOf.get(id)) : [];
      const named = new Set(regions.flatMap((id) => operatorOf.get(id) ?? []));
      const company =
        unnamed.length > 0
          ? undefined
          : placed && named.size === 1
            ? [...named][0]
            : placed && named.size > 1
              ? undefined
              : file.headOffice.company;
      return {
        providerId,
        ...(company ? { company } : {}),
        headOfficeCountry: file.headOffice.country,
        jurisdiction: file.jurisdiction,
        controllingCountry: file.controllingCountry,
        services,
        ...(unnamed.length > 0 ? { unnamedOperatorRegions: unnamed.sort() } : {}),
      };
    });
}

/** Where one service sits in the places asked, by its kind of place (docs/decisions.md#places). */
function placedRow(
  catalogue: ExposureCatalogue,
  slug: string,
  places: readonly Place[],
): Pick<ExposureReportT["services"][number], "regionCountries" | "dataRegions" | "placement" | "possibleRegions"> & {
  readonly inPlaces: boolean;
} {
  const record = catalogue.bySlug.get(slug)!;
  const providerId = record.service.providerId;
  const regions = record.regions ?? [];
  const kind = record.placement?.kind;
  const countriesOf = (list: readonly { country: string }[]) => [...new Set(list.map(({ country }) => country))].sort();
  const covered = regions.filter(({ id }) => placesCover(places, providerId, id));
  if (kind === "global") {
    // Its data sits in the region its vendor names for it, whatever was asked.
    const inPlaces = places.some((place) => place.kind === "global") || covered.length > 0;
    return {
      placement: kind,
      dataRegions: regions.map(({ id }) => id),
      regionCountries: countriesOf(regions),
      inPlaces,
    };
  }
  if (kind === "provider-level")
    return {
      placement: kind,
      possibleRegions: covered.map(({ id }) => id),
      regionCountries: countriesOf(covered),
      inPlaces: covered.length > 0,
    };
  // Regional, or a catalogue without placements (a site's compact one): its own regions.
  const offered = places.filter((place) => place.offeredBy?.includes(slug));
  const offeredRegions = offered.flatMap((place) => place.regions.filter((region) => region.providerId === providerId));
  const data = [...new Map([...covered, ...offeredRegions].map((region) => [region.id, region])).values()];
  return {
    ...(kind ? { placement: kind } : {}),
    dataRegions: data.map(({ id }) => id),
    regionCountries: [...new Set([...countriesOf(data), ...offered.flatMap((place) => place.countries)])].sort(),
    inPlaces: data.length > 0 || offered.length > 0,
  };
}

/**
 * The scorecard of a selection; with `places` (locations/places.ts), each service is placed where
 * its data sits in them: a regional service's own regions there, a global service's vendor-named
 * region, and a provider-level service only where it may be (possibleRegions, listed apart), rather
 * than every country its provider has a region in.
 */
export function exposureReport(
  catalogue: ExposureCatalogue,
  slugs: readonly string[],
  places?: readonly Place[],
): ExposureReportT {
  const rows = slugs.map((slug) => {
    const record = catalogue.bySlug.get(slug)!;
    const service = record.service;
    const provider = catalogue.providerById.get(service.providerId)!;
    const placed = places ? placedRow(catalogue, slug, places) : undefined;
    return {
      slug,
      name: service.name,
      providerId: service.providerId,
      headOfficeCountry: provider.file.headOffice.country,
      jurisdiction: provider.file.jurisdiction,
      controllingCountry: provider.file.controllingCountry,
      regionCountries: placed ? placed.regionCountries : [...provider.regionCountries],
      ...(placed?.dataRegions ? { dataRegions: placed.dataRegions } : {}),
      ...(placed?.placement ? { placement: placed.placement } : {}),
      ...(placed?.possibleRegions ? { possibleRegions: placed.possibleRegions } : {}),
      usHeadquartered: provider.file.headOffice.country === "US",
      sovereignOption: provider.sovereignOption,
      euResidentOnly: provider.euResidentOnly,
      ...(service.lifecycle ? { lifecycle: service.lifecycle } : {}),
      compliance: {
        own: outOfScopeByLifecycle(service) ? [] : [...(service.compliance ?? [])],
        // What the provider holds that no scope list the catalogue cites names this service for.
        providerOnly: providerHoldings(provider.file, service).flatMap((holding) => [...holding.programmes]),
      },
      inPlaces: placed?.inPlaces,
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
    operators: operatorsOf(catalogue, rows, places !== undefined),
    sovereignOptionCount: rows.filter((row) => row.sovereignOption).length,
    euResidentOnlyCount: rows.filter((row) => row.euResidentOnly).length,
    services: rows.map(({ inPlaces: _inPlaces, ...row }) => row),
    ...(places
      ? {
          regions: places.map((place) => place.place),
          places: places.map((place) => ({
            place: place.place,
            kind: place.kind,
            ...(place.providerId ? { providerId: place.providerId } : {}),
            countries: [...place.countries],
            regions: place.regions.length,
          })),
          notInRegions: rows.filter((row) => row.inPlaces === false).map((row) => row.slug),
          providerLevel: rows
            .filter((row) => row.inPlaces === true && row.placement === "provider-level")
            .map((row) => row.slug),
        }
      : {}),
    disclaimer: places ? `${EXPOSURE_DISCLAIMER} ${REGIONS_DISCLAIMER}` : EXPOSURE_DISCLAIMER,
  };
}
