/**
 * API resources (contract "Resources and their fields") and the pieces they share with the data
 * files. Each field's description lands in OpenAPI verbatim.
 */
import { KeyDifference } from "./capabilities.ts";
import { z } from "zod";
import { CompatibilityNotSupported, ServiceCompatibility, ServiceLineage } from "./compatibility.ts";
import { PolicyIdentifiers, ServiceDependency } from "./identifiers.ts";
import { ServicePlacement, ServiceRegion, ServicesPlaces } from "./locations.ts";
import { LIST_LIFETIME_DAYS } from "../base/limits.ts";
import { serviceApiFields } from "./service-fields.ts";
import { SearchOtherProduct } from "./search-answer.ts";
import { ComplianceScope, ServiceSource } from "./sources.ts";
import { ServiceVersions } from "./versions.ts";
import {
  COMPLIANCE_FILTER_SCOPES,
  CountryCode,
  d,
  HttpsUrl,
  IsoDate,
  LIFECYCLE_STATUSES,
  REGION_MARKETS,
  Slug,
  SOURCE_BACKS,
  SUB_SERVICE_KINDS,
} from "./vocabulary.ts";
export const HeadOffice = z
  .object({
    country: CountryCode.meta(d("Country of the operating company's head office (ISO 3166-1 alpha-2)")),
    city: z.string().min(1).meta(d("City of the head office")),
    company: z.string().min(1).meta(d("The operating legal entity")),
  })
  .strict()
  .meta({ id: "HeadOffice", description: "Where the provider's operating company is headquartered" });

export const Region = z
  .object({
    id: z.string().min(1).meta(d("The provider's own region identifier, e.g. eu-central-1")),
    name: z.string().min(1).meta(d("Display name of the region")),
    city: z.string().min(1).optional().meta(d("City or metro area the region is in")),
    country: CountryCode.meta(d("Country the region is located in (ISO 3166-1 alpha-2)")),
    market: z
      .enum(REGION_MARKETS)
      .optional()
      .meta(
        d(
          "The provider's market the region belongs to, where the provider runs its regions as separate markets: mainland-china (regions in mainland China, under Chinese law and its rules such as ICP filing), eu-sovereign (a separate EU sovereign partition with its own accounts, e.g. the AWS European Sovereign Cloud), global (the provider's other regions, Hong Kong included). Set on every region of such a provider and on none of the others' (added in 1.6.0)",
        ),
      ),
    operator: z
      .string()
      .min(1)
      .optional()
      .meta(
        d(
          "The legal entity that operates the region, as the provider publishes it; in the API, the provider's operating company (headOffice.company) unless the data names another for this region, and absent where the catalogue cannot name the entity from the provider's own pages: a region of a separate market (eu-sovereign, mainland-china), or one a provider page says another entity runs without naming it (OCI's EU Sovereign Cloud regions, Alibaba Cloud's partner-operated Riyadh region) (added in 1.11.0)",
        ),
      ),
    partition: z
      .string()
      .min(1)
      .optional()
      .meta(
        d(
          "AWS only: the partition the region is in (aws, aws-eusc…), from AWS's SDK endpoint metadata; API only, never in a data file (added in 1.11.0)",
        ),
      ),
  })
  .strict()
  .meta({ id: "Region", description: "A public region of a provider" });

export const SubService = z
  .object({
    name: z.string().min(1).meta(d("Name of the tier, edition, storage class, engine, feature or plan")),
    kind: z.enum(SUB_SERVICE_KINDS).meta(d("What sort of sub-service this is")),
    description: z.string().min(1).optional().meta(d("One sentence on what distinguishes it")),
  })
  .strict()
  .meta({
    id: "SubService",
    description: "An item of ServiceDetail.subServices: a tier, edition, storage class, engine, feature or plan",
  });

