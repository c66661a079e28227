/**
 * Rule "claim terms" (issue 100): what in a description is a checkable claim, and whether the
 * service's sources state it. A source's `claims` (catalogue/data/README.md, "Sources") says in
 * our words what the page states; a description's claim term is backed when one of its service's
 * sources' claims holds it (case-insensitive, whole words). The terms, in the order they are taken
 * from the text (a span taken once is not taken again):
 *
 * 1. dates: 2025-12-17, 17 December 2025, December 17, 2025, December 2025, and a bare year 19xx/20xx;
 * 2. numbers, with their unit when one follows (12 hours, 99.99 %, 5 TB, 10 Gbit/s, 3 AZs) and
 *    version numbers (v2, 1.3, 16.4); a number glued to letters that are no unit (3D, 10K) is a name (3);
 * 3. names: protocols, standards and products, read as a run of words each with a capital letter
 *    (NFS, SMB, S3, Kafka, PostgreSQL, Active Directory, Amazon EC2). A sentence's first word counts
 *    only when it is no plain capitalised word (an acronym, CamelCase or a word with a digit).
 *
 * 4. capabilities (issue 115): the lower-case phrases left, what the product does ("zonal shift",
 *    "point-in-time restore"), read in capability-terms.ts; stated by a claim holding each of its
 *    words (by stem), not by matching the phrase whole.
 *
 * Generic words of the trade (API, SDK, VM, AI…: GENERIC_WORDS) state nothing checkable and are no term.
 * A term a compatibility entry names (its vocabulary name: "Apache Kafka protocol" states Kafka) is
 * backed by that entry's vendor source. A name term that is the service's own name, short name or alias, or its provider's, is backed by
 * a source that backs identity, as the name itself is.
 */

import { capabilityTermsOutside, claimStems, statesCapability, type Span } from "./capability-terms.ts";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;
const MONTH = `(?:${MONTHS.join("|")})`;

// Units a number carries as one claim ("12 hours"); longest first so that "GB/s" wins over "GB".
const UNITS = [
  "%",
  "percent",
  "nines",
  "ms",
  "milliseconds?",
  "seconds?",
  "s",
  "minutes?",
  "mins?",
  "hours?",
  "days?",
  "weeks?",
  "months?",
  "years?",
  "[KMGTPE]i?B(?:/s|ps)?",
  "[KMGT]bit/s",
  "[KMGT]bps",
  "bytes?",
  "vCPUs?",
  "CPUs?",
  "cores?",
  "GPUs?",
  "nodes?",
  "instances?",
  "regions?",
  "zones?",
  "AZs?",
  "IOPS",
  "requests?",
  "queries",
  "x",
  "×",
];

