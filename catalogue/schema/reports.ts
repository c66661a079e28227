/**
 * What the API computes across the catalogue rather than stores (contract "Resources and their
 * fields"): the contract's changelog, comparison, exposure, the lifecycle watch and the changes of
 * each catalogue release. Each field's description lands in OpenAPI verbatim.
 */
import { z } from "zod";
import { KeyDifference } from "./capabilities.ts";
import { AskedPlace, PLACEMENT_KINDS } from "./locations.ts";
import { ServiceDetail, ServiceLifecycle } from "./resources.ts";
import { d, IsoDate, LIFECYCLE_KINDS, LIFECYCLE_STATUSES } from "./vocabulary.ts";
import { VERSION_DATES, VERSION_PHASES, VERSION_STATUSES } from "./versions.ts";
export const ChangelogEntry = z
  .object({
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .meta(d("Contract version (semantic versioning: minor for compatible additions)")),
    date: z.iso
      .date()
      .nullable()
      .meta(d("Release date (YYYY-MM-DD); null where the contract's published history records none")),
    changes: z.array(z.string()).min(1).meta(d("What changed, one sentence each")),
  })
  .meta({ id: "ChangelogEntry", description: "One version of the API contract" });

export const Changelog = z
  .object({
    current: z.string().meta(d("The contract version this API implements")),
    versions: z.array(ChangelogEntry).meta(d("Every version, newest first")),
  })
  .meta({ id: "Changelog", description: "GET /v1/changelog: the contract's history" });

// Shapes the contract leaves open

export const CompareAttribute = z
  .object({
    attribute: z.string().meta(d("Attribute name, e.g. category, pricingModel, headOfficeCountry")),
    label: z.string().meta(d("Human-readable attribute name")),
    values: z
      .record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string()), z.null()]))
      .meta(d("Value per service slug (null when unknown)")),
    shared: z.boolean().meta(d("True when every service has the same value")),
  })
  .meta({ id: "CompareAttribute", description: "One row of the compare table" });

export const CompareResult = z
  .object({
    services: z
      .array(ServiceDetail.omit({ equivalents: true }))
      .meta(d("The compared services, in request order, with lifecycle")),
    attributes: z.array(CompareAttribute).meta(d("Compare-friendly attributes, one row each")),
    compliance: z
      .object({
        common: z.array(z.string()).meta(d("Programmes every compared service holds")),
        bySlug: z
          .record(z.string(), z.array(z.string()))
          .meta(d("Per service, the programmes not held by all the others")),
      })
      .meta(d("Compliance in common and apart")),
    equivalent: z.boolean().meta(d("True when all compared services belong to one equivalence group")),
    keyDifferences: z
      .array(KeyDifference)
      .optional()
      .meta(
        d(
          "For each ordered pair of compared services sharing a job with capabilities (capabilities.yaml), what moving from the first to the second keeps and loses; the same function as the exit plan's lost (added in 1.11.0)",
        ),
      ),
  })
  .meta({ id: "CompareResult", description: "GET /v1/compare" });

const Count = z
  .object({
    key: z.string().meta(d("Jurisdiction or country code")),
    count: z.number().int().meta(d("Number of selected services")),
    percentage: z.number().meta(d("Share of selected services, 0-100, one decimal")),
  })
  .meta({ id: "ExposureCount", description: "A bucket of the exposure breakdown" });

