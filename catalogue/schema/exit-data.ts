/**
 * The data files exit plans read besides the services (issue 114, added in 1.12.0):
 * placement.yaml, the jobs that follow what they serve (keys, shares, networks), and egress.yaml,
 * what leaving costs (each provider's internet egress price, its published exit waiver, and the EU
 * Data Act's switching-charge rules by date), each figure with the page that states it.
 */
import { z } from "zod";
import { FactSource } from "./compatibility.ts";
import { d, IsoDate, Slug } from "./vocabulary.ts";

/** One job that serves others, and the jobs it serves (equivalence group ids). */
export const PlacementFollows = z
  .object({
    group: Slug,
    serves: z.array(Slug).min(1),
    /** What the plan says: why a service of this job sits beside what it serves. */
    why: z.string().min(10).max(200),
  })
  .strict();

export const PlacementFile = z.object({ follows: z.array(PlacementFollows).min(1) }).strict();
export type PlacementFileT = z.infer<typeof PlacementFile>;

/** A price band of internet egress: per GB up to a monthly volume (the last band has none). */
export const EgressTier = z
  .object({
    upToGb: z.number().positive().optional().meta(d("The band ends at this many GB in the month; absent: no end")),
    perGb: z.number().min(0).meta(d("Price per GB in the band, in the provider's currency, before tax")),
  })
  .strict()
  .meta({ id: "EgressTier", description: "A band of a provider's internet egress price (added in 1.12.0)" });

/** An exit waiver as its vendor published it: what it gives and on what conditions. */
export const ExitWaiver = z
  .object({
    announced: IsoDate.meta(d("The day the vendor published the waiver (YYYY-MM-DD)")),
    gives: z.string().min(10).max(300).meta(d("What the waiver gives, in the vendor's terms")),
    conditions: z
      .array(z.string().min(5).max(300))
      .min(1)
      .meta(d("The conditions the vendor's page states, each as a sentence")),
    source: FactSource,
  })
  .strict()
  .meta({
    id: "ExitWaiver",
    description: "Free data transfer for customers leaving, as the vendor published it (added in 1.12.0)",
  });

/**
 * A provider's egress price where an official page states it (currency, scope and source together),
 * and the exit waiver it published; either may be absent, never guessed.
 */
export const ProviderEgress = z
  .object({
    provider: Slug,
    currency: z.enum(["USD", "EUR", "CHF", "GBP"]).optional(),
    /** Internet egress free each month before the bands apply (GB); 0 when none. */
    freeGbPerMonth: z.number().min(0).optional(),
    /** What the free allowance or the price covers, as the page says (per account, per server, which regions). */
    scope: z.string().min(5).max(300).optional(),
    /** The bands, in order; absent where the page gives the allowance only. */
    tiers: z.array(EgressTier).min(1).optional(),
    /** The services the price is stated for, where the page prices one product's egress only; absent: all. */
    services: z.array(Slug).min(1).optional(),
    source: FactSource.optional(),
    waiver: ExitWaiver.optional(),
  })
  .strict()
  .refine(
    (entry) =>
      (entry.currency !== undefined) === (entry.scope !== undefined) &&
      (entry.scope !== undefined) === (entry.source !== undefined) &&
      (entry.scope !== undefined ||
        (entry.tiers === undefined && entry.freeGbPerMonth === undefined && entry.services === undefined)),
    { message: "a price needs its currency, scope and source together; without them give no tiers or allowance" },
  )
  .refine((entry) => entry.scope !== undefined || entry.waiver !== undefined, {
    message: "states neither a price nor a waiver",
  });

/** One period of the Data Act's rules on switching charges. */
export const SwitchingPeriod = z
  .object({
    from: IsoDate.meta(d("The first day the rule applies (YYYY-MM-DD)")),
    until: IsoDate.optional().meta(d("The day the next rule takes over; absent: no end is set")),
    rule: z.string().min(10).max(400).meta(d("The rule on switching and data egress charges, in words")),
  })
  .strict()
  .meta({
    id: "SwitchingPeriod",
    description: "A period of the EU Data Act's rules on switching and data egress charges (added in 1.12.0)",
  });

export const EgressFile = z
  .object({
    dataAct: z
      .object({
        name: z.string().min(5),
        periods: z.array(SwitchingPeriod).min(1),
        /** The Data Act's other switching rules (Articles 25 and 34), each with the page read (issue 124). */
        rules: z
          .array(z.object({ article: z.string().min(3), says: z.string().min(10), source: FactSource }).strict())
          .optional(),
        source: FactSource,
      })
      .strict(),
    providers: z.array(ProviderEgress),
  })
  .strict();
export type EgressFileT = z.infer<typeof EgressFile>;
export type ProviderEgressT = z.infer<typeof ProviderEgress>;