const DATE_PATTERNS = [
  /\b\d{4}-\d{2}-\d{2}\b/gi,
  new RegExp(`\\b\\d{1,2} ${MONTH} \\d{4}\\b`, "gi"),
  new RegExp(`\\b${MONTH} \\d{1,2},? \\d{4}\\b`, "gi"),
  new RegExp(`\\b${MONTH} \\d{4}\\b`, "gi"),
  /\b(?:19|20)\d{2}\b/g,
];
// A number glued to letters that are no unit ("3D", "10K", "4o") is a name, not a count: it is left to the names.
const NUMBER_PATTERN = new RegExp(
  `(?<![\\w.])v?\\d+(?:[.,]\\d+)*\\+?(?:\\s?(?:${UNITS.join("|")})(?![\\w]))?(?![\\w])`,
  "gi",
);
// A word with a capital letter (S3, PostgreSQL, HTTP/2, PKCS#11, .NET), hyphen-joined parts apart.
const WORD_PATTERN = /[A-Za-z0-9.#+/]*[A-Za-z0-9#+]/g;

/** Acronyms every cloud page uses, which name no product, protocol or standard of their own. */
const GENERIC_WORDS = new Set(
  [
    "API",
    "APIs",
    "AI",
    "ID",
    "IDs",
    "IP",
    "IPs",
    "SDK",
    "SDKs",
    "UI",
    "CLI",
    "IT",
    "SaaS",
    "PaaS",
    "IaaS",
    "VM",
    "VMs",
  ].map((word) => word.toLowerCase()),
);

export type { Span };

function taken(spans: Span[], start: number, end: number): boolean {
  return spans.some(([a, b]) => start < b && end > a);
}

/** Sentence starts: the text's beginning and after ". ", "! ", "? ", ": ", "; ". */
function sentenceStarts(text: string): Set<number> {
  const starts = new Set<number>([0]);
  for (const match of text.matchAll(/[.!?:;]\s+/g)) starts.add(match.index + match[0].length);
  return starts;
}

const isPlainCapitalised = (word: string) => /^[A-Z][a-z]*$/.test(word);
const hasCapital = (word: string) => /[A-Z]/.test(word);

/** The kinds of claim term a description holds: check:data counts each apart. */
export const CLAIM_TERM_KINDS = ["dates", "numbers", "names", "capabilities"] as const;
export type ClaimTermKind = (typeof CLAIM_TERM_KINDS)[number];

/** One claim term of a text and its kind. */
export interface ClaimTerm {
  readonly term: string;
  readonly kind: ClaimTermKind;
}

/** The claim terms of a text, in the order found, each once (case-insensitive): dates, numbers and names. */
export function claimTerms(text: string): string[] {
  return termsOf(text).terms.map(({ term }) => term);
}

/** Every claim term of a text with its kind: dates, numbers and names, then the capability terms left. */
export function claimTermsByKind(text: string): ClaimTerm[] {
  const { terms, spans } = termsOf(text);
  const seen = new Set(terms.map(({ term }) => term.toLowerCase()));
  const capabilities = capabilityTermsOutside(text, spans).filter((term) => {
    const key = term.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...terms, ...capabilities.map((term) => ({ term, kind: "capabilities" as const }))];
}

/** Dates, numbers and names of a text, each once, with the spans they were taken from. */
function termsOf(text: string): { terms: ClaimTerm[]; spans: Span[] } {
  const spans: Span[] = [];
  const found: { at: number; term: string; kind: ClaimTermKind }[] = [];
  const take = (pattern: RegExp, kind: ClaimTermKind) => {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken(spans, start, end)) continue;
      spans.push([start, end]);
      found.push({ at: start, term: match[0].trim(), kind });
    }
  };
  for (const pattern of DATE_PATTERNS) take(pattern, "dates");
  take(NUMBER_PATTERN, "numbers");
  // Names: runs of capitalised words (hyphens split a word: "S3-compatible" is S3).
  const starts = sentenceStarts(text);
  let run: { start: number; end: number } | undefined;
  const closeRun = () => {
    if (run) {
      spans.push([run.start, run.end]);
      found.push({ at: run.start, term: text.slice(run.start, run.end), kind: "names" });
    }
    run = undefined;
  };
  for (const match of text.matchAll(WORD_PATTERN)) {
    const word = match[0];
    const start = match.index;
    const end = start + word.length;
    const initial = starts.has(start) && isPlainCapitalised(word);
    if (!hasCapital(word) || initial || taken(spans, start, end)) {
      closeRun();
      continue;
    }
    // Words joined by one space continue a run (Active Directory); anything else starts a new one.
    if (run && text.slice(run.end, start) === " ") run.end = end;
    else {
      closeRun();
      run = { start, end };
    }
  }
  closeRun();
  const seen = new Set<string>();
  const terms = found
    .sort((a, b) => a.at - b.at)
    .map(({ term, kind }) => ({ term: term.replace(/[.,;:]+$/, ""), kind }))
    .filter(({ term }) => {
      const key = term.toLowerCase();
      if (term.length === 0 || seen.has(key) || GENERIC_WORDS.has(key)) return false;
      seen.add(key);
      return true;
    });
  // A generic acronym is no term, but its span is taken: it is no capability either.
  return { terms, spans };
}

