/**
 * AWS's IAM service list, day by day (aws-iam-data's changelog.json: per day the services added and
 * removed from the Service Authorization Reference, by name). What the lifecycle sweep needs of it:
 * the services that left the reference and did not come back under another name. A rename shows
 * as a removal and an addition; it is paired by name similarity on the same day, or by the same
 * name coming back later (AWS's reference sometimes drops and restores a name).
 */
import { similarity } from "./refresh.ts";

export interface IamChangelogDay {
  readonly dateOfChange: string;
  readonly addedServices: readonly string[];
  readonly removedServices: readonly string[];
}

export interface IamRemoval {
  readonly date: string;
  readonly name: string;
  /** The name it came back as: the same day's most similar addition, or the same name later. */
  readonly renamedTo?: string;
  readonly restoredOn?: string;
}

/** Same-day pairs need at least this similarity (refresh.ts's, on the bare names) or shared words. */
const RENAME_SIMILARITY = 0.5;

const words = (name: string) =>
  new Set(
    name
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .split(/\s+/)
      .filter((word) => word.length > 1 && !["aws", "amazon", "service", "the", "and", "for"].includes(word)),
  );

/** A word of one name equal to, or (4+ letters) inside, a word of the other: Omics in HealthOmics. */
function related(a: string, b: string): number {
  const [x, y] = [words(a), words(b)];
  const inside = (word: string, other: Set<string>) =>
    [...other].some((candidate) => candidate === word || (word.length >= 4 && candidate.includes(word)));
  const shared = [...x].filter(
    (word) => inside(word, y) || [...y].some((other) => other.length >= 4 && word.includes(other)),
  ).length;
  const overlap = shared / Math.max(1, Math.min(x.size, y.size));
  return Math.max(similarity(a, b), overlap);
}

/** The same service under the vendor's prefixes and articles: "AWS Tag Editor" and "Tag Editor". */
export const sameName = (a: string, b: string) => [...words(a)].sort().join(" ") === [...words(b)].sort().join(" ");

/** Every removal between from and to (inclusive, YYYY-MM-DD), oldest first, with its rename if any. */
export function iamRemovals(days: readonly IamChangelogDay[], from = "0000-00-00", to = "9999-12-31"): IamRemoval[] {
  const sorted = [...days].sort((a, b) => a.dateOfChange.localeCompare(b.dateOfChange));
  const removals: IamRemoval[] = [];
  sorted.forEach((day, index) => {
    if (day.dateOfChange < from || day.dateOfChange > to) return;
    const added = new Set(day.addedServices);
    for (const name of [...day.removedServices].sort()) {
      const candidates = [...added]
        .map((other) => ({ other, score: related(name, other) }))
        .filter(({ score }) => score >= RENAME_SIMILARITY)
        .sort((a, b) => b.score - a.score || a.other.localeCompare(b.other));
      const match = candidates[0];
      if (match) {
        added.delete(match.other);
        removals.push({ date: day.dateOfChange, name, renamedTo: match.other });
        continue;
      }
      const back = sorted.slice(index + 1).find((later) => later.addedServices.some((other) => sameName(name, other)));
      removals.push({ date: day.dateOfChange, name, ...(back ? { restoredOn: back.dateOfChange } : {}) });
    }
  });
  return removals;
}

/** The removals that are neither renamed nor restored: candidates for a retired lifecycle entry. */
export const ended = (removals: readonly IamRemoval[]) =>
  removals.filter((removal) => !removal.renamedTo && !removal.restoredOn);
