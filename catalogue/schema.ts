/**
 * Every resource, request body and response of the API (contract v1, 1.5.1), and the shapes of the
 * human-edited data files. These schemas are the single source of types (`z.infer`), validation and
 * the OpenAPI document: each field's `description` lands there verbatim.
 * Contract: ../shared/spec/catalogue-api-v1.md, "Resources and their fields".
 */
import { z } from "zod";

const d = (description: string) => ({ description });

// ---------------------------------------------------------------------------------------------
// Vocabularies

export const LIFECYCLE_STATUSES = ["preview", "deprecated", "sunset", "retired"] as const;
export const PRICING_MODELS = ["pay-as-you-go", "subscription", "free", "included", "quote"] as const;
export const SUB_SERVICE_KINDS = ["tier", "edition", "storage-class", "engine", "feature", "plan"] as const;
export const FEEDBACK_TYPES = ["bug", "feature", "question", "general"] as const;
export const COMPONENT_STATUSES = ["ok", "degraded", "down"] as const;

/** EU member states plus the EEA's Iceland, Liechtenstein and Norway (ISO 3166-1 alpha-2). */
export const EU_EEA_COUNTRIES: ReadonlySet<string> = new Set(
  ("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE " + "IS LI NO").split(" "),
);
/** Countries whose operators count as European for the sovereign-option rule: EU/EEA plus Switzerland. */
export const EUROPEAN_SOVEREIGN_COUNTRIES: ReadonlySet<string> = new Set([...EU_EEA_COUNTRIES, "CH"]);

const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as DE")
  .meta(d("ISO 3166-1 alpha-2 country code"));
const HttpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase kebab-case ([a-z0-9] and single hyphens)");
const IsoDate = z.iso.date({ error: "must be a date in YYYY-MM-DD form" });

// ---------------------------------------------------------------------------------------------
// Shared pieces of providers and services

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

export const GoogleApiService = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9-]+\.googleapis\.com$/, "must be a Google API service name like storage.googleapis.com")
      .meta(d("Google API service name, e.g. storage.googleapis.com")),
    restrictServiceUsage: z
      .boolean()
      .meta(d("Whether the organisation-policy constraint gcp.restrictServiceUsage supports this API")),
  })
  .strict()
  .meta({ id: "GoogleApiService", description: "A Google Cloud API service name" });

export const OtherIdentifier = z
  .object({
    scheme: Slug.meta(d("Identifier scheme, e.g. alibaba-ram-service or oci-iam-resource-type")),
    values: z.array(z.string().min(1)).min(1).meta(d("The identifiers in that scheme")),
  })
  .strict()
  .meta({ id: "OtherIdentifier", description: "Identifiers a non-hyperscaler provider uses in its own policies" });