export const ServiceLifecycle = z
  .object({
    status: z.enum(LIFECYCLE_STATUSES).meta(d("One of preview, deprecated, sunset, retired")),
    sunsetDate: IsoDate.optional().meta(
      d("Retirement date (YYYY-MM-DD): the published date for sunset, the date it happened for retired"),
    ),
    gaTarget: z.string().min(1).optional().meta(d("Announced target window for general availability (preview only)")),
    successorSlug: Slug.optional().meta(d("Slug of the successor service the vendor recommends")),
    note: z.string().min(1).optional().meta(d("Vendor's rationale or migration guidance")),
    announcementUrl: HttpsUrl.optional().meta(d("URL of the vendor's announcement")),
  })
  .strict()
  .superRefine((value, ctx) => {
    if ((value.status === "sunset" || value.status === "retired") && !value.sunsetDate) {
      ctx.addIssue({ code: "custom", path: ["sunsetDate"], message: `is required when status is ${value.status}` });
    }
  })
  .meta({
    id: "ServiceLifecycle",
    description:
      "Lifecycle of a service that is not simply generally available; absent means active. sunsetDate is required for sunset and retired.",
  });

/** Per kind of fact (ServiceSource.backs), the day the newest source backing it was read. */
export const Verified = z
  .object(
    Object.fromEntries(
      SOURCE_BACKS.map((kind) => [
        kind,
        IsoDate.optional().meta(d(`The day the newest source backing ${kind} was read`)),
      ]),
    ) as Record<(typeof SOURCE_BACKS)[number], z.ZodOptional<typeof IsoDate>>,
  )
  .strict()
  .meta({
    id: "Verified",
    description:
      "What of a service its sources back, each kind of fact with the day its newest source was read (added in 1.8.0)",
  });

export const Provider = z
  .object({
    id: z.string().meta(d("Provider id")),
    name: z.string().meta(d("Display name")),
    shortName: z.string().meta(d("Short display name")),
    logo: z.string().optional().meta(d("URL path to the provider logo")),
    documentationBaseUrl: z.string().optional().meta(d("Root of the provider's documentation")),
    defaultCompliance: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Compliance programmes the provider holds platform-wide (ids of the compliance vocabulary). They are the provider's, not any one service's: since 1.7.0 they are no longer copied into Service.compliance, and a face shows them labelled as the provider's",
        ),
      ),
    complianceScope: z
      .array(ComplianceScope)
      .optional()
      .meta(
        d(
          "Where the provider publishes which services are in scope of the programmes it holds (added in 1.8.0); a programme of defaultCompliance not named here has no scope list the catalogue cites",
        ),
      ),
    headOffice: HeadOffice.optional().meta(
      d("Head office of the operating company (added in 1.5.1 of this implementation)"),
    ),
    jurisdiction: z
      .string()
      .optional()
      .meta(d("Legal regime of the head office: the ISO 3166-1 alpha-2 code, or EU for an EU/EEA member state")),
    controllingCountry: z.string().optional().meta(d("Country of the ultimate controlling parent's head office")),
    sovereignOption: z
      .boolean()
      .optional()
      .meta(
        d(
          "Sovereign option: head office and ultimate controlling parent both in the EU/EEA or Switzerland, so no non-European government can compel the operator under extraterritorial law",
        ),
      ),
    euResidentOnly: z
      .boolean()
      .optional()
      .meta(d("EU-resident-only: head office in the EU/EEA and every public region in the EU/EEA")),
    regions: z.array(Region).optional().meta(d("Public regions in general availability")),
  })
  .meta({ id: "Provider", description: "A cloud provider" });

export const Category = z
  .object({
    id: z.string().meta(d("Category id")),
    name: z.string().meta(d("Display name")),
    icon: z.string().optional().meta(d("Icon name")),
    description: z.string().optional().meta(d("What the category holds")),
  })
  .meta({ id: "Category", description: "A service category" });

