/**
 * Respelling a query word the catalogue does not know ("postgers", "kubernets") to the nearest
 * whole word it does: words of service names weigh most, then tags, sub-services and the shorthand
 * the search reads ("postgres"); among names, a word fewer services use identifies more.
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { SearchResult } from "minisearch";
import type { SearchData } from "./data.ts";
import { tokenize } from "./words.ts";
import { editDistance } from "../base/edit-distance.ts";

export class Speller {
  /** Whole words a query may be respelt to, with how much each identifies (a name's word most). */
  private readonly surface = new Map<string, number>();
  /** An index term (stemmed) → a whole word it came from, for "did you mean". */
  readonly surfaceOf = new Map<string, string>();
  /** The surface words with, for each, the set of its characters as a mask (nearestWord's quick test). */
  private candidates: readonly { readonly word: string; readonly weight: number; readonly mask: number }[] = [];

  private readonly data: SearchData;
  private readonly normalise: (word: string) => string;
  /** The index's words of names and tags in code-unit order, to find a word's completions by binary search. */
  private readonly sortedVocabulary: readonly string[];

  constructor(data: SearchData, normalise: (word: string) => string, vocabulary: Iterable<string>) {
    this.data = data;
    this.normalise = normalise;
    this.sortedVocabulary = [...vocabulary].sort();
    this.findSurfaceWords();
  }

  /** Whether a vocabulary word is this term or begins with it. */
  private startsAWord(term: string): boolean {
    let low = 0;
    let high = this.sortedVocabulary.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sortedVocabulary[mid]! < term) low = mid + 1;
      else high = mid;
    }
    return this.sortedVocabulary[low]?.startsWith(term) ?? false;
  }

  /** A respelling of the query's words when one was found only by a close spelling. */
  suggest(rest: readonly string[], results: readonly SearchResult[]): string | undefined {
    if (results.length === 0) return undefined;
    let changed = false;
    const terms = rest.map((word) => {
      const term = this.normalise(word);
      if (this.startsAWord(term)) return word;
      // The matched index term closest to this word, from the best results' match details.
      for (const result of results.slice(0, 5))
        for (const [matched, fields] of Object.entries(result.match)) {
          if (fields.length > 0 && editDistance(matched, term, 2) <= 2) {
            changed = true;
            return this.surfaceOf.get(matched) ?? matched;
          }
        }
      return word;
    });
    const respelt = terms.join(" ");
    return changed && respelt !== rest.join(" ") ? respelt : undefined;
  }

  /** Whether the word is one a query may be respelt to. */
  has(word: string): boolean {
    return this.surface.has(word);
  }

  /**
   * The words a misspelt query word may become: words of names (weighing most), tags, sub-services
   * and the shorthand the search reads ("postgres"); among names, a word fewer services use
   * identifies more.
   */
  private findSurfaceWords(): void {
    const uses = new Map<string, number>();
    const add = (word: string, weight: number) => {
      if (word.length < 3 || /\d/.test(word)) return;
      this.surface.set(word, Math.max(this.surface.get(word) ?? 0, weight));
      if (!this.surfaceOf.has(this.normalise(word))) this.surfaceOf.set(this.normalise(word), word);
    };
    for (const doc of this.data.docs)
      for (const word of new Set(doc.names.flatMap(tokenize))) uses.set(word, (uses.get(word) ?? 0) + 1);
    for (const [word, count] of uses) add(word, 3 + 1 / count);
    for (const doc of this.data.docs) {
      for (const word of doc.tags.flatMap(tokenize)) add(word, 2);
      for (const [name] of doc.subServices) for (const word of tokenize(name)) add(word, 1);
    }
    for (const [phrase] of this.data.words.phrases) if (phrase.length === 1) add(phrase[0]!, 2);
    this.candidates = [...this.surface].map(([word, weight]) => ({ word, weight, mask: charMask(word) }));
  }

  /**
   * Words the catalogue does not know, respelt to the nearest word it does (names, engines,
   * protocols and tags; shorthand it reads): a name's word before a rarer word at the same
   * distance. Undefined when every word is known.
   */
  respell(words: readonly string[], known: (word: string) => boolean): string[] | undefined {
    let changed = false;
    const respelt = words.map((word) => {
      if (word.length < 4 || /\d/.test(word) || known(word)) return word;
      const nearest = this.nearestWord(word);
      if (nearest) changed = true;
      return nearest ?? word;
    });
    return changed ? respelt : undefined;
  }

  private nearestWord(word: string): string | undefined {
    const most = word.length >= 7 ? 2 : 1;
    const mask = charMask(word);
    let best: { word: string; distance: number; weight: number } | undefined;
    for (const { word: candidate, weight, mask: candidateMask } of this.candidates) {
      if (Math.abs(candidate.length - word.length) > most) continue;
      // An edit adds or removes at most two characters from the set of those a word has.
      if (bitCount(mask ^ candidateMask) > 2 * most) continue;
      // Only as near as the best so far can still win (by weight).
      const d = editDistance(word, candidate, best?.distance ?? most);
      if (d > most) continue;
      if (!best || d < best.distance || (d === best.distance && weight > best.weight))
        best = { word: candidate, distance: d, weight };
    }
    return best?.word;
  }
}

/** Which of 32 classes of characters a word has (a character's code modulo 32; a–z are distinct). */
function charMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) & 31);
  return mask;
}

function bitCount(n: number): number {
  let count = 0;
  for (let rest = n; rest !== 0; rest &= rest - 1) count++;
  return count;
}
