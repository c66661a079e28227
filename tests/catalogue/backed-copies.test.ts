/**
 * "Backed" proven (issue 124): every quote a backed description rests on, where its source cites
 * a pinned repository copy, is found word for word in that copy's vendored passage; a copy not
 * excerpted yet is listed, and the list may only shrink.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { realCatalogue } from "../helpers/catalogue.ts";
import {
  UNPROVEN_COPIES,
  isPinnedCopy,
  pinnedBackedClaims,
  quoteFound,
} from "../../catalogue/quality/backed-copies.ts";
import { readCopyExcerpts } from "../../catalogue/quality/copies.node.ts";

const catalogue = realCatalogue();
const copies = readCopyExcerpts();
const excerptOf = new Map(copies.map((copy) => [copy.via, copy.excerpt]));
const claims = pinnedBackedClaims(catalogue);

describe("backed descriptions against their pinned copies (issue 124)", () => {
  it("finds every quote of an excerpted copy in it, word for word", () => {
    const missing = claims
      .filter(({ via }) => excerptOf.has(via))
      .filter(({ via, claim }) => !quoteFound(claim, excerptOf.get(via)!))
      .map(({ slug, claim }) => `${slug}: ${claim}`);
    expect(missing).toEqual([]);
  });

  it("has every pinned copy a backed description cites excerpted or listed as not yet proven", () => {
    const cited = new Set(claims.map(({ via }) => via));
    expect([...cited].filter((via) => !excerptOf.has(via) && !UNPROVEN_COPIES.includes(via))).toEqual([]);
    // The list only shrinks: an entry excerpted since, or no longer cited, is taken out.
    expect(UNPROVEN_COPIES.filter((via) => excerptOf.has(via) || !cited.has(via))).toEqual([]);
    for (const copy of copies) expect(cited.has(copy.via), copy.via).toBe(true);
  });

  it("holds Elastx Mail Relay to quotes its copy has, after none of its four earlier ones were", () => {
    const elastx = claims.filter(({ slug }) => slug === "elastx-mail-relay");
    expect(elastx.length).toBeGreaterThanOrEqual(4);
    const copy = excerptOf.get(elastx[0]!.via)!;
    expect(
      quoteFound(
        "The Elastx Mail Relay service facilitates sending large numbers of emails and is especially suited for applications/services that needs to send emails.",
        copy,
      ),
    ).toBe(false);
  });

  it("takes a repository file at a full commit or a package's file at an exact version as a pinned copy", () => {
    expect(isPinnedCopy("https://unpkg.com/@aws-sdk/client-sqs@3.1175.0/README.md")).toBe(true);
    expect(isPinnedCopy("https://unpkg.com/oci-objectstorage@2.102.0/lib/client.d.ts")).toBe(true);
    expect(isPinnedCopy("https://github.com/boto/botocore/blob/0e6e2404b85dc336dd2889814e089bde7d1a4c55/x.json")).toBe(
      true,
    );
    // A range, a tag or a branch names no one copy.
    expect(isPinnedCopy("https://unpkg.com/@aws-sdk/client-sqs@^3/README.md")).toBe(false);
    expect(isPinnedCopy("https://unpkg.com/@aws-sdk/client-sqs/README.md")).toBe(false);
    expect(isPinnedCopy("https://github.com/boto/botocore/blob/develop/x.json")).toBe(false);
  });

  it("finds a quote across a code comment's line breaks, its markers dropped", () => {
    const proto =
      "  // An Interconnect resource is a dedicated connection between the Google\n  // Cloud network and your on-premises network.";
    const jsdoc =
      "    /**\n     * Represents a Persistent Disk resource.\n     * Persistent disks are required\n     * for running your VM instances.\n     */";
    expect(quoteFound("a dedicated connection between the Google Cloud network", proto)).toBe(true);
    expect(quoteFound("Persistent disks are required for running your VM instances.", jsdoc)).toBe(true);
    // A marker inside a line is text: a path's slashes stay.
    expect(quoteFound("projects locations", "see /projects/*/locations/*")).toBe(false);
  });

  it("finds a quote only with its words in order, across markup and line breaks", () => {
    const copy =
      "Supporting multi-AZ,\n CCE ensures high availability of `Kubernetes <https://kubernetes.io/>`__ clusters.";
    expect(quoteFound("CCE ensures high availability of Kubernetes clusters.", copy)).toBe(true);
    expect(quoteFound("Supporting multi-AZ, … Kubernetes clusters.", copy)).toBe(true);
    expect(quoteFound("Kubernetes clusters … Supporting multi-AZ", copy)).toBe(false);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (word) => {
        const text = `alpha ${word} omega`;
        return quoteFound(text, text) && !quoteFound(`${text} zeta-not-there`, text);
      }),
    );
  });
});