export const Service = z
  .object({
    id: z.string().meta(d("Service id; equal to the slug")),
    slug: z.string().meta(d("Used in the path of the single-service endpoint and in ids parameters")),
    providerId: z.string().meta(d("Id of the provider")),
    name: z.string().meta(d("The vendor's current official name")),
    shortName: z.string().optional().meta(d("Short name, where the vendor uses one")),
    category: z.string().meta(d("Id of the category")),
    // The plain fields, one row each in the field table (service-fields.ts).
    ...serviceApiFields(),
    compliance: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Compliance programmes whose provider-published scope names this service, each backed by a source (see ServiceDetail.sources); never inherited from the provider (the provider's platform-wide programmes are Provider.defaultCompliance); empty for preview and retired services. Before 1.7.0 the provider's programmes were copied here",
        ),
      ),
    lifecycle: ServiceLifecycle.optional().meta(d("Present only for preview, deprecated, sunset or retired services")),
    lastVerified: IsoDate.optional().meta(
      d(
        "Kept for 1.6 and 1.7 clients; read verified instead. The newest ServiceSource.retrieved of any source, whatever fact it backs, so it does not say that every field was checked that day; absent when the service has no source (added in 1.6.0; since 1.7.0 derived from the sources)",
      ),
    ),
    descriptionBacked: z
      .boolean()
      .optional()
      .meta(
        d(
          "Whether the description is backed by what its sources state: true when a source that backs the description lists the claims it was read for and every claim term of the description (dates, numbers with units, versions, protocol, standard and product names, and since 1.12.0 its lower-case capability terms such as zonal shift or point-in-time restore, each word stated by one claim) is stated in a source's claims; false when not yet, so read the description as unconfirmed; absent without a description (added in 1.11.0)",
        ),
      ),
    verified: Verified.optional().meta(
      d(
        "Per kind of fact the service's sources back, the day the newest of those sources was read (e.g. {identifiers: 2026-11-26}); a kind that is missing has no source. Absent when the service has no source (added in 1.8.0)",
      ),
    ),
  })
  .meta({ id: "Service", description: "A cloud service" });

export const ServiceDetail = Service.extend({
  subServices: z.array(SubService).meta(d("Tiers, editions, storage classes, engines, features or plans")),
  providerWideCompliance: z
    .array(z.string())
    .optional()
    .meta(
      d(
        "Programmes the provider holds provider-wide that apply to this service (Provider.defaultCompliance less the service's own compliance and any programme whose complete scope list leaves the service out); shown as provider-wide, never as the service's own; absent when none, and on preview and retired services (added in 1.11.0)",
      ),
    ),
  equivalents: z.array(Service).meta(d("Equivalent services on other providers")),
  keyDifferences: z
    .array(KeyDifference)
    .optional()
    .meta(
      d(
        "Per equivalent and shared job with capabilities (capabilities.yaml), what moving this service there keeps and loses; absent when the catalogue records none of this service's capabilities (added in 1.11.0)",
      ),
    ),
  policyIdentifiers: PolicyIdentifiers.meta(d("Identifiers that name the service in its provider's policies")),
  terraformResources: z
    .array(z.string())
    .optional()
    .meta(
      d(
        "Resource types of the provider's official Terraform provider that this service owns (e.g. scaleway_instance_server), each owned by one service, so a plan's resources map to services; absent when none are recorded (added in 1.9.0)",
      ),
    ),
  sources: z
    .array(ServiceSource)
    .optional()
    .meta(
      d(
        "The vendor pages that back this service's facts, newest check first; lastVerified is the newest checked date. Absent when the catalogue lists none (added in 1.7.0)",
      ),
    ),
  dependencies: z
    .array(ServiceDependency)
    .optional()
    .meta(
      d(
        "What else the service needs to be deployed under a policy that allows it, each group with its source; absent when nothing is recorded (added in 1.7.0)",
      ),
    ),
  compatibility: z
    .array(ServiceCompatibility)
    .optional()
    .meta(
      d(
        "Wire protocols and APIs the vendor states the service is compatible with (ids of the compatibility vocabulary: s3-api, kafka, postgresql, kubernetes…), each with the vendor page that states it; absent when none is recorded (added in 1.8.0)",
      ),
    ),
  lineage: ServiceLineage.optional().meta(
    d(
      "Present when the service is another provider's product operated by a different company: origin is that product's slug, with the vendor page that says so (added in 1.8.0)",
    ),
  ),
  notCompatible: z
    .array(CompatibilityNotSupported)
    .optional()
    .meta(
      d(
        "Compatibility terms checked on the vendor's pages and not supported, each with the page checked; absent when none is recorded (added in 1.9.0)",
      ),
    ),
  regions: z
    .array(ServiceRegion)
    .optional()
    .meta(
      d(
        "Where the service runs: region ids with their country and level (service: from the vendor's per-service data; provider: the provider's regions, the vendor publishing no per-service list; global: a global service's home region), in the provider's order; absent for a retired service (added in 1.11.0; level global and a global service's home region only, since 1.12.0)",
      ),
    ),
  placement: ServicePlacement.optional().meta(
    d(
      "How the service's place is known: kind global (answered from the vendor's global endpoint), regional (its own regions) or provider-level (only the provider's regions), the data it comes from and that copy's date; absent for a retired service (added in 1.12.0)",
    ),
  ),
  // Rules of their own (data/versions/, statuses computed), so not a row of service-fields.ts.
  versions: ServiceVersions.optional().meta(
    d(
      "What a team is made to move off inside the service: runtimes, Kubernetes versions, engine major versions, tiers, each with its end dates and a status computed from them as of versions.asOf, with the vendor page behind them; absent when none are recorded (added in 1.11.0)",
    ),
  ),
}).meta({
  id: "ServiceDetail",
  description:
    "A service with sub-services, equivalents, policy identifiers, sources, dependencies, compatibility and lineage",
});

