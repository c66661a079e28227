/**
 * The part of a Catalogue the approved-list functions read (the three policy generators and the
 * Markdown export), and a compact, JSON-serialisable form of it that the build writes for the
 * site (/list-catalogue.json), so the list builder computes its downloads in the browser with the
 * same functions the API runs, and spends no API call on them.
 *
 * Compact form: per service only what those functions, the picker and the site's tables show; a
 * documentation URL is stored relative to its provider's documentation base when it starts with it;
 * policy identifiers and dependencies only for the three providers that have policy generators; a
 * dependency under one of the service's own identifiers (an Azure child type) is written relative to
 * it, e.g. "0/slots" for Microsoft.Web/sites/slots when Microsoft.Web/sites is the first.
 */
import type { Catalogue, ServiceRecord } from "../load/load.ts";
import { ownIdentifiers } from "../dependencies/dependencies.ts";
import type {
  DependencySourceT,
  PolicyIdentifiersT,
  ProviderT,
  ServiceDependencyT,
  ServiceLifecycleT,
  ServiceT,
} from "../schema/index.ts";

/** What policies/documents.ts and approvedListDoc need; a full Catalogue is one. */
export interface ListCatalogue {
  /** regions: what allowedLocations resolves to; the compact form leaves them out (the site sends none). */
  readonly providers: readonly (Pick<ProviderT, "id" | "name" | "shortName"> & Partial<Pick<ProviderT, "regions">>)[];
  readonly services: readonly ServiceT[];
  /** regions and placement: where each service runs, for the policies' location notes (the compact form leaves them out). */
  readonly bySlug: ReadonlyMap<
    string,
    Pick<ServiceRecord, "service" | "policyIdentifiers" | "dependencies"> &
      Partial<Pick<ServiceRecord, "regions" | "placement">>
  >;
  /** The vendors' multi-regions, which allowedLocations may name (locations/places.ts; absent from the compact form). */
  readonly multiRegions?: Catalogue["multiRegions"];
}

/** Providers whose policy documents the API generates (catalogue/policies/documents.ts). */
export const POLICY_PROVIDERS = ["aws", "azure", "gcp"] as const;

/**
 * One service: [slug without its provider prefix, name, category (index into `categories`),
 * lifecycle (status, date and successor: what the list functions read) or 0, documentation path
 * or URL or 0, policy identifiers?].
 */
export type CompactService = [
  slug: string,
  name: string,
  category: number,
  lifecycle: Pick<ServiceLifecycleT, "status" | "sunsetDate" | "successorSlug"> | 0,
  documentation: string | 0,
  identifiers?: CompactIdentifiers,
  dependencies?: readonly CompactDependency[],
];

/**
 * A dependency group: [index into dependencySources, identifiers (children relative to an own one),
 * resource type?]; or, for one from the vendor's resource schemas (see schemaDependencies), [the
 * resource type ("AWS::" left out), indices into schemaDependencies.actions, schema path when not
 * the us_east_1 file named after the type].
 */
export type CompactDependency =
  | readonly [source: number, identifiers: readonly string[], resourceType?: string]
  | readonly [resourceType: string, actions: readonly number[], schema?: string];

/** What the groups from the vendor's resource schemas share: the schema files' URL, backs, day read. */
export interface CompactSchemaDependencies {
  /** The schema files' URL up to their path, e.g. …/cfn-lint/blob/<commit>/src/cfnlint/data/schemas/providers/. */
  readonly url: string;
  /** The source's backs with "{type}" where the resource type goes. */
  readonly backs: string;
  readonly checked: string;
  /** Every action the groups name, each once. */
  readonly actions: readonly string[];
}

const TYPE_MARK = "{type}";
const SCHEMA_DIR = "/providers/";
/** The schema file cfn-lint names after a type in us-east-1: AWS::S3::Bucket → us_east_1/aws-s3-bucket.json. */
const defaultSchema = (type: string) => `us_east_1/${type.toLowerCase().replaceAll("::", "-")}.json`;
const shortType = (type: string) => (type.startsWith("AWS::") ? type.slice(5) : type);
const longType = (type: string) => (type.split("::").length === 2 ? `AWS::${type}` : type);

/**
 * Policy identifiers; a Google API is its name without ".googleapis.com", with a trailing "?"
 * when gcp.restrictServiceUsage does not confirm it.
 */
