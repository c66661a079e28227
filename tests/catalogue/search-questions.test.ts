/**
 * Issue 88: search that answers a question, in six languages. The held-out questions of
 * tests/fixtures/search-questions.ts (measured by scripts/maintenance/search-questions.ts), and each behaviour:
 * a sentence with an unknown word, each language, a respelling that would lose results, a named
 * provider, a vendor's abbreviation, and what a search that found nothing says on every face.
 */
import { describe, expect, it } from "vitest";
import { listServices } from "../../catalogue/search/query.ts";
import { serviceSearch } from "../../catalogue/search/search.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";
import { ASIDE_QUESTIONS, SEARCH_QUESTIONS } from "../fixtures/search-questions.ts";

const top = (query: string, n = 10) =>
  listServices(realCatalogue(), { q: query, page: 1, limit: n }).data.map((s) => s.slug);
const search = (query: string) => serviceSearch(realCatalogue()).search(query);

describe("the held-out questions", () => {
  it("name only services of the catalogue", () => {
    for (const { expect: expected } of [...SEARCH_QUESTIONS, ...ASIDE_QUESTIONS])
      for (const slug of expected) expect(realCatalogue().bySlug.has(slug), slug).toBe(true);
  });

  // Before (main at 9871213): 31 of 100 in the top 3, 32 in the top 10, 58 with no result. After:
  // 83, 91 and 2. The bar sits just under, so a change that loses a kind of question fails here.
  it("answer at least 80 of 100 in the top 3 and 88 in the top 10, and leave at most 3 empty", () => {
    // One search per question (the top 10), read three ways: the whole set is 100 searches.
    const ranked = SEARCH_QUESTIONS.map((q) => {
      const slugs = top(q.query, 10);
      return { query: q.query, slugs, rank: slugs.findIndex((slug) => q.expect.includes(slug)) };
    });
    const missed3 = ranked.filter(({ rank }) => rank < 0 || rank >= 3).map(({ query }) => query);
    const missed10 = ranked.filter(({ rank }) => rank < 0).map(({ query }) => query);
    const empty = ranked.filter(({ slugs }) => slugs.length === 0).map(({ query }) => query);
    expect(100 - missed3.length, `top 3 misses: ${missed3.join("; ")}`).toBeGreaterThanOrEqual(80);
    expect(100 - missed10.length, `top 10 misses: ${missed10.join("; ")}`).toBeGreaterThanOrEqual(88);
    expect(empty.length, `empty: ${empty.join("; ")}`).toBeLessThanOrEqual(3);
  });
});

describe("a sentence degrades gracefully", () => {
  it("an unknown word lowers a score instead of emptying the answer", () => {
    expect(top("message queue", 5)).toContain("aws-sqs");
    const sentence = search("message queue for background jobs");
    expect(sentence.slugs.slice(0, 5)).toContain("aws-sqs");
    const unknown = search("kubernetes frobnicate");
    expect(unknown.closest).toBe(true);
    expect(unknown.slugs.slice(0, 3)).toEqual(["aws-eks", "azure-kubernetes-service", "gcp-gke"]);
  });

  it("puts the services matching every word before those matching some", () => {
    const outcome = search("s3 express one zone");
    expect(outcome.slugs[0]).toBe("aws-s3");
    expect(outcome.subServices).toEqual({ "aws-s3": "S3 Express One Zone" });
  });

  it("reads intent words as jobs, from the data", () => {
    expect(top("run containers without managing servers", 3)).toContain("gcp-cloud-run");
    expect(top("who changed what in my cloud account", 5)).toContain("aws-cloudtrail");
    expect(top("translate text between languages", 3)).toEqual([
      "aws-translate",
      "azure-ai-translator",
      "gcp-translation",
    ]);
    expect(
      top("run a backup every night", 10).some((slug) => slug === "gcp-cloud-scheduler" || slug === "aws-backup"),
    ).toBe(true);
  });
});

