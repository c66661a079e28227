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
/**
 * A version's status on a day: before its end of standard support, past it but before its final
 * phase (extended support, or deprecated and still usable), in its final phase.
 */
export const VERSION_STATUSES = ["supported", "extended", "ended"] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

/**
 * The phases of a version's life as the vendors define them (added in 1.12.0): standard support;
 * deprecated (support ended, still usable: a Lambda runtime after its deprecation date); extended
 * support (RDS Extended Support, EKS extended support, AKS LTS, Cloud SQL and Azure Database
 * extended support, mostly paid); creating resources on it blocked; updating them blocked; ended.
 */
export const VERSION_PHASES = ["supported", "deprecated", "extended", "block-create", "block-update", "ended"] as const;
export type VersionPhase = (typeof VERSION_PHASES)[number];
/** The dated fields of a version, each the day a phase begins or the last day of the one before. */
export const VERSION_DATES = ["standardEnd", "blockCreate", "blockUpdate", "extendedEnd"] as const;
export type VersionDate = (typeof VERSION_DATES)[number];

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
    blockCreate: IsoDate.optional(),
    blockUpdate: IsoDate.optional(),
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
      .meta(d("What the vendor calls the end of extended support (e.g. End of RDS Extended Support)")),
    blockCreate: z
      .string()
      .min(1)
      .optional()
      .meta(d("What the vendor calls the day creating resources on a version is blocked (added in 1.12.0)")),
    blockUpdate: z
      .string()
      .min(1)
      .optional()
      .meta(d("What the vendor calls the day updating them is blocked (e.g. Block function update; added in 1.12.0)")),
  })
  .strict();

/** A phase after standard support as a family's data describes it: what it means, what it costs, and the page saying so. */
const PhaseEntry = z
  .object({
    consequence: z.string().min(1),
    paid: z.boolean().optional(),
    price: z.string().min(1).optional(),
    /** The page stating the consequence (and price); the family's source when absent. */
    source: SourceId.optional(),
    /** The copy the dates this phase begins from were read in, when not the family's source (Lambda's block dates). */
    datesSource: SourceId.optional(),
  })
  .strict();
/** The phases a family's data describes (never "supported"). */
const PhaseEntries = z
  .object(
    Object.fromEntries(
      VERSION_PHASES.filter((phase) => phase !== "supported").map((phase) => [phase, PhaseEntry.optional()]),
    ) as Record<Exclude<VersionPhase, "supported">, z.ZodOptional<typeof PhaseEntry>>,
  )
  .strict();
export type PhaseEntriesT = z.infer<typeof PhaseEntries>;

