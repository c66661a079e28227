/**
 * What leaving costs (issue 114, added in 1.12.0): in an exit plan, per provider moved from, its
 * internet egress price as its own page states it, the exit waiver it published, the EU Data
 * Act's rules on switching charges for the plan's date and, given the data volumes (dataGb), an
 * estimate of the egress of moving them. Every figure names the page behind it and the day it was read.
 */
import { z } from "zod";
import { EgressTier, ExitWaiver, SwitchingPeriod } from "./exit-data.ts";
import { d } from "./vocabulary.ts";
import { MAX_ID_LENGTH } from "../base/limits.ts";

/** Per approved service id, the GB of data to move out of it. */
export const DataGb = z
  .record(z.string().min(1).max(MAX_ID_LENGTH), z.number().min(0).max(1e9))
  .meta(
    d(
      "Per approved service id, the data to move out of it, in GB (0 to 1,000,000,000): the plan estimates the egress of moving it at its provider's published internet egress price. An id not in approvedServiceIds is a 400 (added in 1.12.0)",
    ),
  );

const PageRead = z
  .object({
    url: z.string().meta(d("The page that states it")),
    retrieved: z.string().meta(d("The day the catalogue read it (YYYY-MM-DD)")),
    asOf: z.string().optional().meta(d("The date the page gives for itself, where it has one")),
  })
  .meta(d("The page behind a figure"));

export const ExitEgressEstimate = z
  .object({
    dataGb: z.number().meta(d("The GB to move out of this provider: the sum of dataGb over its services that move")),
    billableGb: z
      .number()
      .optional()
      .meta(
        d(
          "Of those the price applies to, the GB past the free monthly allowance; absent where no price is known (1.13.0: was 0)",
        ),
      ),
    unpricedGb: z
      .number()
      .optional()
      .meta(
        d(
          "Of dataGb, the GB from services the published price does not cover (it prices one product's egress only): not in cost",
        ),
      ),
    cost: z
      .number()
      .optional()
      .meta(
        d("The list-price egress of moving them within one month, in currency; absent where no band price is known"),
      ),
    currency: z
      .string()
      .optional()
      .meta(d("ISO 4217 code of the provider's published price; absent where no price is known (1.13.0: was empty)")),
    words: z.string().meta(d("The estimate in words, with what it assumes")),
  })
  .meta({
    id: "ExitEgressEstimate",
    description: "The egress of moving the given data out of one provider (added in 1.12.0)",
  });

export const ExitLeavingProvider = z
  .object({
    providerId: z.string().meta(d("A provider the plan moves services from")),
    providerName: z.string().meta(d("Its display name")),
    services: z.array(z.string()).meta(d("Its services the plan moves, by slug")),
    egress: z
      .object({
        currency: z.string().meta(d("ISO 4217 code")),
        freeGbPerMonth: z.number().optional().meta(d("Internet egress free each month, in GB")),
        scope: z.string().meta(d("What the price or allowance covers, as the page says")),
        tiers: z.array(EgressTier).optional().meta(d("The price bands past the free allowance, in order")),
        services: z
          .array(z.string())
          .optional()
          .meta(
            d("The services the price is stated for, by slug, where the page prices one product only; absent: all"),
          ),
        source: PageRead,
      })
      .optional()
      .meta(d("Its internet egress price as its own page states it; absent where the catalogue has no such page")),
    waiver: ExitWaiver.optional().meta(
      d("The free data transfer it published for customers leaving, with its conditions"),
    ),
    waiverRecorded: z
      .boolean()
      .meta(
        d(
          "Whether the catalogue records an exit waiver of this provider from an official page: false says none is recorded, never that none exists (added in 1.13.0)",
        ),
      ),
    estimate: ExitEgressEstimate.optional().meta(d("Present when dataGb gives volumes for its services")),
    words: z.string().meta(d("What leaving it costs, in words")),
  })
  .meta({ id: "ExitLeavingProvider", description: "What leaving one provider costs (added in 1.12.0)" });

export const ExitLeaving = z
  .object({
    asOf: z.string().meta(d("The day the rules are read for: the catalogue data's date (YYYY-MM-DD)")),
    dataAct: z
      .object({
        name: z.string().meta(d("The regulation")),
        rule: z.string().meta(d("The rule on switching charges in force on asOf")),
        periods: z.array(SwitchingPeriod).meta(d("Its rules by period, in order")),
        rules: z
          .array(
            z.object({
              article: z.string().meta(d("The article and paragraph")),
              says: z.string().meta(d("What it says, in our words")),
              source: PageRead,
            }),
          )
          .optional()
          .meta(
            d(
              "The Data Act's other switching rules: Article 25's notice, transitional and retrieval periods, Article 34's parallel use (added in 1.13.0)",
            ),
          ),
        source: PageRead,
      })
      .meta(d("The EU Data Act's rules on switching charges; they apply to services used in the EU")),
    providers: z.array(ExitLeavingProvider).meta(d("Each provider the plan moves services from")),
    notes: z.array(z.string()).meta(d("What the figures assume and leave out")),
  })
  .meta({
    id: "ExitLeaving",
    description:
      "What leaving costs: each provider's egress price, its exit waiver, the Data Act's switching-charge rules, and the estimated egress of the data given (added in 1.12.0)",
  });

export type ExitLeavingT = z.infer<typeof ExitLeaving>;
export type ExitLeavingProviderT = z.infer<typeof ExitLeavingProvider>;
