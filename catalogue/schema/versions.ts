/**
 * Versions and tiers of a service (issue 99): the data files (data/versions/<providerId>.yaml, as
 * humans write them) and the API's shape (ServiceDetail.versions). A version's status is never
 * written in the data: it is computed from its dates and a day (versions/versions.ts), so a date
 * that passes changes it without an edit.
 */
import { z } from "zod";
import { FactSource } from "./compatibility.ts";
import { d, IsoDate, Slug } from "./vocabulary.ts";

/** What a family's versions are: a language runtime, a Kubernetes minor version, an engine major version, a tier. */
export const VERSION_KINDS = ["runtime", "kubernetes", "engine", "tier"] as const;
/** A version's status on a day: before its end of standard support, between that and its extended end, past both. */
export const VERSION_STATUSES = ["supported", "extended", "ended"] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

const SourceId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a kebab-case source id");

/** A vendor page behind a family's dates: a fact source, with what it states. */
export const VersionSource = FactSource.extend({
  backs: z.string().min(1).meta(d("What the page states, in our words")),
}).meta({ id: "VersionSource", description: "The vendor page that publishes a version family's dates" });
export type VersionSourceT = z.infer<typeof VersionSource>;

/** One version as the data file writes it; no status (computed). */
export const VersionEntry = z
  .object({
    id: z.string().min(1).max(60),
    name: z.string().min(1).optional(),
    released: IsoDate.optional(),
    standardEnd: IsoDate.optional(),
    extendedEnd: IsoDate.optional(),
    successor: z.string().min(1).optional(),
    note: z.string().min(1).optional(),
  })
  .strict();
export type VersionEntryT = z.infer<typeof VersionEntry>;

const Terms = z
  .object({
    standardEnd: z.string().min(1).meta(d("What the vendor calls the first end date (e.g. Deprecation)")),
    extendedEnd: z
      .string()
      .min(1)
      .optional()
      .meta(d("What the vendor calls the second end date (e.g. Block function update, End of extended support)")),
  })
  .strict();

/** One family of a service's versions as the data file writes it. */
export const VersionFamilyEntry = z
  .object({
    id: Slug,
    name: z.string().min(1),
    kind: z.enum(VERSION_KINDS),
    source: SourceId,
    terms: Terms,
    note: z.string().min(1).optional(),
    successorSlug: Slug.optional(),
    versions: z.array(VersionEntry).min(1),
  })
  .strict();
export type VersionFamilyEntryT = z.infer<typeof VersionFamilyEntry>;

/** catalogue/data/versions/<providerId>.yaml (see README.md there). */
export const VersionsFile = z
  .object({
    sources: z.record(SourceId, VersionSource),
    services: z.record(z.string(), z.array(VersionFamilyEntry).min(1)),
  })
  .strict();

/** A family as the catalogue keeps it: its source resolved. */
export type VersionFamilyDataT = Omit<VersionFamilyEntryT, "source"> & { readonly source: VersionSourceT };
/** Per service slug, its version families (data/versions/). */
export type VersionMap = Readonly<Record<string, readonly VersionFamilyDataT[]>>;

// The API's shape.

export const ServiceVersion = z
  .object({
    id: z.string().meta(d("The vendor's own string for the version or tier (nodejs20.x, 1.31, 13, Premium)")),
    name: z.string().optional().meta(d("The vendor's display name, where it differs from id")),
    released: IsoDate.optional().meta(d("The day the vendor made it available, where published")),
    standardEnd: IsoDate.optional().meta(
      d("End of standard support (the family's terms.standardEnd); absent when the vendor publishes none yet"),
    ),
    extendedEnd: IsoDate.optional().meta(
      d("End of extended support or the vendor's later hard stop (terms.extendedEnd); absent when there is none"),
    ),
    successor: z.string().optional().meta(d("The version id of this family the vendor names as its successor")),
    note: z.string().optional().meta(d("What else the vendor says of this version")),
    status: z
      .enum(VERSION_STATUSES)
      .meta(
        d(
          "Computed from the dates as of ServiceVersions.asOf, never written by hand: supported (before standardEnd, or no end published), extended (past standardEnd, on or before extendedEnd), ended (past its last end)",
        ),
      ),
  })
  .meta({ id: "ServiceVersion", description: "One version or tier of a service, with its end dates" });

export const VersionFamily = z
  .object({
    id: z.string().meta(d("Family id within the service (nodejs, kubernetes, postgresql, tier)")),
    name: z.string().meta(d("Display name")),
    kind: z.enum(VERSION_KINDS).meta(d("One of runtime, kubernetes, engine, tier")),
    terms: Terms.meta(d("What the vendor calls the two end dates of this family")),
    note: z.string().optional().meta(d("How to read this family's dates")),
    successorSlug: z.string().optional().meta(d("The catalogue service the vendor names as where to move")),
    source: VersionSource.meta(d("The vendor page that publishes these dates")),
    versions: z.array(ServiceVersion).meta(d("Newest first, as the vendor lists them")),
  })
  .meta({ id: "VersionFamily", description: "A family of a service's versions or tiers with one source" });

export const ServiceVersions = z
  .object({
    asOf: IsoDate.meta(d("The day the statuses are computed for: the catalogue's last update (UTC)")),
    families: z.array(VersionFamily).meta(d("The service's version families")),
  })
  .meta({
    id: "ServiceVersions",
    description:
      "What a team is made to move off inside a service: runtimes, Kubernetes versions, engine versions, tiers",
  });
export type ServiceVersionsT = z.infer<typeof ServiceVersions>;
export type ServiceVersionT = z.infer<typeof ServiceVersion>;
