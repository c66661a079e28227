/** The human-edited data files in catalogue/data (see its README). The loader validates them against these. */
import { z } from "zod";
import { CompatibilityClaim, CompatibilityNotSupported, FactSource, ServiceLineage } from "./compatibility.ts";
import { HeadOffice, Region, ServiceLifecycle, SubService } from "./resources.ts";
import { ComplianceScope, ServiceSourceEntry } from "./sources.ts";
import { PolicyIdentifiers } from "./identifiers.ts";
import { serviceEntryFields } from "./service-fields.ts";
import { CountryCode, HttpsUrl, IsoDate, Slug } from "./vocabulary.ts";
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

/** data/search-words.yaml: how people ask, read by the one search (catalogue/search/words.ts). */
/** A vendor's own localised page that uses some of a row's words for the kind they mean. */
const SearchWordsSource = z
  .object({ lang: z.enum(["de", "fr", "it", "es", "nl"]), url: HttpsUrl, words: z.array(z.string().min(1)).min(1) })
  .strict();

/**
 * Words read as `means`. A row of the kinds' names in other languages says where each word comes
 * from: `sources` (a vendor's localised page using it) or `unsourced` (no vendor page found: the
 * mark, not invented provenance); then every word of the row is in exactly one of them.
 */
const SearchWordsRow = z
  .object({
    words: z.array(z.string().min(1)).min(1),
    means: z.string().min(1),
    sources: z.array(SearchWordsSource).optional(),
    unsourced: z.array(z.string().min(1)).optional(),
  })
  .strict()
  .superRefine((row, ctx) => {
    if (!row.sources && !row.unsourced) return;
    const listed = [...(row.sources ?? []).flatMap((source) => source.words), ...(row.unsourced ?? [])];
    const once = new Set(listed);
    for (const word of row.words)
      if (!once.has(word))
        ctx.addIssue({ code: "custom", message: `"${word}" is neither sourced nor marked unsourced` });
    for (const word of once)
      if (!row.words.includes(word))
        ctx.addIssue({ code: "custom", message: `"${word}" is not one of the row's words` });
    if (once.size !== listed.length) ctx.addIssue({ code: "custom", message: "a word is listed twice" });
  });

export const SearchWordsFile = z
  .object({
    /** Words no query requires, per language code. */
    stopWords: z.record(z.string(), z.array(z.string().min(1))),
    /** Words asking for another service than the one named ("alternative", "instead", "like"). */
    alternativeWords: z.array(z.string().min(1)),
    /** Place words: providers under those jurisdictions, or based in (then with a region in) a country. */
    places: z.array(
      z
        .object({
          words: z.array(z.string().min(1)).min(1),
          jurisdictions: z.array(z.string().min(2)).optional(),
          country: CountryCode.optional(),
          /** A region id: the services running there (ServiceDetail.regions), e.g. the AWS European Sovereign Cloud's. */
          region: z.string().min(1).optional(),
        })
        .strict()
        .refine((place) => [place.jurisdictions, place.country, place.region].filter(Boolean).length === 1, {
          message: "a place has one of jurisdictions, a country or a region",
        }),
    ),
    /** Words and phrases (other languages, shorthand, plain needs) read as the catalogue's words. */
    words: z.array(SearchWordsRow),
    /**
     * Equivalence groups that are a job done on what other services hold (backup, migration,
     * monitoring): named beside another kind ("VM backup"), the job is what is asked (issue 123).
     */
    jobs: z.array(Slug).optional(),
  })
  .strict();
export type SearchWordsFileT = z.infer<typeof SearchWordsFile>;

/**
 * data/other-products.yaml: products people name that the catalogue does not list (Snowflake,
 * Vercel), or a provider named alone ("alternative to Heroku"), each with the kinds of service
 * (equivalence groups or categories) it is and why. The search answers such a name with the kinds'
 * services and says so (catalogue/search/search.ts).
 */
export const OtherProductsFile = z.array(
  z
    .object({
      /** The product's name as its vendor writes it. */
      name: z.string().min(1),
      /** Other names people use for it ("confluent" for Confluent Cloud); the name itself is always read. */
      words: z.array(z.string().min(1)).min(1).optional(),
      /** A provider of the catalogue this name is (Heroku): then its own services of these kinds are meant. */
      provider: z.string().min(1).optional(),
      /** Equivalence group or category ids: the kinds of service it is, the main one first. */
      kinds: z.array(Slug).min(1),
      /** Why it is of those kinds, in one sentence a reviewer can check. */
      why: z.string().min(1),
      /** The vendor's own site, to tell which product is meant. */
      site: HttpsUrl,
    })
    .strict(),
);
export type OtherProductsFileT = z.infer<typeof OtherProductsFile>;

export const ComplianceFile = z.array(z.object({ id: Slug, name: z.string().min(1) }).strict());

export const ProviderFile = z
  .object({
    id: z.string().regex(/^[a-z0-9]+$/, "must be lowercase letters and digits"),
    name: z.string().min(1),
    shortName: z.string().min(1),
    /** The day this provider file was last reviewed in full. Not applied to services: theirs comes from their sources. */
    lastVerified: IsoDate,
    logo: z.string().min(1).optional(),
    documentationBaseUrl: HttpsUrl,
    officialDomains: z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be a host name")).min(1),
    defaultCompliance: z.array(Slug).default([]),
    /** Where the provider lists each programme's in-scope services (see data/README.md, "Compliance"). */
    complianceScope: z.array(ComplianceScope).optional(),
    headOffice: HeadOffice,
    jurisdiction: z.string().regex(/^(?:[A-Z]{2})$/, "must be an ISO 3166-1 alpha-2 code, or EU"),
    controllingCountry: CountryCode,
    regions: z
      .array(
        Region.omit({ partition: true }).extend({
          /**
           * A provider page (on officialDomains) saying an entity other than headOffice.company runs
           * this region without naming it; the API then states no operator. Data file only, never
           * with operator.
           */
          unnamedOperatorSource: HttpsUrl.optional(),
        }),
      )
      .min(1),
  })
  .strict();