/** One family of a service's versions as the data file writes it. */
export const VersionFamilyEntry = z
  .object({
    id: Slug,
    name: z.string().min(1),
    kind: z.enum(VERSION_KINDS),
    source: SourceId,
    terms: Terms,
    /** What each phase after standard support means; a version past its standard end with no extendedEnd is deprecated when "deprecated" is described, else ended. */
    phases: PhaseEntries.optional(),
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

/** A phase's description with its source resolved (the family's when the data names none). */
export type PhaseDataT = Omit<NonNullable<PhaseEntriesT["extended"]>, "source" | "datesSource"> & {
  readonly source: VersionSourceT;
  readonly datesSource?: VersionSourceT;
};
/** A family as the catalogue keeps it: its sources resolved. */
export type VersionFamilyDataT = Omit<VersionFamilyEntryT, "source" | "phases"> & {
  readonly source: VersionSourceT;
  readonly phases?: Partial<Record<Exclude<VersionPhase, "supported">, PhaseDataT>>;
};
/** Per service slug, its version families (data/versions/). */
export type VersionMap = Readonly<Record<string, readonly VersionFamilyDataT[]>>;

// The API's shape.

/** One phase of one version: which, the day it begins and the vendor's date it comes from. */
export const VersionPhaseStart = z
  .object({
    phase: z.enum(VERSION_PHASES).meta(d(`One of ${VERSION_PHASES.join(", ")}`)),
    starts: IsoDate.meta(
      d(
        "The first day of the phase: the day after standardEnd or extendedEnd (last days of support), blockCreate or blockUpdate itself",
      ),
    ),
    from: z.enum(VERSION_DATES).meta(d("The version's date the phase begins from")),
  })
  .meta({ id: "VersionPhaseStart", description: "A phase of a version and the day it begins (added in 1.12.0)" });
export type VersionPhaseStartT = z.infer<typeof VersionPhaseStart>;

/** What a phase means for a family: its consequence, whether it is paid, and the vendor page that says so. */
export const VersionPhaseInfo = z
  .object({
    phase: z.enum(VERSION_PHASES).meta(d("The phase described")),
    name: z.string().meta(d("What the vendor calls the date the phase begins from (the family's terms)")),
    consequence: z.string().meta(d("What happens to a resource on a version in this phase, in the vendor's terms")),
    paid: z.boolean().optional().meta(d("True when the vendor charges for the phase (paid extended support)")),
    price: z
      .string()
      .optional()
      .meta(
        d(
          "The price basis where the vendor states it (per cluster hour, per vCPU-hour…), never a figure we did not read",
        ),
      ),
    source: z
      .string()
      .meta(
        d("The vendor page that states the consequence (and price): its URL, described in ServiceVersions.sources"),
      ),
    datesSource: z
      .string()
      .optional()
      .meta(
        d(
          "Where the dates this phase begins from were read, when not the family's source (Lambda's block dates): its URL, described in ServiceVersions.sources",
        ),
      ),
  })
  .meta({ id: "VersionPhaseInfo", description: "What a phase means for a family's versions (added in 1.12.0)" });
export type VersionPhaseInfoT = z.infer<typeof VersionPhaseInfo>;

export const ServiceVersion = z
  .object({
    id: z.string().meta(d("The vendor's own string for the version or tier (nodejs20.x, 1.31, 13, Premium)")),
    name: z.string().optional().meta(d("The vendor's display name, where it differs from id")),
    released: IsoDate.optional().meta(d("The day the vendor made it available, where published")),
    standardEnd: IsoDate.optional().meta(
      d("Last day of standard support (the family's terms.standardEnd); absent when the vendor publishes none yet"),
    ),
    extendedEnd: IsoDate.optional().meta(
      d(
        "Last day of extended support (terms.extendedEnd); absent when there is none. Since 1.12.0 never a Lambda runtime's Block function update, which is blockUpdate",
      ),
    ),
    blockCreate: IsoDate.optional().meta(
      d("The day the vendor starts refusing to create resources on it (terms.blockCreate; added in 1.12.0)"),
    ),
    blockUpdate: IsoDate.optional().meta(
      d("The day the vendor starts refusing to update them (terms.blockUpdate; added in 1.12.0)"),
    ),
    successor: z.string().optional().meta(d("The version id of this family the vendor names as its successor")),
    note: z.string().optional().meta(d("What else the vendor says of this version")),
    status: z
      .enum(VERSION_STATUSES)
      .meta(
        d(
          "Computed from the dates as of ServiceVersions.asOf, never written by hand: supported (up to standardEnd, or no end published), extended (past standardEnd, before its final phase: extended support, or deprecated and still usable; phase says which), ended (in its final phase: past extendedEnd, from blockUpdate, or past standardEnd when nothing follows)",
        ),
      ),
    phase: z
      .enum(VERSION_PHASES)
      .meta(
        d(
          "Its phase as of ServiceVersions.asOf (VersionFamily.phases says what each means; each begins the day after standardEnd or extendedEnd, on blockCreate or blockUpdate; added in 1.12.0)",
        ),
      ),
  })
  .meta({ id: "ServiceVersion", description: "One version or tier of a service, with its end dates and phases" });

export const VersionFamily = z
  .object({
    id: z.string().meta(d("Family id within the service (nodejs, kubernetes, postgresql, tier)")),
    name: z.string().meta(d("Display name")),
    kind: z.enum(VERSION_KINDS).meta(d("One of runtime, kubernetes, engine, tier")),
    terms: Terms.meta(d("What the vendor calls each date of this family's versions")),
    phases: z
      .array(VersionPhaseInfo)
      .optional()
      .meta(d("What each phase after standard support means, costs and where the vendor says so (added in 1.12.0)")),
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
    sources: z
      .array(VersionSource)
      .optional()
      .meta(
        d("The pages the families' phases cite (VersionPhaseInfo.source, datesSource), each once (added in 1.12.0)"),
      ),
  })
  .meta({
    id: "ServiceVersions",
    description:
      "What a team is made to move off inside a service: runtimes, Kubernetes versions, engine versions, tiers",
  });
export type ServiceVersionsT = z.infer<typeof ServiceVersions>;
export type ServiceVersionT = z.infer<typeof ServiceVersion>;
