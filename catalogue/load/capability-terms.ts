/**
 * Rule "claim terms", kind 4 (issue 115): the capability terms of a description, the lower-case
 * phrases a reader takes as what the product does ("readiness checks", "zonal shift", "point-in-time
 * restore", "screen sharing"). claim-terms.ts takes dates, numbers and names first; what is left is
 * cut into phrases at punctuation and at function words (FUNCTION_WORDS: and, for, with, across…),
 * and the words of the trade that state nothing of one product (GENERIC_WORDS: service, managed…)
 * are dropped from them. A claim states a capability term when each of the term's words is, by its
 * English Snowball stem, one of the claim's words: "point-in-time restore" is stated by "restores a
 * database to a point in time", not by "backups".
 */
import { stemmer } from "@orama/stemmers/english";

/** A [start, end) range of a text that a claim term already takes. */
export type Span = readonly [number, number];

/** Words that join or frame a phrase and state nothing themselves: each ends a capability term. */
const FUNCTION_WORDS = new Set(
  (
    "a an the and or nor but for of on in at to into onto from by with without within via per as than then " +
    "so such that which who whom whose where when while whether if its it it's their them they your you our " +
    "we us this these those is are was were be been being can could may might will would should must do does " +
    "did has have had not no any all each every both either neither other another some more most less least " +
    "many much few only also just over under across between among through throughout up down out off about " +
    "after before behind beyond around against along alongside inside outside upon toward towards like plus " +
    "including e.g i.e etc there here what how why one's itself yourself several various multiple well " +
    // Framing verbs and adjectives: "built on X", "compatible with X", "lets you": the claim is X.
    "built based provides provide offers offer lets let allows allow enables enable helps help using uses " +
    "use used includes include compatible available own"
  ).split(" "),
);

/**
 * Words of the trade that say what kind of thing the entry is, never what it does: dropped from a
 * term (a term of these alone is none). Kept short on purpose: every other word is a claim.
 */
const GENERIC_WORDS = new Set(
  (
    "service services managed fully cloud cloud-based offering solution solutions platform product products " +
    // Who and what it is for, said of every product: "for applications", "your resources".
    "resource resources application applications app apps workload workloads data user users customer " +
    "customers developer developers team teams organisation organisations organization organizations " +
    "environment environments tool tools way ways need needs needed front formerly former"
  ).split(" "),
);
const GENERIC_STEMS = new Set([...GENERIC_WORDS].map((word) => stemmer(word)));

/** A run of letters (and digits) with inner hyphens, slashes or apostrophes: one word of a phrase. */
const WORD = /[\p{L}\p{N}]+(?:['’/-][\p{L}\p{N}]+)*/gu;

/** The parts of a word that carry meaning: hyphen and slash parts, function words dropped. */
const partsOf = (word: string) =>
  word
    .toLowerCase()
    .split(/['’/-]/)
    .filter((part) => part.length > 0 && !FUNCTION_WORDS.has(part));

/**
 * Each word's stem, computed once: every server thread checks every description at load, and the
 * stemmer took 230 of its 800 ms on words it had stemmed before (the catalogue's words are a few thousand).
 */
const stemOf = new Map<string, string>();
const stem = (part: string) => {
  let known = stemOf.get(part);
  if (known === undefined) stemOf.set(part, (known = stemmer(part)));
  return known;
};

/** A word's stems, for comparing a term with a claim: "restores" and "restore" are one. */
const stems = (text: string): string[] => [...text.matchAll(WORD)].flatMap((m) => partsOf(m[0])).map(stem);

/** The stems of a claim's words, to check many terms against it (statesCapability). */
export const claimStems = (claim: string): ReadonlySet<string> => new Set(stems(claim));

/**
 * The capability terms of `text` outside the spans already taken (dates, numbers, names), in
 * order, as written (trimmed of generic words at either end).
 */
export function capabilityTermsOutside(text: string, taken: readonly Span[]): string[] {
  const inside = (start: number, end: number) => taken.some(([a, b]) => start < b && end > a);
  const terms: string[] = [];
  let run: { start: number; end: number } | undefined;
  const close = () => {
    if (run) terms.push(text.slice(run.start, run.end));
    run = undefined;
  };
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    const word = match[0].toLowerCase();
    // Punctuation or a taken span between two words ends a term; so does a function word.
    const between = text.slice(last, start);
    last = end;
    if (/[^\s]/.test(between) || inside(start, end) || FUNCTION_WORDS.has(word)) {
      close();
      if (inside(start, end) || FUNCTION_WORDS.has(word)) continue;
    }
    if (GENERIC_WORDS.has(word) || partsOf(word).length === 0) {
      // A generic word neither starts a term nor ends one: "managed relational database".
      continue;
    }
    if (run) run.end = end;
    else run = { start, end };
  }
  close();
  return terms;
}

/** Whether a claim states a capability term: each of the term's words is a word of the claim, by its stem. */
export function statesCapability(claim: string | ReadonlySet<string>, term: string): boolean {
  const said = typeof claim === "string" ? claimStems(claim) : claim;
  return stems(term)
    .filter((stem) => !GENERIC_STEMS.has(stem))
    .every((stem) => said.has(stem));
}