export const Pagination = z
  .object({
    page: z.number().int().meta(d("1-based page index")),
    limit: z.number().int().meta(d("Page size")),
    total: z.number().int().meta(d("Number of matching services")),
    totalPages: z.number().int().meta(d("Number of pages at this limit")),
  })
  .meta({ id: "Pagination", description: "Position within a paged result" });

/** A filter value given by a name and the id it was read as (GET /v1/services, GET /v1/lifecycle; 1.13.0). */
export const FilterRead = z
  .object({
    parameter: z.string().meta(d("The query parameter")),
    given: z.string().meta(d("The value as given (AWS, Google Cloud, identity, Switzerland)")),
    value: z.string().meta(d("The id it was read as (aws, gcp, security-identity, CH)")),
  })
  .meta({ id: "FilterRead", description: "A filter value read from a name (added in 1.13.0)" });

export const ServiceList = z
  .object({
    data: z.array(Service).meta(d("The services on this page")),
    filtersRead: z
      .array(FilterRead)
      .optional()
      .meta(
        d(
          "The filter values given by a name or in another case than their id, each with the id it was read as (provider=AWS → aws); absent when every value was an id as written (added in 1.13.0)",
        ),
      ),
    pagination: Pagination,
    search: z
      .object({
        closest: z
          .boolean()
          .meta(d("True when no service matched every word of q: data then holds the closest matches")),
        didYouMean: z
          .string()
          .optional()
          .meta(d("q respelled, when a word of it was found only by a close spelling (e.g. postgress → postgresql)")),
        subServices: z
          .record(z.string(), z.string())
          .optional()
          .meta(
            d(
              "For services on this page found through a sub-service: slug → the sub-service's name that matched (e.g. aws-s3 → S3 Glacier Deep Archive for q=glacier deep archive; since 1.8.0)",
            ),
          ),
        unmatchedWords: z
          .array(z.string())
          .optional()
          .meta(
            d(
              "When no service matched q: its words, as the search read them, that no service's text has, even by prefix or a close spelling (since 1.10.0)",
            ),
          ),
        nearestJobs: z
          .array(z.object({ id: z.string(), name: z.string() }))
          .optional()
          .meta(
            d(
              "When no service matched q: up to three jobs (equivalence groups, GET /v1/equivalents/{id}) nearest its words, from the services whose text has any of them (since 1.10.0)",
            ),
          ),
        otherProduct: SearchOtherProduct.optional().meta(
          d(
            "When q names a product the catalogue does not list (Snowflake, Vercel) or a provider alone asking for alternatives (alternative to Heroku): the product, read as the kinds of service it is (catalogue/data/other-products.yaml); data then holds those kinds' services (added in 1.11.0)",
          ),
        ),
      })
      .optional()
      .meta(d("How q was understood; present only when q was given (since 1.7.0)")),
    places: ServicesPlaces.optional().meta(
      d(
        "Only with region= or country=: the places as read; data holds the services that run there by their own regions (placement regional) or are global there, and providerLevel the services that only may (added in 1.12.0)",
      ),
    ),
    compliance: z
      .object({
        id: z
          .string()
          .meta(d("The programme asked for (compliance vocabulary id); when several were, the first of programmes")),
        name: z.string().meta(d("Its name")),
        programmes: z
          .array(z.object({ id: z.string(), name: z.string() }))
          .optional()
          .meta(d("Every programme asked for, each required of every service listed (since 1.11.0)")),
        sources: z
          .record(z.string(), z.array(ServiceSource))
          .meta(d("Per service on this page: the sources (scope lists) that name it for the programmes")),
        providerWide: z
          .record(z.string(), z.array(z.string()))
          .optional()
          .meta(
            d(
              "Per service on this page matched through its provider: the programmes asked that its provider holds provider-wide (Provider.defaultCompliance, the service being neither preview nor retired nor left out of a complete scope list) and no scope list names the service for; the service is listed for them as provider-wide, never as its own compliance. Absent from a service matched only by its own scope lists (since 1.11.0); since 1.12.0 only with complianceScope=provider or all",
            ),
          ),
        scope: z
          .enum(COMPLIANCE_FILTER_SCOPES)
          .optional()
          .meta(d("Whose holding the answer lists: complianceScope as asked, own when not given (added in 1.12.0)")),
        counts: z
          .object({
            own: z
              .number()
              .int()
              .meta(d("Services (over every other filter) that a scope list names for every programme asked")),
            provider: z
              .number()
              .int()
              .meta(
                d(
                  "Services (over every other filter) holding one or more of them only through their provider's provider-wide holding: listed with complianceScope=provider or all",
                ),
              ),
          })
          .optional()
          .meta(
            d(
              "Both holdings counted apart, whichever complianceScope keeps: pagination.total counts only those it keeps (added in 1.12.0)",
            ),
          ),
      })
      .optional()
      .meta(d("Present only when compliance was given: what backs each answer (since 1.10.0)")),
  })
  .meta({ id: "ServiceList", description: "A page of services" });