export const ExposureRow = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name")),
    providerId: z.string().meta(d("Provider id")),
    headOfficeCountry: z.string().meta(d("Provider head-office country")),
    jurisdiction: z.string().meta(d("Provider head-office jurisdiction (ISO code, or EU)")),
    controllingCountry: z.string().meta(d("Country of the ultimate controlling parent")),
    regionCountries: z
      .array(z.string())
      .meta(
        d(
          "Countries the provider's public regions are in; with the request's regions, the countries of those regions the service runs in (where its data sits)",
        ),
      ),
    dataRegions: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Only with the request's regions: the regions of them the service runs in by its own regions (ServiceDetail.regions, level service); for a global service, the region its vendor names for it, wherever the places asked are; empty when it runs in none; absent for a provider-level service, whose own regions are not known (added in 1.11.0; global and provider level since 1.12.0)",
        ),
      ),
    placement: z
      .enum(PLACEMENT_KINDS)
      .optional()
      .meta(
        d(
          "Only with the request's regions: the service's kind of place (ServiceDetail.placement.kind): global, regional or provider-level (added in 1.12.0)",
        ),
      ),
    possibleRegions: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Only with the request's regions, for a provider-level service: its provider's regions among them, where it may run (its own list is not known); regionCountries are then their countries (added in 1.12.0)",
        ),
      ),
    usHeadquartered: z.boolean().meta(d("True when the head office is in the United States")),
    sovereignOption: z.boolean().meta(d("Provider is a sovereign option (see Provider.sovereignOption)")),
    euResidentOnly: z.boolean().meta(d("Provider is EU-resident-only (see Provider.euResidentOnly)")),
    lifecycle: ServiceLifecycle.optional().meta(d("Lifecycle, when not generally available")),
    compliance: z
      .object({
        own: z
          .array(z.string())
          .meta(d("Programmes a provider-published scope list names this service for (Service.compliance)")),
        providerOnly: z
          .array(z.string())
          .meta(
            d(
              "Programmes the provider holds platform-wide that no scope list the catalogue cites names this service for: claimed at provider level only, not shown to cover the service",
            ),
          ),
      })
      .meta(d("The service's compliance, its own apart from the provider's (since 1.10.0)")),
  })
  .meta({ id: "ExposureRow", description: "One selected service in the exposure report" });

export const ExposureReport = z
  .object({
    totalServices: z.number().int().meta(d("Number of distinct selected services")),
    totalProviders: z.number().int().meta(d("Number of distinct providers among them")),
    byJurisdiction: z.array(Count).meta(d("Selected services by provider head-office jurisdiction, largest first")),
    byRegionCountry: z
      .array(Count)
      .meta(d("Selected services by the countries their provider has regions in (a service counts once per country)")),
    usHeadquarteredProviderPercentage: z
      .number()
      .meta(d("Percentage (0-100, one decimal) of distinct providers whose head office is in the United States")),
    usHeadquarteredServiceCount: z
      .number()
      .int()
      .optional()
      .meta(d("Number of selected services whose provider's head office is in the United States (added in 1.10.0)")),
    usHeadquarteredServicePercentage: z
      .number()
      .optional()
      .meta(
        d(
          "The headline figure: percentage (0-100, one decimal) of selected services whose provider's head office is in the United States; usHeadquarteredProviderPercentage is the second figure, by distinct provider (added in 1.10.0)",
        ),
      ),
    byControllingCountry: z
      .array(Count)
      .optional()
      .meta(
        d(
          "Selected services by the country of their provider's ultimate controlling parent, largest first (Alibaba Cloud: run from Singapore, controlled from China) (added in 1.10.0)",
        ),
      ),
    operators: z
      .array(
        z.object({
          providerId: z.string().meta(d("Provider id")),
          company: z.string().optional().meta(d("The operating company as the provider publishes it")),
          headOfficeCountry: z.string().meta(d("Its head-office country")),
          jurisdiction: z.string().meta(d("Its head-office jurisdiction (ISO code, or EU)")),
          controllingCountry: z.string().meta(d("Country of its ultimate controlling parent")),
          services: z.number().int().meta(d("How many of the selected services it runs")),
          unnamedOperatorRegions: z
            .array(z.string())
            .optional()
            .meta(
              d(
                "Only with the request's regions: the regions where the selection's data sits (or may sit) whose operating entity the catalogue cannot name (Region.operator absent: the AWS European Sovereign Cloud, OCI's EU Sovereign Cloud); company is then absent, rather than the head office's (added in 1.12.0)",
              ),
            ),
        }),
      )
      .optional()
      .meta(
        d(
          "Each provider of the selection with its operating company and jurisdictions, most services first (added in 1.10.0)",
        ),
      ),
    sovereignOptionCount: z.number().int().meta(d("Number of selected services that are sovereign options")),
    euResidentOnlyCount: z.number().int().meta(d("Number of selected services that are EU-resident-only options")),
    services: z.array(ExposureRow).meta(d("Per-service rows, in request order")),
    regions: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "The places asked (GET /v1/exposure?regions=), as read: region ids lower case, countries and groups upper case, multi-regions as their vendor writes them, global; when the scorecard is placed in them (added in 1.11.0; every kind of place since 1.12.0)",
        ),
      ),
    places: z
      .array(AskedPlace)
      .optional()
      .meta(d("With regions: each place asked, its kind and what it covers (added in 1.12.0)")),
    notInRegions: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "With regions: slugs of the selected services that are in none of them: a regional service running in none, a global service whose vendor's region is not among them, a provider-level service whose provider has no region there (added in 1.11.0)",
        ),
      ),
    providerLevel: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "With regions: slugs of the selected services whose own regions are not known while their provider has a region among the places: they may or may not run there, so they are neither counted as there nor in notInRegions (added in 1.12.0)",
        ),
      ),
    disclaimer: z.string().meta(d("States that the report is procurement triage, not legal advice")),
  })
  .meta({ id: "ExposureReport", description: "GET /v1/exposure: the jurisdictional exposure scorecard" });