export const PolicyIdentifiers = z
  .object({
    iamPrefixes: z
      .array(z.string().regex(/^[a-z0-9-]+$/, "must be an AWS IAM service prefix like s3"))
      .min(1)
      .optional()
      .meta(d("AWS IAM service prefixes (the part before ':' in an action), used by the SCP generator")),
    resourceTypes: z
      .array(
        z
          .string()
          .regex(
            /^Microsoft\.[A-Za-z0-9.]+\/[A-Za-z0-9/]+$/,
            "must be an Azure resource type like Microsoft.Storage/storageAccounts",
          ),
      )
      .min(1)
      .optional()
      .meta(d("Azure resource types, used by the Azure policy generator")),
    apiServices: z
      .array(GoogleApiService)
      .min(1)
      .optional()
      .meta(d("Google API service names, used by the GCP organisation-policy generator")),
    other: z.array(OtherIdentifier).min(1).optional().meta(d("Identifiers of other providers' own policy languages")),
    noneReason: z.string().min(1).optional().meta(d("Why the service has no policy identifier, where it has none")),
  })
  .strict()
  .meta({
    id: "PolicyIdentifiers",
    description: "The identifiers that name this service in its provider's policy languages",
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

// ---------------------------------------------------------------------------------------------
// Data files (catalogue/data): what humans edit

export const CategoryFile = z.array(
  z
    .object({
      id: Slug,
      name: z.string().min(1),
      icon: z.string().min(1).optional(),
      description: z.string().min(1).optional(),
    })
    .strict(),
);

export const ComplianceFile = z.array(z.object({ id: Slug, name: z.string().min(1) }).strict());

export const ProviderFile = z
  .object({
    id: z.string().regex(/^[a-z0-9]+$/, "must be lowercase letters and digits"),
    name: z.string().min(1),
    shortName: z.string().min(1),
    logo: z.string().min(1).optional(),
    documentationBaseUrl: HttpsUrl,
    officialDomains: z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be a host name")).min(1),
    defaultCompliance: z.array(Slug).default([]),
    headOffice: HeadOffice,
    jurisdiction: z.string().regex(/^(?:[A-Z]{2})$/, "must be an ISO 3166-1 alpha-2 code, or EU"),
    controllingCountry: CountryCode,
    regions: z.array(Region).min(1),
  })
  .strict();

export const ServiceEntry = z
  .object({
    slug: Slug,
    name: z.string().min(1),
    shortName: z.string().min(1).optional(),
    category: Slug,
    description: z.string().min(1).optional(),
    logo: z.string().min(1).optional(),
    documentationUrl: HttpsUrl.optional(),
    pricingUrl: HttpsUrl.optional(),
    pricingModel: z.enum(PRICING_MODELS).optional(),
    hasFreeTier: z.boolean().optional(),
    tags: z.array(z.string().regex(/^[a-z0-9][a-z0-9 .+#/&-]*$/, "must be a lowercase keyword")).optional(),
    compliance: z.array(Slug).optional(),
    policyIdentifiers: PolicyIdentifiers.optional(),
    subServices: z.array(SubService).optional(),
    lifecycle: ServiceLifecycle.optional(),
  })
  .strict();

export const EquivalentsFile = z.array(
  z
    .object({
      id: Slug,
      name: z.string().min(1),
      services: z.array(Slug).min(2, "a group needs at least two services"),
    })
    .strict(),
);

// ---------------------------------------------------------------------------------------------
// API resources

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
      .meta(d("Compliance programmes the provider holds platform-wide (ids of the compliance vocabulary)")),
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
    description: z.string().optional().meta(d("One or two sentences on what it does")),
    logo: z.string().optional().meta(d("URL path to a logo")),
    documentationUrl: z.string().optional().meta(d("Official documentation")),
    pricingUrl: z.string().optional().meta(d("Official pricing page")),
    pricingModel: z.string().optional().meta(d("One of pay-as-you-go, subscription, free, included, quote")),
    hasFreeTier: z.boolean().optional().meta(d("True when the vendor offers a free tier; absent when not known to")),
    tags: z.array(z.string()).optional().meta(d("Lowercase search keywords")),
    compliance: z
      .array(z.string())
      .optional()
      .meta(d("Compliance programmes: the vendor's per-service scope where published, else the provider default")),
    lifecycle: ServiceLifecycle.optional().meta(d("Present only for preview, deprecated, sunset or retired services")),
  })
  .meta({ id: "Service", description: "A cloud service" });

export const ServiceDetail = Service.extend({
  subServices: z.array(SubService).meta(d("Tiers, editions, storage classes, engines, features or plans")),
  equivalents: z.array(Service).meta(d("Equivalent services on other providers")),
  policyIdentifiers: PolicyIdentifiers.meta(d("Identifiers that name the service in its provider's policies")),
}).meta({ id: "ServiceDetail", description: "A service with sub-services, equivalents and policy identifiers" });

export const Pagination = z
  .object({
    page: z.number().int().meta(d("1-based page index")),
    limit: z.number().int().meta(d("Page size")),
    total: z.number().int().meta(d("Number of matching services")),
    totalPages: z.number().int().meta(d("Number of pages at this limit")),
  })
  .meta({ id: "Pagination", description: "Position within a paged result" });

export const ServiceList = z
  .object({
    data: z.array(Service).meta(d("The services on this page")),
    pagination: Pagination,
  })
  .meta({ id: "ServiceList", description: "A page of services" });

export const ApiError = z
  .object({
    error: z.string().meta(d("Short, human-readable reason")),
    status: z.number().int().meta(d("The HTTP status code, repeated")),
    details: z.string().optional().meta(d("What to change to make the request succeed")),
  })
  .meta({ id: "Error", description: "Every 4xx and 5xx body" });

// ---------------------------------------------------------------------------------------------
// Request bodies and query parameters

export const MAX_APPROVED_IDS = 500;
export const MAX_COMPARE_IDS = 10;
export const MAX_EXPOSURE_IDS = 50;

export const ApprovedServicesBody = z
  .object({
    approvedServiceIds: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_APPROVED_IDS)
      .meta(d(`Service ids as in the services listing (1 to ${MAX_APPROVED_IDS})`)),
  })
  .meta({ id: "ApprovedServicesBody", description: "Request body of the policy and export endpoints" });

export const LIST_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** Idempotency-Key: letters, digits and ._:- only, at most 128 characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request headers of POST /v1/lists. */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, "must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
    .optional()
    .meta(
      d(
        "Idempotency-Key: a retry with the same key returns the list the first request saved (200) instead of saving another or answering 409; kept with the list for its lifetime. 1 to 128 characters of [A-Za-z0-9._:-], e.g. a UUID",
      ),
    ),
});