export const EquivalentService = Service.pick({ slug: true, name: true, shortName: true, lifecycle: true })
  .extend({
    compatibility: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Ids of the compatibility vocabulary the vendor states the service speaks (see ServiceDetail.compatibility for the sources); absent when none (added in 1.8.0)",
        ),
      ),
    lineageOrigin: z
      .string()
      .optional()
      .meta(
        d(
          "Slug of the other provider's product this service is, when another company operates it (see ServiceDetail.lineage); absent otherwise (added in 1.8.0)",
        ),
      ),
  })
  .meta({
    id: "EquivalentService",
    description: "A member of an equivalence group, as the matrix shows it",
  });

export const EquivalenceGroupRow = z
  .object({
    id: z.string().meta(d("Group id (kebab-case, stable)")),
    name: z.string().meta(d("What kind of service the group is, e.g. Object storage")),
    category: z.string().meta(d("Id of the category most of its members are in")),
    members: z
      .array(
        z.object({
          providerId: z.string().meta(d("Id of the provider")),
          services: z.array(EquivalentService).meta(d("The provider's services in this group, flagship first")),
        }),
      )
      .meta(d("One entry per provider with a member, largest portfolio first")),
  })
  .meta({ id: "EquivalenceGroupRow", description: "One kind of service and its members by provider (since 1.7.0)" });

export const EquivalenceMatrix = z
  .object({
    providers: z
      .array(z.object({ id: z.string(), shortName: z.string(), services: z.number().int() }))
      .meta(d("Every provider, largest portfolio (service count) first: the matrix's possible columns")),
    data: z.array(EquivalenceGroupRow).meta(d("Every equivalence group, in the data's order")),
  })
  .meta({ id: "EquivalenceMatrix", description: "Equivalent services across providers (since 1.7.0)" });

export const EquivalenceGroupDetail = EquivalenceGroupRow.extend({
  members: z
    .array(
      z.object({
        providerId: z.string().meta(d("Id of the provider")),
        services: z.array(Service).meta(d("The provider's services in this group, flagship first")),
      }),
    )
    .meta(d("One entry per provider with a member, largest portfolio first")),
}).meta({ id: "EquivalenceGroupDetail", description: "One equivalence group with its members in full (since 1.7.0)" });

