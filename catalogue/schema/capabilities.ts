/**
 * Capabilities (issue 98, added in 1.11.0): per job (equivalence group) the handful of things a
 * service of that job has or lacks that decide whether a workload can move (SMB shares, pull
 * subscriptions, signing keys, layer-7 routing), each defined once, and per service which of them
 * it has, lacks or is not known to have, with the vendor page that states it
 * (catalogue/data/capabilities.yaml). The exit planner's "what is lost" is computed from them.
 */
import { z } from "zod";
import { d, Slug } from "./vocabulary.ts";
import { FactSource } from "./compatibility.ts";

/** One capability, defined once: what a service that has it lets a workload keep. */
export const Capability = z
  .object({
    id: Slug.meta(d("Capability id, e.g. smb or sign-verify (kebab-case, stable)")),
    name: z.string().min(1).meta(d("Display name, e.g. SMB file shares")),
    means: z.string().min(1).meta(d("What a service must do to have it, in words a reader can check on a vendor page")),
    compatibility: Slug.optional().meta(
      d(
        "A compatibility term (compatibility.yaml) whose records state the capability: a service claiming it whole has it, in part (a scope) has it in part, recorded as not supporting it lacks it, each with the record's source, unless capabilities.yaml states the service's capability itself (added in 1.12.0)",
      ),
    ),
  })
  .strict()
  .meta({ id: "Capability", description: "A capability that decides a migration, defined once (added in 1.11.0)" });

export const CapabilitiesFile = z
  .object({
    capabilities: z.array(Capability).min(1),
    /** Per job (an equivalence group id) the capabilities that decide a migration, in order. */
    jobs: z
      .array(
        z
          .object({
            group: Slug,
            capabilities: z.array(Slug).min(2),
          })
          .strict(),
      )
      .min(1),
    /**
     * Per service: capabilities of its jobs it has, lacks, or was looked for and not found stated
     * (notKnown; a capability named nowhere is not known either); has and lacks need a vendor page
     * (sources) that states them. A capability is the service's, whichever of its jobs reads it.
     */
    services: z.array(
      z
        .object({
          service: Slug,
          has: z.array(Slug).optional(),
          /** Has it only in part (from 1.12.0): notes must say which part, as the vendor's page does. */
          partly: z.array(Slug).optional(),
          lacks: z.array(Slug).optional(),
          notKnown: z.array(Slug).optional(),
          /** A capability's limit as the vendor states it ("NFS 4.1 on premium file shares only"). */
          notes: z.record(Slug, z.string().min(1).max(200)).optional(),
          sources: z.array(FactSource).min(1).optional(),
          /**
           * The open-source engine the service runs, as its sources (on the provider's domains) state
           * it, and the engine's own pages stating what the capabilities listed have (from 1.12.0):
           * STACKIT's RabbitMQ is RabbitMQ, whose queues are FIFO.
           */
          engine: z
            .object({ name: z.string().min(2).max(60), sources: z.array(FactSource).min(1) })
            .strict()
            .optional(),
        })
        .strict(),
    ),
  })
  .strict();

export type CapabilityT = z.infer<typeof Capability>;
export type CapabilitiesFileT = z.infer<typeof CapabilitiesFile>;

/** How one service stands on one capability of a job. */
export const CAPABILITY_STATES = ["has", "partly", "lacks", "not-known"] as const;
export type CapabilityState = (typeof CAPABILITY_STATES)[number];

/** What a job's capabilities say of two services: what the replacing one keeps, lacks, or is not known to have. */
export const CapabilityDifference = z
  .object({
    kept: z.array(z.string()).meta(d("Capability ids the replaced service has and the replacing one has too")),
    lost: z
      .array(z.string())
      .meta(d("Capability ids the replaced service has and the replacing one is recorded as lacking")),
    partial: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "Capability ids the replaced service has and the replacing one has only in part, as its vendor's page limits it (SMB shares mounted only from servers on the provider's own network) (added in 1.12.0)",
        ),
      ),
    notKnown: z
      .array(z.string())
      .meta(
        d(
          "Capability ids the replaced service has where the catalogue does not know whether the replacing one has them; from 1.12.0 they never count as lost",
        ),
      ),
    gained: z
      .array(z.string())
      .meta(d("Capability ids the replacing service has that the replaced one lacks or is not known to have")),
  })
  .meta({
    id: "CapabilityDifference",
    description:
      "What moving from one service to another keeps and loses of a job's capabilities (catalogue/data/capabilities.yaml; added in 1.11.0)",
  });
export type CapabilityDifferenceT = z.infer<typeof CapabilityDifference>;

/** Moving one service to another in one job they share: the capability difference, in words too. */
export const KeyDifference = CapabilityDifference.extend({
  group: z.string().meta(d("The job both do: an equivalence group id with capabilities")),
  from: z.string().meta(d("The service moved from (slug)")),
  to: z.string().meta(d("The service moved to (slug)")),
  compatibility: z
    .object({
      kept: z.array(z.string()).meta(d("Compatibility term ids the moved service speaks and the other speaks too")),
      partial: z
        .array(z.string())
        .meta(d('Terms the other speaks in part only, with the part ("kafka: producing only")')),
      lost: z
        .array(z.string())
        .meta(d("Terms the other is recorded as not speaking, with what its vendor's page says instead")),
    })
    .optional()
    .meta(
      d(
        "The protocols and APIs the moved service speaks (its compatibility records), as the other service's records state them; terms neither records are left out (added in 1.12.0)",
      ),
    ),
  sources: z
    .array(
      z.object({ url: z.string().meta(d("The vendor page")), retrieved: z.string().meta(d("The day it was read")) }),
    )
    .optional()
    .meta(d("The vendor pages behind the capabilities and compatibility records compared (added in 1.12.0)")),
  words: z.string().meta(d('The difference in words: "keeps SMB file shares; loses NFS v3 (not supported)"')),
}).meta({
  id: "KeyDifference",
  description:
    "What moving from one service to an equivalent keeps and loses of a shared job's capabilities, as the exit plan reads it (added in 1.11.0), and from 1.12.0 of the protocols and APIs it speaks, with the vendor pages behind each",
});
export type KeyDifferenceT = z.infer<typeof KeyDifference>;
