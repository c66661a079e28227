/**
 * The words gate of `npm run check:data` (issue 89): a service's name and description stand on the
 * vendor's own page only where a source backs `identity` and one backs `description`. Per provider,
 * check:data prints how many services have each and fails under WORDS_THRESHOLD, except for the
 * providers listed in WORDS_SHORTFALL with the counts they stood at when listed: a listed provider
 * fails when a count drops below its floor (a source was lost) and when it reaches the threshold
 * (take it off the list), so the list only shrinks and says exactly what is left.
 */
import type { Catalogue } from "../load/load.ts";

/** The share of a provider's services that must have a source for each of the words. */
export const WORDS_THRESHOLD = 0.95;

const WORDS = ["identity", "description"] as const;
type Word = (typeof WORDS)[number];

/**
 * Every provider under the threshold on 2026-11-27 (issue 89), with the services that then had a source
 * backing identity and one backing description: what is left is the rest of each provider's services,
 * which check:data prints. Most entries were sourced for their identifiers or compliance only; AWS,
 * Azure and Google Cloud above all need their product pages read.
 */
export const WORDS_SHORTFALL: Readonly<Record<string, Readonly<Record<Word, number>>>> = {
  aruba: { identity: 10, description: 9 },
  aws: { identity: 148, description: 142 },
  clevercloud: { identity: 16, description: 2 },
  exoscale: { identity: 16, description: 10 },
  gcp: { identity: 31, description: 15 },
  heroku: { identity: 11, description: 3 },
  hetzner: { identity: 10, description: 3 },
  huawei: { identity: 96, description: 66 },
  ibm: { identity: 76, description: 19 },
  infomaniak: { identity: 8, description: 2 },
  ionos: { identity: 21, description: 14 },
  naver: { identity: 33, description: 20 },
  nhn: { identity: 19, description: 6 },
  outscale: { identity: 11, description: 3 },
  s3ns: { identity: 25, description: 7 },
  sakura: { identity: 28, description: 20 },
  stackit: { identity: 33, description: 22 },
  upcloud: { identity: 13, description: 4 },
  vultr: { identity: 16, description: 2 },
};

export interface WordsCoverage {
  readonly providerId: string;
  readonly services: number;
  readonly identity: number;
  readonly description: number;
}

/** One row per provider, in the catalogue's provider order. */
export function wordsCoverage(catalogue: Catalogue): WordsCoverage[] {
  return catalogue.providers.map((provider) => {
    const services = catalogue.services.filter((service) => service.providerId === provider.id);
    const backed = (word: Word) =>
      services.filter((service) =>
        catalogue.bySlug.get(service.slug)!.sources.some((source) => source.backs.includes(word)),
      ).length;
    return {
      providerId: provider.id,
      services: services.length,
      identity: backed("identity"),
      description: backed("description"),
    };
  });
}

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole).toFixed(1);
const meets = (part: number, whole: number) => whole === 0 || part / whole >= WORDS_THRESHOLD;

/** What check:data prints: one line per provider, the listed shortfall marked as such. */
export function wordsLines(
  rows: readonly WordsCoverage[],
  shortfall: typeof WORDS_SHORTFALL = WORDS_SHORTFALL,
): string[] {
  return rows.map((row) => {
    const cells = WORDS.map(
      (word) => `${word} ${row[word]}/${row.services} (${percent(row[word], row.services)} %)`,
    ).join(", ");
    const left = WORDS.map((word) => `${row.services - row[word]} without ${word}`).join(", ");
    return `${row.providerId}: ${cells}${Object.hasOwn(shortfall, row.providerId) ? `; listed shortfall: ${left}` : ""}`;
  });
}

/** One line per problem: under the threshold and not listed, below a listed floor, or listed but no longer short. */
export function wordsProblems(
  rows: readonly WordsCoverage[],
  shortfall: typeof WORDS_SHORTFALL = WORDS_SHORTFALL,
): string[] {
  const problems: string[] = [];
  const pct = `${WORDS_THRESHOLD * 100} %`;
  for (const row of rows) {
    const floor = shortfall[row.providerId];
    const short = WORDS.filter((word) => !meets(row[word], row.services));
    if (!floor) {
      for (const word of short)
        problems.push(
          `WORDS_SOURCES: ${row.providerId}: ${row[word]} of ${row.services} services have a source backing ${word}, under ${pct}; cite the vendor pages that state it`,
        );
      continue;
    }
    for (const word of WORDS)
      if (row[word] < floor[word])
        problems.push(
          `WORDS_SOURCES: ${row.providerId}: ${row[word]} services with a source backing ${word}, below the ${floor[word]} listed in catalogue/quality/words-sources.ts; a source was lost`,
        );
    if (short.length === 0)
      problems.push(
        `WORDS_SOURCES: ${row.providerId} reaches ${pct} for identity and description; take it out of WORDS_SHORTFALL`,
      );
  }
  for (const providerId of Object.keys(shortfall))
    if (!rows.some((row) => row.providerId === providerId))
      problems.push(`WORDS_SHORTFALL: ${providerId} is not a provider of the catalogue; take it out of the list`);
  return problems;
}