/** A Terraform resource type: the provider's local name, an underscore, the resource (scaleway_instance_server). */
export const TerraformResourceType = z
  .string()
  .regex(/^[a-z][a-z0-9]*_[a-z0-9_]+$/, "must be a lowercase Terraform resource type like scaleway_instance_server");

export const ServiceEntry = z
  .object({
    slug: Slug,
    name: z.string().min(1),
    shortName: z.string().min(1).optional(),
    category: Slug,
    /** Removed in 1.7.0: a service's lastVerified is the newest `retrieved` of its sources. */
    lastVerified: z
      .never({
        error:
          "is no longer written by hand: list the vendor pages you checked under sources (url, retrieved, backs); lastVerified is their newest retrieved date",
      })
      .optional(),
    // The plain fields, one row each in the field table (service-fields.ts).
    ...serviceEntryFields(),
    /** Programmes whose provider-published scope names this service; each needs a source that backs compliance. */
    compliance: z.array(Slug).optional(),
    policyIdentifiers: PolicyIdentifiers.optional(),
    /** The official Terraform provider's resource types this service owns, each owned by one service (1.9.0). */
    terraformResources: z.array(TerraformResourceType).min(1).optional(),
    subServices: z.array(SubService).optional(),
    lifecycle: ServiceLifecycle.optional(),
    /** The vendor pages that back this entry's facts, each read on `retrieved` (see data/README.md). */
    sources: z.array(ServiceSourceEntry).min(1).optional(),
    /** Wire protocols and APIs the vendor states the service is compatible with, each with that page (1.8.0). */
    compatibility: z.array(CompatibilityClaim).min(1).optional(),
    notCompatible: z.array(CompatibilityNotSupported).min(1).optional(),
    /** The other provider's product this service is, operated by a different company (1.8.0). */
    lineage: ServiceLineage.optional(),
  })
  .strict();

/** A service or a provider checked and found not doing a group's job, with the page read. */
export const NotDoingRecord = z
  .object({
    service: Slug.optional(),
    provider: Slug.optional(),
    note: z.string().min(1).max(300),
    source: FactSource,
  })
  .strict()
  .refine((record) => (record.service === undefined) !== (record.provider === undefined), {
    message: "give exactly one of service or provider",
  });

/**
 * data/not-doing.yaml: one row per (service, group) the membership sweep named and that was
 * checked and found not doing the group's job, with why and the page that shows it
 * (data/README.md, rule "membership sweep"). The loader adds each row to its group's notDoing.
 */
export const NotDoingFile = z.array(
  z
    .object({
      service: Slug,
      group: Slug,
      note: z.string().min(1).max(300),
      source: FactSource,
    })
    .strict(),
);

export const EquivalentsFile = z.array(
  z
    .object({
      id: Slug,
      name: z.string().min(1),
      services: z.array(Slug).min(2, "a group needs at least two services"),
      /** The group's category, where the category most members are in does not say the job (a tie). */
      category: Slug.optional(),
      /**
       * Members filed under another category than the group's (the one most members are in), each
       * with why it still does the group's job at the group's layer; check:data fails on a member
       * in another category without one (data/README.md, "equivalents.yaml").
       */
      otherCategories: z.record(Slug, z.string().min(1)).optional(),
      /**
       * Checked and found not doing this job (data/README.md, rule "membership sweep"): a service
       * whose words name the job but which does not do it in full, or a provider that sells no
       * service doing it; each with the vendor page read.
       */
      notDoing: z.array(NotDoingRecord).min(1).optional(),
      /**
       * Members in several groups whose primary job this group is, where the rule "primary job"
       * (data/README.md) would pick another (HDInsight: Spark and Hadoop, not Kafka).
       */
      primaryOf: z.array(Slug).min(1).optional(),
      /**
       * Per provider, the member its vendor positions for this job (issue 124: Amazon SQS, not Amazon
       * MQ, is AWS's queue service), at most one a provider, each with the vendor page in a comment;
       * an exit plan's flagship signal reads it before the data-derived prior.
       */
      flagships: z.array(Slug).min(1).optional(),
    })
    .strict(),
);

export type NotDoingRecordT = z.infer<typeof NotDoingRecord>;
export type ProviderFileT = z.infer<typeof ProviderFile>;
export type ServiceEntryT = z.infer<typeof ServiceEntry>;

/** A scope page a data/scope/<provider>.yaml file was generated from, as its services' sources cite it. */
export const ScopeSource = ServiceSourceEntry.pick({ url: true, retrieved: true, asOf: true, via: true })
  .extend({ id: Slug })
  .strict();

/**
 * data/scope/<provider>.yaml, generated (scripts/maintenance/aws-scope.ts): the scope pages read, and per service
 * slug, per page id, the compliance programmes that page names the service for.
 */
export const ScopeFile = z
  .object({
    sources: z.array(ScopeSource).min(1),
    services: z.record(Slug, z.record(Slug, z.array(Slug).min(1))),
  })
  .strict();

export type ScopeFileT = z.infer<typeof ScopeFile>;
