/**
 * The vendor pages behind the catalogue's facts: a service's sources as a data file writes them and
 * as the API returns them, and a provider's compliance scope pages (catalogue/data/README.md,
 * "Sources").
 */
import { z } from "zod";
import { d, HttpsUrl, IsoDate, Slug, SOURCE_BACKS } from "./vocabulary.ts";

/** A source as a data file writes it (catalogue/data/README.md, "Sources"). */
export const ServiceSourceEntry = z
  .object({
    url: HttpsUrl.meta(d("The vendor's page, on one of the provider's official domains")),
    retrieved: IsoDate.meta(
      d("The day (YYYY-MM-DD) the catalogue read this page, or the copy named by `via`, for the facts it backs"),
    ),
    asOf: IsoDate.optional().meta(
      d(
        "The date of the copy read, where it has one: the page's \"last updated\", a repository file's commit date, a dataset's release (added in 1.8.0)",
      ),
    ),
    via: HttpsUrl.optional().meta(
      d(
        "The copy actually read when it is not the page itself: the dataset or repository file the facts were taken from, dated by asOf (added in 1.8.0)",
      ),
    ),
    backs: z
      .array(z.enum(SOURCE_BACKS))
      .min(1)
      .meta(
        d(
          "Which of the service's facts the page backs: identity (name, provider, category), description, lifecycle, compliance, identifiers (policy identifiers), regions",
        ),
      ),
    claims: z
      .array(z.string().min(1).max(300))
      .min(1)
      .optional()
      .meta(
        d(
          "What the page states, in the catalogue's own words: the specific claims (capabilities, numbers, dates, protocols, names) it was read for; each claim term of the service's description must be stated in one of its sources' claims (catalogue/data/README.md, \"Claim terms\"; added in 1.11.0)",
        ),
      ),
    programmes: z
      .array(Slug)
      .min(1)
      .optional()
      .meta(
        d(
          "For a source that backs compliance: the programmes (compliance ids) its scope list names the service for; absent means every programme of the service (added in 1.8.0)",
        ),
      ),
    offer: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta(
        d(
          "For a source that backs compliance: the vendor's name of the offer, option or region of the service the programmes are held for, when that is narrower than the service (a SecNumCloud-qualified offer, an HDS option); absent means the service as a whole (added in 1.10.0)",
        ),
      ),
  })
  .strict();

export const ServiceSource = ServiceSourceEntry.extend({
  checked: IsoDate.meta(d("Deprecated since 1.8.0, kept for 1.7 clients: the same day as retrieved")),
}).meta({
  id: "ServiceSource",
  description:
    "A vendor page that backs some of a service's facts, with the day it was read (added in 1.7.0; retrieved in 1.8.0)",
});

/** Where a provider lists the services in scope of some of the programmes it holds. */
export const ComplianceScope = z
  .object({
    programmes: z.array(Slug).min(1).meta(d("Compliance ids whose in-scope services the page lists")),
    url: HttpsUrl.meta(d("The provider's page listing the services in scope")),
    listed: z
      .boolean()
      .optional()
      .meta(
        d(
          "True when the catalogue carries this list in full and current on its services (Service.compliance): a service without the programme is then left out of its scope, and no face shows the provider's programme on it",
        ),
      ),
  })
  .strict()
  .meta({ id: "ComplianceScope", description: "A provider's scope page for some of its programmes (added in 1.8.0)" });

export type ServiceSourceT = z.infer<typeof ServiceSource>;
export type ComplianceScopeT = z.infer<typeof ComplianceScope>;
export type ServiceSourceEntryT = z.infer<typeof ServiceSourceEntry>;