export interface CompactIdentifiers extends Omit<PolicyIdentifiersT, "apiServices" | "other"> {
  readonly apiServices?: readonly string[];
}
const GOOGLE_API_SUFFIX = ".googleapis.com";

export interface CompactListCatalogue {
  /** Category ids, in catalogue order. */
  readonly categories: readonly string[];
  /** The sources the services' dependencies cite, each once. */
  readonly dependencySources?: readonly DependencySourceT[];
  /** What the dependency groups from the vendor's resource schemas share (added with them). */
  readonly schemaDependencies?: CompactSchemaDependencies;
  /** Providers in catalogue order: id, name, short name, documentation base, services. */
  readonly providers: readonly {
    readonly id: string;
    readonly name: string;
    readonly shortName: string;
    readonly docs: string;
    readonly jurisdiction: string;
    readonly services: readonly CompactService[];
  }[];
}

/**
 * Encodes the dependency groups that come from the vendor's resource schemas: the first such group
 * fixes the shared source (schema folder URL, backs with the type left out, day read); a group with
 * another source is left to the plain encoding.
 */
function schemaEncoder() {
  let schema: { url: string; backs: string; checked: string; actions: Map<string, number> } | undefined;
  const encode = ({ identifiers, source, resourceType }: ServiceDependencyT): CompactDependency | undefined => {
    const at = source.url.lastIndexOf(SCHEMA_DIR);
    if (!resourceType || at < 0 || !source.backs.includes(resourceType)) return undefined;
    const url = source.url.slice(0, at + SCHEMA_DIR.length);
    const backs = source.backs.replace(resourceType, TYPE_MARK);
    schema ??= { url, backs, checked: source.checked, actions: new Map() };
    if (schema.url !== url || schema.backs !== backs || schema.checked !== source.checked) return undefined;
    const actions = schema.actions;
    const path = source.url.slice(url.length);
    const indices = identifiers.map((action) =>
      (actions.has(action) ? actions : actions.set(action, actions.size)).get(action)!,
    );
    return path === defaultSchema(resourceType)
      ? [shortType(resourceType), indices]
      : [shortType(resourceType), indices, path];
  };
  const shared = (): CompactSchemaDependencies | undefined =>
    schema && { url: schema.url, backs: schema.backs, checked: schema.checked, actions: [...schema.actions.keys()] };
  return { encode, shared };
}

/** The compact form the build writes. */
export function compactListCatalogue(catalogue: Catalogue): CompactListCatalogue {
  const categories = catalogue.categories.map((category) => category.id);
  const sources = new Map<string, { index: number; source: DependencySourceT }>();
  const sourceIndex = (source: DependencySourceT) => {
    const key = JSON.stringify(source);
    if (!sources.has(key)) sources.set(key, { index: sources.size, source });
    return sources.get(key)!.index;
  };
  const schemas = schemaEncoder();
  const sourceGroup = (own: readonly string[], group: ServiceDependencyT): CompactDependency => {
    const identifiers = group.identifiers.map((identifier) => {
      const parent = own.findIndex((id) => identifier.startsWith(`${id}/`));
      return parent >= 0 && parent < 10 ? `${parent}${identifier.slice(own[parent]!.length)}` : identifier;
    });
    const index = sourceIndex(group.source);
    return group.resourceType ? [index, identifiers, group.resourceType] : [index, identifiers];
  };
  const compactDependencies = (providerId: string, record: ServiceRecord): CompactDependency[] => {
    const own = ownIdentifiers(providerId, record.policyIdentifiers);
    return record.dependencies.map((group) => schemas.encode(group) ?? sourceGroup(own, group));
  };
  const providers = catalogue.providers.map((provider) => {
    const file = catalogue.providerById.get(provider.id)!.file;
    const docs = file.documentationBaseUrl;
    const withIdentifiers = (POLICY_PROVIDERS as readonly string[]).includes(provider.id);
    return {
      id: provider.id,
      name: provider.name,
      shortName: provider.shortName,
      docs,
      jurisdiction: file.jurisdiction,
      services: catalogue.services
        .filter((service) => service.providerId === provider.id)
        .map((service): CompactService => {
          const url = service.documentationUrl;
          const lifecycle = service.lifecycle;
          const row: CompactService = [
            service.slug.slice(provider.id.length + 1),
            service.name,
            categories.indexOf(service.category),
            lifecycle
              ? {
                  status: lifecycle.status,
                  ...(lifecycle.sunsetDate ? { sunsetDate: lifecycle.sunsetDate } : {}),
                  ...(lifecycle.successorSlug ? { successorSlug: lifecycle.successorSlug } : {}),
                }
              : 0,
            url ? (url.startsWith(docs) && url.length > docs.length ? url.slice(docs.length) : url) : 0,
          ];
          if (withIdentifiers) {
            const record = catalogue.bySlug.get(service.slug)!;
            const { iamPrefixes, resourceTypes, apiServices, noneReason } = record.policyIdentifiers;
            row.push({
              ...(iamPrefixes ? { iamPrefixes } : {}),
              ...(resourceTypes ? { resourceTypes } : {}),
              ...(apiServices
                ? {
                    apiServices: apiServices.map(
                      (api) => api.name.slice(0, -GOOGLE_API_SUFFIX.length) + (api.restrictServiceUsage ? "" : "?"),
                    ),
                  }
                : {}),
              ...(noneReason ? { noneReason } : {}),
            });
            if (record.dependencies.length > 0) row.push(compactDependencies(provider.id, record));
          }
          return row;
        }),
    };
  });
  return {
    categories,
    ...(sources.size > 0 ? { dependencySources: [...sources.values()].map(({ source }) => source) } : {}),
    ...(schemas.shared() ? { schemaDependencies: schemas.shared() } : {}),
    providers,
  };
}