// Lifecycle watch and release changes (added in 1.6.0)

/** Which version a version entry of the lifecycle list is about, and which of its ends. */
export const LifecycleVersion = z
  .object({
    family: z.string().meta(d("Family id within the service (ServiceDetail.versions)")),
    familyName: z.string().meta(d("Family display name")),
    id: z.string().meta(d("The vendor's own string for the version or tier")),
    name: z.string().optional().meta(d("The vendor's display name, where it differs from id")),
    end: z
      .enum(VERSION_DATES)
      .meta(
        d(
          "Which of the version's dates sunsetDate is: standardEnd or extendedEnd (last days of support), blockCreate or blockUpdate (first days refused; since 1.12.0)",
        ),
      ),
    endName: z.string().meta(d("What the vendor calls that date (the family's terms), e.g. Deprecation")),
    phase: z
      .enum(VERSION_PHASES)
      .meta(
        d(
          "The phase the date leads into: deprecated or extended after standardEnd, block-create, block-update, ended after extendedEnd (added in 1.12.0)",
        ),
      ),
    paid: z
      .boolean()
      .optional()
      .meta(
        d(
          "True when the vendor charges for that phase (added in 1.12.0); what the phase means and costs is in the service's versions (VersionFamily.phases) and in the feeds' summaries",
        ),
      ),
    status: z
      .enum(VERSION_STATUSES)
      .meta(d("The version's status as of the list's asOf, computed from its dates: supported, extended, ended")),
  })
  .meta({ id: "LifecycleVersion", description: "The version or tier a version entry is about (added in 1.11.0)" });

export const LifecycleEntry = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name")),
    providerId: z.string().meta(d("Provider id")),
    providerName: z.string().meta(d("Provider display name")),
    status: z.enum(LIFECYCLE_STATUSES).meta(d("One of preview, deprecated, sunset, retired")),
    sunsetDate: IsoDate.optional().meta(
      d("Retirement date (YYYY-MM-DD): the published date for sunset, the date it happened for retired"),
    ),
    gaTarget: z.string().optional().meta(d("Announced target window for general availability (preview only)")),
    successorSlug: z.string().optional().meta(d("Slug of the successor service the vendor recommends")),
    successorName: z.string().optional().meta(d("Name of that successor service")),
    note: z.string().optional().meta(d("Vendor's rationale or migration guidance")),
    announcementUrl: z.string().optional().meta(d("URL of the vendor's announcement")),
    lastVerified: IsoDate.optional().meta(
      d("The day the catalogue last checked this service (see Service.lastVerified)"),
    ),
    lifecycleVerified: IsoDate.optional().meta(
      d(
        "What the entry's dates are verified as of: the date of the copy of the vendor's page that was read (sourceAsOf) when the source gives one, else the day it was read (sourceRetrieved); never the day an older copy was read (since 1.12.0; before, always the day read). Absent when no source is listed (added in 1.8.0)",
      ),
    ),
    sourceAsOf: IsoDate.optional().meta(
      d(
        "The date of the copy of the vendor's page behind the entry (its last update, or the commit of the repository file read), where known (added in 1.12.0)",
      ),
    ),
    sourceRetrieved: IsoDate.optional().meta(d("The day the catalogue read that source (added in 1.12.0)")),
    url: z.string().meta(d("The service's page on the text host")),
    kind: z
      .enum(LIFECYCLE_KINDS)
      .meta(
        d(
          "What the entry is the lifecycle of: service (the service's own status), or version (one end date of one of its versions or tiers, see version; added in 1.11.0)",
        ),
      ),
    version: LifecycleVersion.optional().meta(d("Present on a version entry: which version, which of its ends")),
  })
  .meta({
    id: "LifecycleEntry",
    description:
      "One service's lifecycle announcement, or one end date of a version or tier of it (status sunset while the date is to come, retired once it has passed; sunsetDate the date)",
  });