export const SavedListCreate = z
  .object({
    name: z.string().max(200).optional().meta(d("Display name; when slug is omitted the slug is derived from it")),
    approvedServiceIds: ApprovedServicesBody.shape.approvedServiceIds,
    slug: z
      .string()
      .min(2)
      .max(64)
      .regex(LIST_SLUG_PATTERN, "must be lowercase letters, digits and hyphens, with no leading or trailing hyphen")
      .optional()
      .meta(d("2 to 64 characters, [a-z0-9-], no leading or trailing hyphen; 409 when taken")),
  })
  .meta({ id: "SavedListCreate", description: "Request body of POST /v1/lists" });

export const SavedList = z
  .object({
    id: z.string().meta(d("Generated id (nanoid, 126 bits of randomness)")),
    url: z.string().meta(d("Shareable URL on the text host; uses the slug when there is one")),
    slug: z.string().nullable().meta(d("Human-readable slug, or null")),
    name: z.string().nullable().meta(d("Display name, or null")),
    approvedServiceIds: z.array(z.string()).meta(d("The approved service ids, in the order given")),
    createdAt: z.iso.datetime().meta(d("When the list was created")),
    expiresAt: z.iso.datetime().meta(d("Exactly 90 days after createdAt; the list answers 404 afterwards")),
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

export const FeedbackBody = z
  .object({
    type: z
      .string()
      .nullish()
      .meta(d("One of bug, feature, question, general; defaults to general when omitted, null or unrecognised")),
    message: z.string().meta(d("5 to 5000 characters")),
    email: z.email().optional().meta(d("Optional reply-to address")),
    page: z.string().max(2000).optional().meta(d("Where the feedback was submitted from")),
  })
  .meta({ id: "FeedbackBody", description: "Request body of POST /v1/feedback" });

export const FeedbackResult = z
  .object({
    success: z.boolean().meta(d("True when the feedback was stored")),
    message: z.string().meta(d("Human-readable confirmation")),
  })
  .meta({ id: "FeedbackResult", description: "Response of POST /v1/feedback" });

export const OutboundClickBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .meta(d("The outbound URL that was followed")),
    serviceId: z.string().max(200).optional().meta(d("The service whose link was followed")),
    kind: z.enum(["documentation", "pricing", "announcement", "other"]).optional().meta(d("Which link it was")),
    page: z.string().max(2000).optional().meta(d("Where the click happened")),
  })
  .meta({ id: "OutboundClickBody", description: "Request body of POST /v1/analytics/outbound" });

export const OutboundClickResult = z
  .object({ recorded: z.boolean().meta(d("True when the click was stored")) })
  .meta({ id: "OutboundClickResult", description: "Response of POST /v1/analytics/outbound" });

