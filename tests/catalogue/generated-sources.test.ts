/**
 * Sources generated from a dataset say so and match it: every Google Cloud source read through
 * iann0036/iam-dataset cites, for one of the service's own API names, the REST reference URL the
 * vendored table (catalogue/reference/gcp-apis.csv) gives, dated by the dataset's release.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { realCatalogue } from "../helpers/app.ts";

const IAM_DATASET = "https://github.com/iann0036/iam-dataset/blob/2073fa5/gcp/map.json";

function referenceUrls(): Map<string, string> {
  const path = fileURLToPath(new URL("../../catalogue/reference/gcp-apis.csv", import.meta.url));
  const [, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  return new Map(lines.map((line) => line.split(",")).map(([short, , url]) => [`${short}.googleapis.com`, url!]));
}

describe("sources generated from a dataset", () => {
  it("cite, for Google Cloud, the REST reference of one of the service's own APIs, dated by the dataset", () => {
    const urls = referenceUrls();
    let checked = 0;
    for (const record of realCatalogue().bySlug.values()) {
      const apis = (record.policyIdentifiers.apiServices ?? []).map((api) => api.name);
      for (const source of record.sources.filter((s) => s.via === IAM_DATASET)) {
        checked++;
        expect(source, record.service.slug).toMatchObject({ asOf: "2026-08-22", backs: ["identifiers"] });
        expect(
          apis.map((api) => urls.get(api)),
          record.service.slug,
        ).toContain(source.url);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  // A repository file at a commit names its copy exactly, even where the stored copy gives no date.
  it("date every copy that is not the page itself, or pin it to a commit", () => {
    const pinned = /^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//;
    for (const record of realCatalogue().bySlug.values())
      for (const source of record.sources.filter((s) => s.via && !pinned.test(s.via)))
        expect(source.asOf, `${record.service.slug} ${source.url}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
