/**
 * How the one search answers the question sets of tests/fixtures/search-questions.ts: per kind of
 * question, how many have an expected service in the top 3 and the top 10, and how many get no
 * results; then the mean time of one uncached search. `--aside` runs the set kept aside;
 * `--misses` lists the questions not answered in the top 3. `--alternatives` runs issue 101's set
 * (tests/fixtures/search-alternatives.ts): "alternative to X" in six languages, answered by one of
 * X's equivalents in the top 3 with X itself not there, and a misspelt word beside a known one.
 *
 *   node scripts/maintenance/search-questions.ts [--aside | --alternatives] [--misses]
 */
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { listServices } from "../../catalogue/search/query.ts";
import { ServiceSearch, searchData } from "../../catalogue/search/search.ts";
import {
  ASIDE_QUESTIONS,
  QUESTION_KINDS,
  SEARCH_QUESTIONS,
  type SearchQuestion,
} from "../../tests/fixtures/search-questions.ts";
import { ALTERNATIVE_KINDS, ALTERNATIVE_QUESTIONS } from "../../tests/fixtures/search-alternatives.ts";

const catalogue = loadCatalogue();
if (process.argv.includes("--alternatives")) {
  alternatives();
  process.exit(0);
}
const questions = process.argv.includes("--aside") ? ASIDE_QUESTIONS : SEARCH_QUESTIONS;
const top = (question: SearchQuestion) =>
  listServices(catalogue, { q: question.query, page: 1, limit: 10 }).data.map((service) => service.slug);

interface Tally {
  total: number;
  top3: number;
  top10: number;
  none: number;
}
const tallies = new Map<string, Tally>();
const misses: string[] = [];
for (const question of questions) {
  const slugs = top(question);
  const rank = slugs.findIndex((slug) => question.expect.includes(slug));
  for (const kind of [question.kind, "all"]) {
    const tally = tallies.get(kind) ?? { total: 0, top3: 0, top10: 0, none: 0 };
    tally.total++;
    if (rank >= 0 && rank < 3) tally.top3++;
    if (rank >= 0) tally.top10++;
    if (slugs.length === 0) tally.none++;
    tallies.set(kind, tally);
  }
  if (rank < 0 || rank >= 3)
    misses.push(`${question.kind}\t${question.query}\t→ ${slugs.slice(0, 5).join(" ") || "(none)"}`);
}

console.log("| kind | questions | top 3 | top 10 | no results |\n| --- | ---: | ---: | ---: | ---: |");
for (const kind of [...QUESTION_KINDS, "all"]) {
  const tally = tallies.get(kind);
  if (tally) console.log(`| ${kind} | ${tally.total} | ${tally.top3} | ${tally.top10} | ${tally.none} |`);
}
if (process.argv.includes("--misses")) console.log(`\n${misses.join("\n")}`);

// Uncached: a fresh search (no cache of its own) over every question, three rounds after a warm-up.
const search = new ServiceSearch(searchData(catalogue));
for (const question of questions) search.search(question.query);
const started = performance.now();
for (let round = 0; round < 3; round++) for (const question of questions) search.search(question.query);
const perQuery = (performance.now() - started) / (3 * questions.length);
console.log(`\nmean search time: ${perQuery.toFixed(3)} ms per question (${questions.length} questions)`);

/** Issue 101's set: per kind, how many are answered in the top 3, and how many put the named service there. */
function alternatives(): void {
  const equivalentsOf = (slug: string) => catalogue.bySlug.get(slug)?.equivalentSlugs ?? [];
  const tallies = new Map<string, { total: number; answered: number; namedInTop3: number }>();
  const missed: string[] = [];
  for (const question of ALTERNATIVE_QUESTIONS) {
    const slugs = listServices(catalogue, { q: question.query, page: 1, limit: 10 }).data.map((s) => s.slug);
    const expected = question.expect === "equivalents" ? equivalentsOf(question.avoid!) : question.expect;
    const top3 = slugs.slice(0, 3);
    const namedInTop3 = question.avoid !== undefined && top3.includes(question.avoid);
    const answered = top3.some((slug) => expected.includes(slug)) && !namedInTop3;
    for (const kind of [question.kind, "all"]) {
      const tally = tallies.get(kind) ?? { total: 0, answered: 0, namedInTop3: 0 };
      tally.total++;
      if (answered) tally.answered++;
      if (namedInTop3) tally.namedInTop3++;
      tallies.set(kind, tally);
    }
    if (!answered) missed.push(`${question.kind}\t${question.query}\t→ ${slugs.slice(0, 5).join(" ") || "(none)"}`);
  }
  console.log("| kind | questions | answered (top 3) | named service in top 3 |\n| --- | ---: | ---: | ---: |");
  for (const kind of [...ALTERNATIVE_KINDS, "all"]) {
    const tally = tallies.get(kind);
    if (tally) console.log(`| ${kind} | ${tally.total} | ${tally.answered} | ${tally.namedInTop3} |`);
  }
  if (process.argv.includes("--misses")) console.log(`\n${missed.join("\n")}`);
}