// ---------------------------------------------------------------------------------------------
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
    regionCountries: z.array(z.string()).meta(d("Countries the provider's public regions are in")),
    usHeadquartered: z.boolean().meta(d("True when the head office is in the United States")),
    sovereignOption: z.boolean().meta(d("Provider is a sovereign option (see Provider.sovereignOption)")),
    euResidentOnly: z.boolean().meta(d("Provider is EU-resident-only (see Provider.euResidentOnly)")),
    lifecycle: ServiceLifecycle.optional().meta(d("Lifecycle, when not generally available")),
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
    sovereignOptionCount: z.number().int().meta(d("Number of selected services that are sovereign options")),
    euResidentOnlyCount: z.number().int().meta(d("Number of selected services that are EU-resident-only options")),
    services: z.array(ExposureRow).meta(d("Per-service rows, in request order")),
    disclaimer: z.string().meta(d("States that the report is procurement triage, not legal advice")),
  })
  .meta({ id: "ExposureReport", description: "GET /v1/exposure: the jurisdictional exposure scorecard" });

export const ComponentState = z
  .object({
    component: z.string().meta(d("catalogue, store or sidecar")),
    status: z.enum(COMPONENT_STATUSES).meta(d("One of ok, degraded, down")),
    latencyMs: z.number().meta(d("How long the check took")),
    message: z.string().nullable().meta(d("What is wrong, or null")),
    skippedRecords: z
      .number()
      .int()
      .optional()
      .meta(d("store only: records read back at start that did not match their schema and were skipped")),
  })
  .meta({ id: "ComponentState", description: "Current state of one component" });

export const StatusRecord = ComponentState.extend({
  timestamp: z.iso.datetime().meta(d("When the sample was taken")),
}).meta({ id: "StatusRecord", description: "A point-in-time observation of a component" });

export const StatusReport = z
  .object({
    status: z.enum(COMPONENT_STATUSES).meta(d("Worst status of the components")),
    apiVersion: z.string().meta(d("Contract version the API implements")),
    counts: z
      .object({
        providers: z.number().int().meta(d("Number of providers")),
        categories: z.number().int().meta(d("Number of categories")),
        services: z.number().int().meta(d("Number of services")),
        equivalenceGroups: z.number().int().meta(d("Number of equivalence groups")),
        lifecycle: z.record(z.string(), z.number().int()).meta(d("Services per lifecycle status")),
      })
      .meta(d("Catalogue counts")),
    lastUpdated: z.iso.datetime().meta(d("When the catalogue data last changed")),
    components: z.array(ComponentState).meta(d("Each component's current state")),
  })
  .meta({ id: "StatusReport", description: "GET /v1/status" });

export const StatusHistory = z
  .object({ data: z.array(StatusRecord).meta(d("Status records of the last 24 hours, newest first, at most 200")) })
  .meta({ id: "StatusHistory", description: "GET /v1/status/history" });

export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).meta(d("ok, or degraded when the store is unreachable")),
    uptimeSeconds: z.number().meta(d("Seconds since the process started")),
    store: z.enum(["embedded", "redis"]).meta(d("Which store backs lists and feedback")),
  })
  .meta({ id: "Health", description: "GET /v1/health: a cheap liveness probe" });

const SkippedService = z
  .object({
    id: z.string().meta(d("Service id")),
    providerId: z.string().meta(d("Its provider")),
    reason: z.string().meta(d("Why it is not in the document")),
  })
  .meta({ id: "SkippedService", description: "An approved service left out of a policy document" });

const PolicyMeta = {
  skipped: z.array(SkippedService).meta(d("Approved services not in the document, and why")),
  notes: z.array(z.string()).meta(d("What to review before applying the document")),
};

export const ScpStatement = z
  .object({
    Sid: z.string().meta(d("Statement id")),
    Effect: z.literal("Deny").meta(d("Deny")),
    NotAction: z
      .array(z.string())
      .meta(d("Actions exempted from the deny: the approved services' prefixes, as prefix:*")),
    Resource: z.literal("*").meta(d("All resources")),
  })
  .meta({ id: "ScpStatement", description: "The SCP statement" });

