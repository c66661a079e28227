/**
 * "Backed" proven (issue 124): every quote a backed description rests on, where its source cites
 * a pinned repository copy, is found word for word in that copy's vendored passage; a copy not
 * excerpted yet is listed, and the list may only shrink.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { realCatalogue } from "../helpers/catalogue.ts";
import {
  CopyExcerpts,
  UNPROVEN_COPIES,
  pinnedBackedClaims,
  quoteFound,
} from "../../catalogue/quality/backed-copies.ts";

const catalogue = realCatalogue();
const { copies } = CopyExcerpts.parse(
  parse(readFileSync(new URL("../../catalogue/reference/copies/excerpts.yaml", import.meta.url), "utf8")),
);
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
    // The list only shrinks: an entry excerpted since, or no longer cited, is taken out. Since
    // 2026-11-29 it is empty: every pinned copy a backed description cites is excerpted.
    expect(UNPROVEN_COPIES).toEqual([]);
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

  it("finds a quote only with its words in order, across markup and line breaks", () => {
    const copy =
      "Supporting multi-AZ,\n CCE ensures high availability of `Kubernetes <https://kubernetes.io/>`__ clusters.";
    expect(quoteFound("CCE ensures high availability of Kubernetes clusters.", copy)).toBe(true);
    expect(quoteFound("Supporting multi-AZ, … Kubernetes clusters.", copy)).toBe(true);
    expect(quoteFound("Kubernetes clusters … Supporting multi-AZ", copy)).toBe(false);
    // botocore's service models write their documentation in HTML.
    expect(
      quoteFound(
        "Welcome to the Amazon SQS API Reference.",
        "<p>Welcome to the <i>Amazon SQS API Reference</i>.</p> <p>Amazon SQS is",
      ),
    ).toBe(true);
    // Scaleway's pages write "fr\u2011par" with a non-breaking hyphen; a quote may type a plain one.
    expect(quoteFound("in Public Beta for the fr-par region", "in Public Beta for the fr\u2011par region")).toBe(true);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (word) => {
        const text = `alpha ${word} omega`;
        return quoteFound(text, text) && !quoteFound(`${text} zeta-not-there`, text);
      }),
    );
  });
});
