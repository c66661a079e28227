import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIdList, UnknownIdsError } from "../../catalogue/search/ids.ts";
import { slugify } from "../../catalogue/lists/lists.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import { listServices } from "../../catalogue/search/query.ts";
import { serviceSearch, stem, tokenize } from "../../catalogue/search/search.ts";
import { fixtureCatalogue } from "../helpers/app.ts";

const all = { page: 1, limit: 50 };

describe("search", () => {
  it("normalises case, accents and punctuation", () => {
    expect(tokenize("Ôbject-STORAGE, s3/compatible!")).toEqual(["object", "storage", "s3", "compatible"]);
  });

  it("puts the services matching every word first, by whole token, prefix or a close spelling", () => {
    const catalogue = fixtureCatalogue();
    const found = listServices(catalogue, { ...all, q: "OBJECT Störage" }).data.map((s) => s.slug);
    expect(found.slice(0, 3).sort()).toEqual(["aws-s3", "ovhcloud-object-storage", "stackit-object-storage"]);
    // Then those matching some of the words (few services match every word).
    expect(found.slice(3)).not.toContain("aws-s3");
    expect(listServices(catalogue, { ...all, q: "kube" }).data.map((s) => s.slug)).toEqual([
      "ovhcloud-managed-kubernetes",
    ]);
    expect(listServices(catalogue, { ...all, q: "kubernets" }).data.map((s) => s.slug)).toEqual([
      "ovhcloud-managed-kubernetes",
    ]);
  });

  it("answers the closest matches, said so, when no service has every word; nothing for nonsense", () => {
    const catalogue = fixtureCatalogue();
    const closest = listServices(catalogue, { ...all, q: "kubernetes xyzzyqwerty" });
    expect(closest.data.map((s) => s.slug)).toEqual(["ovhcloud-managed-kubernetes"]);
    expect(closest.search).toEqual({ closest: true });
    const none = listServices(catalogue, { ...all, q: "xyzzyqwerty" });
    expect(none.pagination.total).toBe(0);
    expect(none.search).toMatchObject({ closest: false, unmatchedWords: ["xyzzyqwerty"] });
    expect(listServices(catalogue, all).search).toBeUndefined();
  });

  it("treats a query naming a kind (an equivalence group) as naming its members, the largest provider first", () => {
    const slugs = listServices(fixtureCatalogue(), { ...all, q: "object storage" }).data.map((s) => s.slug);
    expect(slugs[0]).toBe("aws-s3");
    expect(slugs.slice(1, 3).sort()).toEqual(["ovhcloud-object-storage", "stackit-object-storage"]);
  });

  it("puts an exact name first and reads a provider word as whose", () => {
    const catalogue = fixtureCatalogue();
    expect(listServices(catalogue, { ...all, q: "amazon s3" }).data[0]!.slug).toBe("aws-s3");
    expect(listServices(catalogue, { ...all, q: "ovh object storage" }).data[0]!.slug).toBe("ovhcloud-object-storage");
    expect(serviceSearch(catalogue).search("ovh object storage").providers).toEqual(["ovhcloud"]);
  });

  it("stems plurals and reads k8s as kubernetes", () => {
    expect(stem("queues")).toBe("queue");
    expect(stem("policies")).toBe("policy");
    expect(stem("redis")).toBe("redis");
    expect(stem("aws")).toBe("aws");
    expect(listServices(fixtureCatalogue(), { ...all, q: "k8s" }).data.map((s) => s.slug)).toEqual([
      "ovhcloud-managed-kubernetes",
    ]);
  });

  it("never throws and only names services of the catalogue, for any query", () => {
    const catalogue = fixtureCatalogue();
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (q) => {
        for (const slug of serviceSearch(catalogue).search(q).slugs) expect(catalogue.bySlug.has(slug)).toBe(true);
      }),
    );
  });
});

describe("listServices", () => {
  it("filters by provider, category, free tier and lifecycle, and pages", () => {
    const catalogue = fixtureCatalogue();
    expect(listServices(catalogue, { ...all, provider: "aws" }).pagination.total).toBe(4);
    expect(listServices(catalogue, { ...all, category: "storage" }).pagination.total).toBe(4);
    expect(listServices(catalogue, { ...all, freeTier: true }).data.map((s) => s.slug)).toEqual(["aws-s3"]);
    expect(listServices(catalogue, { ...all, lifecycle: "retired" }).data.map((s) => s.slug)).toEqual([
      "aws-old-thing",
    ]);
    const page2 = listServices(catalogue, { page: 2, limit: 3 });
    expect(page2.pagination).toEqual({ page: 2, limit: 3, total: 7, totalPages: 3 });
    expect(page2.data).toHaveLength(3);
    expect(listServices(catalogue, { page: 9, limit: 3 }).data).toEqual([]);
  });

  it("orders by provider then name without q", () => {
    const services = listServices(fixtureCatalogue(), all).data;
    const keys = services.map((s) => `${s.providerId}\u0000${s.name}`);
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b, "en")));
  });
});

describe("parseIdList", () => {
  it("trims, drops duplicates and names unknown slugs", () => {
    const catalogue = fixtureCatalogue();
    expect(parseIdList(catalogue, " aws-s3 ,aws-s3,stackit-object-storage,", 10)).toEqual([
      "aws-s3",
      "stackit-object-storage",
    ]);
    expect(() => parseIdList(catalogue, "", 10)).toThrow(HttpError);
    expect(() => parseIdList(catalogue, "", 10)).toThrow("ids is required");
    expect(() => parseIdList(catalogue, "aws-s3,aws-lambda", 1)).toThrow("Too many ids");
    let unknown: unknown;
    try {
      parseIdList(catalogue, "aws-s3,nope", 10);
    } catch (error) {
      unknown = error;
    }
    expect(unknown).toBeInstanceOf(UnknownIdsError);
    expect(unknown).toMatchObject({ statusCode: 400, ids: ["nope"], details: "Not in the catalogue: nope" });
  });
});

describe("slugify", () => {
  it("follows docs/design.md: NFKD, marks stripped, lowercase, other runs to -, trimmed, cut to 64", () => {
    expect(slugify("  Équipe Plateforme: Base-line 2026! ")).toBe("equipe-plateforme-base-line-2026");
    expect(slugify("x")).toBeNull();
    expect(slugify("!!!")).toBeNull();
    expect(slugify("a".repeat(70))).toHaveLength(64);
  });

  it("always yields a valid list slug or null", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        const slug = slugify(name);
        if (slug !== null) expect(slug).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/);
      }),
    );
  });
});