export const ApiError = z
  .object({
    error: z.string().meta(d("Short, human-readable reason")),
    status: z.number().int().meta(d("The HTTP status code, repeated")),
    details: z.string().optional().meta(d("What to change to make the request succeed")),
  })
  .meta({ id: "Error", description: "Every 4xx and 5xx body" });

export const SavedList = z
  .object({
    id: z.string().meta(d("Generated id (nanoid, 126 bits of randomness)")),
    url: z.string().meta(d("Shareable URL on the text host; uses the slug when there is one")),
    slug: z.string().nullable().meta(d("Human-readable slug, or null")),
    name: z.string().nullable().meta(d("Display name, or null")),
    approvedServiceIds: z.array(z.string()).meta(d("The approved service ids, in the order given")),
    jobsUsed: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta(
        d(
          "Per listed service id, the jobs the team uses it for, as saved (SavedListCreate.jobsUsed); absent when none were given (added in 1.11.0)",
        ),
      ),
    dataGb: z
      .record(z.string(), z.number())
      .optional()
      .meta(
        d(
          "Per listed service id, the data to move out of it in GB, as saved (SavedListCreate.dataGb); absent when none were given (added in 1.12.0)",
        ),
      ),
    createdAt: z.iso.datetime().meta(d("When the list was created")),
    expiresAt: z.iso
      .datetime()
      .meta(
        d(
          `${LIST_LIFETIME_DAYS} days after createdAt, or after the read that last renewed the list: a read moves it to the read + ${LIST_LIFETIME_DAYS} days, at most once a day (since 1.11.0), so it is at most a day short of ${LIST_LIFETIME_DAYS} days after the last read; the list answers 404 afterwards`,
        ),
      ),
  })
  .meta({ id: "SavedList", description: "A saved approved-services list" });

export const SavedListDetail = SavedList.extend({
  services: z
    .array(Service)
    .meta(
      d(
        "The listed services as they are in the catalogue now, with lifecycle; ids no longer in the catalogue are left out",
      ),
    ),
  missingServiceIds: z.array(z.string()).meta(d("Stored ids the catalogue no longer holds")),
}).meta({ id: "SavedListDetail", description: "GET /v1/lists/{id}: the saved list with its services resolved" });

/** A path inside the build: no empty, "." or ".." segments, a conservative character set. */
export const BUILD_PATH_PATTERN = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._@+\-/]+$/;

export const BuildManifest = z
  .object({
    version: z.literal(1).meta(d("Manifest format version")),
    lastUpdated: z.iso.datetime().meta(d("When the catalogue data last changed")),
    files: z
      .array(
        z
          .object({
            path: z.string().regex(BUILD_PATH_PATTERN).meta(d("Path inside the build; fetch it at /mirror/{path}")),
            sha256: z
              .string()
              .regex(/^[0-9a-f]{64}$/)
              .meta(d("SHA-256 of the file, hex")),
            size: z.number().int().min(0).meta(d("Size in bytes")),
          })
          .meta({ id: "BuildFile", description: "One file of the build" }),
      )
      .meta(d("Every file of the build but the manifest itself, sorted by path")),
  })
  .meta({ id: "BuildManifest", description: "GET /manifest.json: what a mirror fetches and checks" });

export type ProviderT = z.infer<typeof Provider>;
export type RegionT = z.infer<typeof Region>;
export type CategoryT = z.infer<typeof Category>;
export type ServiceT = z.infer<typeof Service>;
export type ServiceDetailT = z.infer<typeof ServiceDetail>;
export type ServiceLifecycleT = z.infer<typeof ServiceLifecycle>;
export type SubServiceT = z.infer<typeof SubService>;
export type VerifiedT = z.infer<typeof Verified>;
export type ServiceListT = z.infer<typeof ServiceList>;
export type EquivalenceMatrixT = z.infer<typeof EquivalenceMatrix>;
export type EquivalenceGroupRowT = z.infer<typeof EquivalenceGroupRow>;
export type EquivalenceGroupDetailT = z.infer<typeof EquivalenceGroupDetail>;
export type ApiErrorT = z.infer<typeof ApiError>;
export type SavedListT = z.infer<typeof SavedList>;
export type SavedListDetailT = z.infer<typeof SavedListDetail>;
export type BuildManifestT = z.infer<typeof BuildManifest>;