/** Dates written in a text, as YYYY-MM-DD (a month alone as YYYY-MM), so that any form matches. */
function isoDates(text: string): string[] {
  const month = (name: string) => String(MONTHS.indexOf(name.toLowerCase() as (typeof MONTHS)[number]) + 1);
  const pad = (n: string) => n.padStart(2, "0");
  const dates: string[] = [...text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)].map((m) => m[0]);
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2}) (${MONTH}) (\\d{4})\\b`, "gi")))
    dates.push(`${m[3]}-${pad(month(m[2]!))}-${pad(m[1]!)}`);
  for (const m of text.matchAll(new RegExp(`\\b(${MONTH}) (\\d{1,2}),? (\\d{4})\\b`, "gi")))
    dates.push(`${m[3]}-${pad(month(m[1]!))}-${pad(m[2]!)}`);
  for (const m of text.matchAll(new RegExp(`\\b(${MONTH}) (\\d{4})\\b`, "gi")))
    dates.push(`${m[2]}-${pad(month(m[1]!))}`);
  return dates;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Whether a claim text states a term: the same words (or the same date in any form), case-insensitive. */
export function states(claim: string, term: string): boolean {
  return statedBy(term)(claim);
}

/** `states` for one term, to check it against many claims (its dates and pattern made once). */
function statedBy(term: string): (claim: string) => boolean {
  const termDates = isoDates(term);
  const words = term.split(/\s+/).map(escape).join("\\s+");
  const pattern = new RegExp(`(?<![\\w])${words}(?![\\w])`, "i");
  return (claim) => {
    if (termDates.length > 0) {
      const claimDates = isoDates(claim);
      if (termDates.every((date) => claimDates.some((other) => other === date || other.startsWith(`${date}-`))))
        return true;
    }
    return pattern.test(claim);
  };
}

/** What every face says beside a description whose Service.descriptionBacked is false. */
export const DESCRIPTION_NOT_BACKED =
  "Description not yet backed: no source the catalogue read states each of its claims (names, numbers, dates, protocols, capabilities).";

/** What decides whether a service's description terms are backed. */
export interface ClaimContext {
  readonly description?: string;
  /** The service's and its provider's names: backed by a source that backs identity. */
  readonly names: readonly string[];
  readonly sources: readonly { readonly backs: readonly string[]; readonly claims?: readonly string[] }[];
  /** The names of the compatibility terms the service claims, each with a vendor source stating it. */
  readonly compatibility?: readonly string[];
}

/** The description's claim terms no source of the service states. */
export function unbackedTerms(context: ClaimContext): string[] {
  return unbackedClaimTerms(context).map(({ term }) => term);
}

/** The description's claim terms no source of the service states, with their kinds. */
export function unbackedClaimTerms(context: ClaimContext): ClaimTerm[] {
  const claims = [...context.sources.flatMap((source) => source.claims ?? []), ...(context.compatibility ?? [])];
  const identity = context.sources.some((source) => source.backs.includes("identity"));
  const names = identity ? context.names.filter(Boolean) : [];
  // Each claim's stems once for all of the description's capability terms.
  let said: readonly ReadonlySet<string>[] | undefined;
  return claimTermsByKind(context.description ?? "").filter(({ term, kind }) => {
    if (kind !== "capabilities") {
      const stated = statedBy(term);
      return !claims.some(stated) && !names.some(stated);
    }
    said ??= claims.map(claimStems);
    return !said.some((stems) => statesCapability(stems, term)) && !names.some((name) => statesCapability(name, term));
  });
}

/**
 * A description is backed when a source that backs it was read for its claims (it lists some) and
 * every claim term is stated by one of the service's sources; undefined without a description.
 */
export function descriptionBacked(context: ClaimContext): boolean | undefined {
  if (!context.description) return undefined;
  const read = context.sources.some(
    (source) => source.backs.includes("description") && (source.claims ?? []).length > 0,
  );
  return read && unbackedTerms(context).length === 0;
}