export const LifecycleList = z
  .object({
    asOf: IsoDate.meta(
      d(
        "The day (UTC) the order and the within filter are reckoned from: the request's day for a filtered request, the catalogue's last update for the unfiltered list (so the static file and a computed answer agree)",
      ),
    ),
    data: z
      .array(LifecycleEntry)
      .meta(
        d(
          "Matching entries by next relevant date: dated entries on or after asOf (soonest first), then undated ones (deprecated, then preview, by name), then past dates (most recent first)",
        ),
      ),
  })
  .meta({ id: "LifecycleList", description: "GET /v1/lifecycle: lifecycle entries by next relevant date" });

const LifecycleState = z
  .object({
    status: z.enum(LIFECYCLE_STATUSES).meta(d("Lifecycle status")),
    sunsetDate: IsoDate.optional().meta(d("Its date, when it has one")),
  })
  .meta({ id: "LifecycleState", description: "A lifecycle status with its date" });

const ChangedService = z
  .object({
    slug: z.string().meta(d("Service slug")),
    name: z.string().meta(d("Service name (for a removed service, its last name)")),
    providerId: z.string().meta(d("Provider id")),
  })
  .meta({ id: "ChangedService", description: "A service added to or removed from the catalogue" });

export const CatalogueRelease = z
  .object({
    release: IsoDate.meta(
      d("Day of the release; for changes not yet released, the day the catalogue data last changed"),
    ),
    previousRelease: IsoDate.meta(d("Day of the release these changes are counted from")),
    released: z.boolean().meta(d("False for changes in the current catalogue that no release snapshot holds yet")),
    added: z.array(ChangedService).meta(d("Services that are new, by slug")),
    removed: z.array(ChangedService).meta(d("Services no longer in the catalogue")),
    renamed: z
      .array(
        z
          .object({
            slug: z.string().meta(d("Service slug (unchanged)")),
            providerId: z.string().meta(d("Provider id")),
            from: z.string().meta(d("Previous name")),
            to: z.string().meta(d("New name")),
          })
          .meta({ id: "RenamedService", description: "A service whose name changed" }),
      )
      .meta(d("Services whose name changed")),
    lifecycle: z
      .array(
        z
          .object({
            slug: z.string().meta(d("Service slug")),
            name: z.string().meta(d("Service name")),
            providerId: z.string().meta(d("Provider id")),
            from: LifecycleState.nullable().meta(d("Lifecycle before; null when it was generally available")),
            to: LifecycleState.nullable().meta(d("Lifecycle now; null when it is generally available again")),
          })
          .meta({ id: "LifecycleMove", description: "A service whose lifecycle status or date changed" }),
      )
      .meta(d("Services whose lifecycle status or date changed (services added or removed are not repeated here)")),
  })
  .meta({ id: "CatalogueRelease", description: "What one catalogue release changed" });

export const ChangeHistory = z
  .object({
    data: z.array(CatalogueRelease).meta(d("Releases, newest first")),
  })
  .meta({ id: "ChangeHistory", description: "GET /v1/changes: what each catalogue release changed" });

export type CompareResultT = z.infer<typeof CompareResult>;
export type ExposureReportT = z.infer<typeof ExposureReport>;
export type ChangelogT = z.infer<typeof Changelog>;
export type ChangelogEntryT = z.infer<typeof ChangelogEntry>;
export type LifecycleEntryT = z.infer<typeof LifecycleEntry>;
export type LifecycleListT = z.infer<typeof LifecycleList>;
export type CatalogueReleaseT = z.infer<typeof CatalogueRelease>;
