import { brotliCompressSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactListCatalogue, expandListCatalogue } from "../../catalogue/lists/list-catalogue.ts";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import { PolicyRequestError } from "../../catalogue/policies/errors.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { approvedListDoc } from "../../catalogue/render/pages.ts";
import { realCatalogue } from "../helpers/app.ts";

/** The answer of a generator, or the error it throws, as comparable JSON. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof PolicyRequestError) return { error: error.title, details: error.message };
    throw error;
  }
}

describe("the compact list catalogue the site's list builder runs on", () => {
  const full = realCatalogue();
  const compact = compactListCatalogue(full);
  // Through JSON, as the browser receives it.
  const expanded = expandListCatalogue(JSON.parse(JSON.stringify(compact)));
  const slugs = full.services.map((service) => service.slug);

  // 160 KiB held the catalogue until decisions.md#approved-means-usable's dependency data (what each approved service needs to
  // deploy, with its vendor sources) took it to 165 KiB. The dependencies from AWS's CloudFormation
  // resource schemas (553 groups, 2,685 actions of 664 distinct, each action and the schemas' source
  // stored once) took it to 214 KiB, 42 KiB brotli-compressed; the 150 products the other providers'
  // inventories named (1,643 services) to 232 KiB, 47 KiB; the implicit needs of tools and types
  // (the deployment check's table, read by the dependencies) and 18 more products (1,676) to 48.1
  // KiB brotli: what is sent stays under 50.
  it("is small: under 248 KiB of JSON, 50 KiB brotli-compressed, for the whole catalogue", () => {
    const json = JSON.stringify(compact);
    const bytes = Buffer.byteLength(json);
    const compressed = brotliCompressSync(json).length;
    console.log(
      `list-catalogue.json: ${(bytes / 1024).toFixed(1)} KiB, ${(compressed / 1024).toFixed(1)} KiB brotli, ${slugs.length} services`,
    );
    expect(bytes).toBeLessThan(248 * 1024);
    expect(compressed).toBeLessThan(50 * 1024);
  });

  it("gives the same three policies, explained, and the same Markdown as the full catalogue for any list", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...slugs), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (ids, essentials) => {
          const options = { essentials };
          expect(outcome(() => scpPolicy(expanded, ids, options))).toEqual(
            outcome(() => scpPolicy(full, ids, options)),
          );
          expect(outcome(() => scpPolicy(expanded, ids, { ...options, strategy: "allow-list" }))).toEqual(
            outcome(() => scpPolicy(full, ids, { ...options, strategy: "allow-list" })),
          );
          expect(outcome(() => azurePolicySet(expanded, ids, options))).toEqual(
            outcome(() => azurePolicySet(full, ids, options)),
          );
          expect(outcome(() => gcpOrgPolicy(expanded, ids, options))).toEqual(
            outcome(() => gcpOrgPolicy(full, ids, options)),
          );
          expect(renderMarkdown(approvedListDoc(expanded, ids))).toBe(renderMarkdown(approvedListDoc(full, ids)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("lists every service with its name, provider and lifecycle", () => {
    expect(expanded.listed.size).toBe(slugs.length);
    const s3 = expanded.listed.get("aws-s3")!;
    expect(s3.service.name).toBe(full.bySlug.get("aws-s3")!.service.name);
    expect(s3.providerShortName).toBe("AWS");
  });
});