/** A service as the site shows it in lists: name, provider and lifecycle. */
export interface ListedService {
  readonly service: ServiceT;
  readonly providerShortName: string;
  readonly jurisdiction: string;
}

/** The ListCatalogue back from its compact form (in the browser), plus what the site shows per service. */
export function expandListCatalogue(compact: CompactListCatalogue): ListCatalogue & {
  readonly listed: ReadonlyMap<string, ListedService>;
} {
  const services: ServiceT[] = [];
  const bySlug = new Map<string, Pick<ServiceRecord, "service" | "policyIdentifiers" | "dependencies">>();
  const listed = new Map<string, ListedService>();
  for (const provider of compact.providers) {
    for (const [own, name, category, lifecycle, documentation, identifiers, compactDeps] of provider.services) {
      const slug = `${provider.id}-${own}`;
      const service: ServiceT = {
        id: slug,
        slug,
        providerId: provider.id,
        name,
        category: compact.categories[category]!,
        ...(lifecycle ? { lifecycle } : {}),
        ...(documentation
          ? { documentationUrl: /^https?:\/\//.test(documentation) ? documentation : provider.docs + documentation }
          : {}),
      };
      services.push(service);
      const { apiServices, ...rest } = identifiers ?? {};
      const policyIdentifiers: PolicyIdentifiersT = {
        ...rest,
        ...(apiServices
          ? {
              apiServices: apiServices.map((api) => ({
                name: api.replace(/\?$/, "") + GOOGLE_API_SUFFIX,
                restrictServiceUsage: !api.endsWith("?"),
              })),
            }
          : {}),
      };
      const ownIds = ownIdentifiers(provider.id, policyIdentifiers);
      const dependencies: ServiceDependencyT[] = (compactDeps ?? []).map((group) => {
        if (typeof group[0] === "string") {
          const [short, actions, path] = group as readonly [string, readonly number[], string?];
          const shared = compact.schemaDependencies!;
          const resourceType = longType(short);
          return {
            identifiers: actions.map((index) => shared.actions[index]!),
            resourceType,
            source: {
              url: shared.url + (path ?? defaultSchema(resourceType)),
              backs: shared.backs.replace(TYPE_MARK, resourceType),
              checked: shared.checked,
            },
          };
        }
        const [source, ids, resourceType] = group as readonly [number, readonly string[], string?];
        return {
          identifiers: ids.map((id) => (/^[0-9]/.test(id) ? ownIds[Number(id[0])]! + id.slice(1) : id)),
          source: compact.dependencySources![source]!,
          ...(resourceType ? { resourceType } : {}),
        };
      });
      bySlug.set(slug, { service, policyIdentifiers, dependencies });
      listed.set(slug, { service, providerShortName: provider.shortName, jurisdiction: provider.jurisdiction });
    }
  }
  return {
    providers: compact.providers.map(({ id, name, shortName }) => ({ id, name, shortName })),
    services,
    bySlug,
    listed,
  };
}
