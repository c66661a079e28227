/**
 * Two data files of issue 123, beside search-words.yaml: the abbreviations people type for a product
 * (data/search-abbreviations.yaml) and the places people name that are no region id or country code
 * (data/places/metros.yaml: metro areas and the vendors' pages that give each region's city).
 */
import { z } from "zod";
import { CountryCode, HttpsUrl, IsoDate, Slug } from "./vocabulary.ts";

/** A page that uses an abbreviation for a product, and what it says. */
const AbbreviationSource = z
  .object({
    url: HttpsUrl,
    /** What the page says, in a few words, so a reviewer finds it. */
    says: z.string().min(1),
    /** The day the page (or the copy named in `via`) was read. */
    retrieved: IsoDate,
    /** A copy read instead of the page itself (the search corpus's stored copy, a dataset). */
    via: z.string().min(1).optional(),
  })
  .strict();

export const SearchAbbreviationsFile = z
  .object({
    /**
     * Per provider id, the GitHub organisations that are the vendor's own (Microsoft's Azure,
     * AWS's aws): a source there is the vendor's page as much as one on its officialDomains.
     */
    vendorOrganisations: z.record(z.string(), z.array(z.string().regex(/^[A-Za-z0-9-]+$/)).min(1)),
    abbreviations: z.array(
      z
        .object({
          /** As people type it, letters and digits ("ACA", "ADLS"). */
          abbreviation: z.string().regex(/^[A-Za-z][A-Za-z0-9]{1,11}$/, "must be 2 to 12 letters and digits"),
          /** The service it names. */
          service: Slug,
          /** Vendor pages that use it for the service. */
          sources: z.array(AbbreviationSource).min(1).optional(),
          /** No vendor page found: what was searched (the mark, not invented provenance). */
          unsourced: z.string().min(1).optional(),
        })
        .strict()
        .refine((row) => (row.sources === undefined) !== (row.unsourced === undefined), {
          message: "an abbreviation has sources or is marked unsourced, not both",
        }),
    ),
  })
  .strict();
export type SearchAbbreviationsFileT = z.infer<typeof SearchAbbreviationsFile>;

/** The page or dataset that states a provider's regions' cities (providers/<id>.yaml `city`). */
const CitySource = z
  .object({
    url: HttpsUrl,
    says: z.string().min(1),
    retrieved: IsoDate,
    via: z.string().min(1).optional(),
  })
  .strict();
export type CitySourceT = z.infer<typeof CitySource>;

export const MetrosFile = z
  .object({
    /** Per provider id, where its region list states each region's city. */
    citySources: z.record(z.string(), CitySource),
    metros: z.array(
      z
        .object({
          /** Lowercase, kebab-case: the metro's word in answers (frankfurt, sao-paulo). */
          id: Slug,
          /** The metro's name in English. */
          name: z.string().min(1),
          country: CountryCode,
          /** Other names people type (languages, the city's own spelling), matched like the name. */
          names: z.array(z.string().min(1)).default([]),
          /**
           * The cities of providers' regions (providers/<id>.yaml `city`, in this country) it takes
           * in: its own, and those the metro area holds (Ashburn in Northern Virginia).
           */
          cities: z.array(z.string().min(1)).min(1),
        })
        .strict(),
    ),
  })
  .strict();
export type MetrosFileT = z.infer<typeof MetrosFile>;