export const ScpPolicy = z
  .object({
    policy: z
      .object({
        Version: z.literal("2012-10-17").meta(d("IAM policy language version")),
        Statement: z.array(ScpStatement).meta(d("One deny-all-but statement")),
      })
      .meta(d("The service control policy, ready to paste into AWS Organizations")),
    characters: z
      .number()
      .int()
      .meta(d("Length of the policy with white space removed, as AWS counts it (limit 5120)")),
    ...PolicyMeta,
  })
  .meta({ id: "ScpPolicyResult", description: "POST /v1/policies/alpha-scp: an AWS service control policy" });

export const AzurePolicySet = z
  .object({
    policy: z
      .object({
        properties: z
          .object({
            displayName: z.string().meta(d("Display name of the initiative")),
            description: z.string().meta(d("What the initiative enforces")),
            policyType: z.literal("Custom").meta(d("Custom")),
            metadata: z.record(z.string(), z.unknown()).meta(d("Category and generator version")),
            parameters: z.record(z.string(), z.unknown()).meta(d("Initiative parameters: the allowed resource types")),
            policyDefinitions: z
              .array(
                z.object({
                  policyDefinitionReferenceId: z.string().meta(d("Reference id within the initiative")),
                  policyDefinitionId: z.string().meta(d("The built-in 'Allowed resource types' definition")),
                  parameters: z.record(z.string(), z.unknown()).meta(d("listOfResourceTypesAllowed")),
                }),
              )
              .meta(d("The referenced policy definitions")),
          })
          .meta(d("Policy set definition properties")),
      })
      .meta(d("An Azure policy set definition (initiative), ready for az policy set-definition create")),
    resourceTypes: z.array(z.string()).meta(d("The allowed resource types, sorted")),
    ...PolicyMeta,
  })
  .meta({ id: "AzurePolicySetResult", description: "POST /v1/policies/beta-policy: an Azure policy initiative" });

export const GcpOrgPolicy = z
  .object({
    policy: z
      .object({
        name: z.string().meta(d("organizations/ORGANIZATION_ID/policies/gcp.restrictServiceUsage; replace the id")),
        spec: z
          .object({
            rules: z
              .array(z.object({ values: z.object({ allowedValues: z.array(z.string()) }) }))
              .meta(d("One rule allowing the approved API services")),
          })
          .meta(d("The policy spec")),
      })
      .meta(d("A Google Cloud organisation policy, ready for gcloud org-policies set-policy")),
    services: z.array(z.string()).meta(d("The allowed API services, sorted")),
    ...PolicyMeta,
  })
  .meta({ id: "GcpOrgPolicyResult", description: "POST /v1/policies/gamma-org-policy: a GCP organisation policy" });

export type ProviderFileT = z.infer<typeof ProviderFile>;
export type ServiceEntryT = z.infer<typeof ServiceEntry>;
export type ProviderT = z.infer<typeof Provider>;
export type CategoryT = z.infer<typeof Category>;
export type ServiceT = z.infer<typeof Service>;
export type ServiceDetailT = z.infer<typeof ServiceDetail>;
export type ServiceLifecycleT = z.infer<typeof ServiceLifecycle>;
export type PolicyIdentifiersT = z.infer<typeof PolicyIdentifiers>;
export type SubServiceT = z.infer<typeof SubService>;
export type ServiceListT = z.infer<typeof ServiceList>;
export type ApiErrorT = z.infer<typeof ApiError>;
export type SavedListT = z.infer<typeof SavedList>;
export type SavedListDetailT = z.infer<typeof SavedListDetail>;
export type CompareResultT = z.infer<typeof CompareResult>;
export type ExposureReportT = z.infer<typeof ExposureReport>;
export type StatusRecordT = z.infer<typeof StatusRecord>;
export type StatusReportT = z.infer<typeof StatusReport>;
export type ComponentStateT = z.infer<typeof ComponentState>;
export type HealthT = z.infer<typeof Health>;
export type ScpPolicyT = z.infer<typeof ScpPolicy>;
export type AzurePolicySetT = z.infer<typeof AzurePolicySet>;
export type GcpOrgPolicyT = z.infer<typeof GcpOrgPolicy>;
