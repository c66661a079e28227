/**
 * What the register reports of each provider of a list (B_05.01): the legal entity EU customers
 * contract with where data/register.yaml names it, else the provider's operating company
 * (Provider.headOffice), with the facts' sources; and the type of ICT services of each service,
 * from the category table of data/register.yaml.
 */
import type { Catalogue } from "../load/load.ts";
import type { RegisterFactSourceT, RegisterT } from "../schema/register.ts";

export type ProviderFacts = RegisterT["providers"][number];

/** Where a provider's head office is recorded: the catalogue's own data file. */
export const providerFileSource = (providerId: string) => `catalogue/data/providers/${providerId}.yaml (headOffice)`;

/** The provider's entity and parent, with the sources behind them; `lei` is the request's where it gives one. */
export function providerFacts(catalogue: Catalogue, providerId: string, lei: string | undefined): ProviderFacts {
  const record = catalogue.providerById.get(providerId)!;
  const stated = catalogue.source.register?.entities.find((entry) => entry.provider === providerId);
  const parent = stated?.parent;
  const parentFacts = parent
    ? {
        parent: {
          name: parent.name,
          ...(parent.country ? { country: parent.country } : {}),
          ...(parent.lei ? { lei: parent.lei } : {}),
        },
      }
    : {};
  const sources: RegisterFactSourceT[] = [...(stated?.contractingEntity.sources ?? []), ...(parent?.sources ?? [])];
  const knownLei = lei ?? stated?.contractingEntity.lei;
  if (stated) {
    const entity = stated.contractingEntity;
    return {
      providerId,
      providerName: record.provider.name,
      entity: entity.name,
      basis: "contracting-entity",
      ...(entity.for ? { for: entity.for } : {}),
      ...(entity.country ? { country: entity.country } : {}),
      ...(knownLei ? { lei: knownLei } : {}),
      ...parentFacts,
      sources,
    };
  }
  const office = record.file.headOffice;
  return {
    providerId,
    providerName: record.provider.name,
    entity: office?.company ?? record.provider.name,
    basis: "head-office",
    ...(office ? { country: office.country } : {}),
    ...(knownLei ? { lei: knownLei } : {}),
    sources,
  };
}

/** Per category id, its ITS type of ICT services (S17…) and why; empty without data/register.yaml. */
export function serviceTypesOf(catalogue: Catalogue): ReadonlyMap<string, { type: string; reason: string }> {
  return new Map(
    (catalogue.source.register?.serviceTypes ?? []).map(({ category, type, reason }) => [category, { type, reason }]),
  );
}