describe("six languages reach the services their English form does", () => {
  const translation = ["aws-translate", "azure-ai-translator", "gcp-translation"];
  it.each([
    ["en", "translate text"],
    ["de", "Texte übersetzen"],
    ["de", "Text übersetzt"],
    ["fr", "traduire un texte"],
    ["it", "tradurre un testo"],
    ["es", "traducir textos"],
    ["nl", "tekst vertalen"],
  ])("%s: %s", (_language, query) => {
    expect(top(query, 3).filter((slug) => translation.includes(slug)).length, top(query, 3).join(" ")).toBeGreaterThan(
      0,
    );
  });

  it.each([
    ["de", "Objektspeicher"],
    ["fr", "stockage objet"],
    ["it", "archiviazione oggetti"],
    ["es", "almacenamiento de objetos"],
    ["nl", "objectopslag"],
  ])("object storage in %s: %s", (_language, query) => {
    expect(top(query, 3)).toEqual(top("object storage", 3));
  });

  it("never reads a catalogue word by a foreign stem, nor drops it as a foreign stop word", () => {
    // Spanish "registros" (logs) is no "registry"; Italian "ci" is no "CI".
    expect(top("container registry", 3)).toContain("aws-ecr");
    expect(top("ci cd", 10)).toContain("gcp-cloud-build");
  });
});

describe("respelling only when it helps", () => {
  it("never respells a word a language knows", () => {
    const queue = search("cola de mensajes");
    expect(queue.suggestion).toBeUndefined();
    expect(queue.slugs.slice(0, 3)).toContain("aws-sqs");
  });

  it("offers no respelling that finds fewer services than the query as typed", () => {
    expect(search("send password reset emails to my users").suggestion).toBeUndefined();
    expect(search("send password reset emails to my users").slugs.slice(0, 3)).toContain("aws-ses");
  });

  it("still mends a typo", () => {
    expect(search("kubernets").suggestion).toBe("kubernetes");
    expect(search("postgers").suggestion).toBe("postgres");
  });
});

describe("a named provider narrows or boosts", () => {
  it.each([
    ["point in time restore postgres azure", "azure-database-for-postgresql"],
    ["kubernetes on google cloud", "gcp-gke"],
    ["ovh object storage", "ovhcloud-object-storage"],
    ["azure message queue for background jobs", "azure-service-bus|azure-queue-storage"],
  ])("%s → %s first", (query, expected) => {
    expect(expected.split("|")).toContain(top(query, 1)[0]);
  });
});

describe("vendors' abbreviations from the services' names", () => {
  it("reads secops as Google Security Operations (issue 89)", () => {
    expect(top("secops", 1)).toEqual(["gcp-security-operations"]);
    expect(top("google secops", 1)).toEqual(["gcp-security-operations"]);
  });
});

describe("no dead end", () => {
  it("says which words matched nothing and the nearest jobs, in the API's answer", () => {
    const none = listServices(realCatalogue(), { q: "frobnicate my widgets", page: 1, limit: 10 });
    expect(none.pagination.total).toBe(0);
    expect(none.search?.unmatchedWords).toEqual(["frobnicate", "widgets"]);
    const near = listServices(realCatalogue(), { q: "nothing matches this", page: 1, limit: 10 });
    expect(near.pagination.total).toBe(0);
    expect(near.search?.unmatchedWords).toEqual(["nothing"]);
    expect(near.search?.nearestJobs?.length).toBeGreaterThan(0);
    const groups = new Set(realCatalogue().groups.map((group) => group.id));
    for (const job of near.search?.nearestJobs ?? []) expect(groups.has(job.id), job.id).toBe(true);
    // Found something: nothing to say.
    expect(
      listServices(realCatalogue(), { q: "kubernetes", page: 1, limit: 1 }).search?.unmatchedWords,
    ).toBeUndefined();
  });

  it("shows them on the text host's /search", async () => {
    const app = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store: await tempStore(),
      perMinute: 10_000,
    });
    const response = await app.inject({
      url: `/search?q=${encodeURIComponent("nothing matches this")}`,
      headers: { "user-agent": "curl/8", accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("No service has: nothing; the catalogue does not know what that is.");
    expect(response.body).toMatch(/Nearest jobs: \[[^\]]+\]\(\/equivalents\/[a-z0-9-]+\)/);
    await app.close();
  });
});
