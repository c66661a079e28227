/**
 * Compatibility and lineage (added in 1.8.0): what a service speaks that people migrate on (a wire
 * protocol or API from the controlled vocabulary in catalogue/data/compatibility.yaml), and whose
 * product it is when another company operates it. Both carry the vendor page that states them.
 * Each field's description lands in OpenAPI verbatim.
 */
import { z } from "zod";
import { d, HttpsUrl, IsoDate, Slug } from "./vocabulary.ts";

/** One term of the compatibility vocabulary (catalogue/data/compatibility.yaml). */
export const CompatibilityTerm = z
  .object({
    id: Slug.meta(d("Vocabulary id, e.g. s3-api or postgresql (kebab-case, stable)")),
    name: z.string().min(1).meta(d("Display name, e.g. Amazon S3 API")),
    covers: z
      .string()
      .min(1)
      .meta(d("What a service that claims this term lets a customer keep when moving: clients, tools, data formats")),
    url: HttpsUrl.meta(d("The standard, specification or project page that defines the term")),
    conformance: z
      .object({
        name: z.string().min(1).meta(d("The conformance programme, e.g. Certified Kubernetes (CNCF)")),
        url: HttpsUrl.meta(
          d("Where the programme publishes its certified products; a claim may cite a page under it (added in 1.9.0)"),
        ),
      })
      .strict()
      .optional()
      .meta(d("A conformance programme whose published list backs claims of the term, where one exists")),
    groups: z
      .array(Slug)
      .optional()
      .meta(
        d(
          "The equivalence groups swept for the term: every member either claims it or records that it does not support it (added in 1.9.0)",
        ),
      ),
  })
  .strict()
  .meta({
    id: "CompatibilityTerm",
    description: "A wire protocol or API of the controlled compatibility vocabulary (added in 1.8.0)",
  });

export const CompatibilityFile = z.array(CompatibilityTerm);

/**
 * A vendor page that states one fact inline (a compatibility claim, a lineage). The field names are
 * those of the services' sources from 1.8.0 on: `retrieved` is the day the page was read, `asOf` the
 * date the page itself gives for what it says, where it gives one.
 */
export const FactSource = z
  .object({
    url: HttpsUrl.meta(d("The vendor's page that states the fact, on one of the provider's official domains")),
    retrieved: IsoDate.meta(d("The day (YYYY-MM-DD) the catalogue read the page and found it states the fact")),
    asOf: IsoDate.optional().meta(
      d("The date (YYYY-MM-DD) the page itself gives for what it says (last updated, published), where it has one"),
    ),
    via: HttpsUrl.optional().meta(
      d(
        "The copy actually read when it is not the page itself: the vendor's own repository file the fact was taken from, pinned to its commit (added in 1.9.0)",
      ),
    ),
  })
  .strict()
  .meta({ id: "FactSource", description: "The vendor page that states one fact, with the day it was read" });

export const CompatibilityClaim = z
  .object({
    id: Slug.meta(d("Id of the compatibility vocabulary term (see CompatibilityTerm), e.g. kafka")),
    scope: z
      .string()
      .min(1)
      .max(120)
      .optional()
      .meta(
        d(
          'Present when the service speaks the term for part of a job only, saying which part (e.g. "producing only: no consumers or consumer groups"); exit plans rank such a claim below a whole one (added in 1.9.0)',
        ),
      ),
    source: FactSource.meta(d("The vendor page that states the service is compatible")),
  })
  .strict()
  .meta({
    id: "CompatibilityClaim",
    description:
      "A wire protocol or API the service is compatible with, as its vendor states it: clients and tools built for it work against the service (added in 1.8.0)",
  });

/** A term checked on the vendor's pages and found unsupported: the sweep's record, so no member is left unchecked. */
export const CompatibilityNotSupported = z
  .object({
    id: Slug.meta(d("Id of the compatibility vocabulary term the service does not support, e.g. nfs")),
    note: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta(d('What the vendor\'s page says instead, e.g. "SMB, SFTP, rsync and WebDAV; no NFS"')),
    source: FactSource.meta(
      d("The vendor page checked: it lists what the service speaks, and the term is not among it"),
    ),
  })
  .strict()
  .meta({
    id: "CompatibilityNotSupported",
    description: "A compatibility term checked on the vendor's pages and not supported by the service (added in 1.9.0)",
  });

export const ServiceLineage = z
  .object({
    origin: Slug.meta(
      d("Slug of the other provider's service this one is: the same product, operated by a different company"),
    ),
    source: FactSource.meta(d("The vendor page that states the product is the origin's")),
  })
  .strict()
  .meta({
    id: "ServiceLineage",
    description:
      "Whose product the service is when another company operates it, e.g. S3NS's BigQuery is Google Cloud's BigQuery run by S3NS in France (added in 1.8.0)",
  });

/** A compatibility claim as the API answers it: the data's claim with the term's display name. */
export const ServiceCompatibility = CompatibilityClaim.extend({
  name: z.string().meta(d("Display name of the term, e.g. Apache Kafka protocol")),
}).meta({
  id: "ServiceCompatibility",
  description:
    "A wire protocol or API the service is compatible with, with the vendor page that states it (added in 1.8.0)",
});

export type CompatibilityTermT = z.infer<typeof CompatibilityTerm>;
export type FactSourceT = z.infer<typeof FactSource>;
export type CompatibilityClaimT = z.infer<typeof CompatibilityClaim>;
export type CompatibilityNotSupportedT = z.infer<typeof CompatibilityNotSupported>;
export type ServiceLineageT = z.infer<typeof ServiceLineage>;
export type ServiceCompatibilityT = z.infer<typeof ServiceCompatibility>;
