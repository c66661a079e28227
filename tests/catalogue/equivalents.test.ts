import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import {
  DEFAULT_MATRIX_PROVIDERS,
  equivalenceGroup,
  equivalenceMatrix,
  matrixColumns,
  providersBySize,
} from "../../catalogue/equivalence/equivalents.ts";
import { EquivalenceGroupDetail, EquivalenceMatrix } from "../../catalogue/schema/index.ts";
import { build, fixtureCatalogue, realCatalogue, URLS } from "../helpers/app.ts";

describe("the equivalence matrix", () => {
  it("has one row per group, every member once, by provider, largest portfolio first", () => {
    const catalogue = realCatalogue();
    const matrix = EquivalenceMatrix.parse(equivalenceMatrix(catalogue));
    expect(matrix.data.map((row) => row.id)).toEqual(catalogue.groups.map((group) => group.id));
    const order = providersBySize(catalogue);
    expect(matrix.providers.map((p) => p.id)).toEqual(order);
    for (const row of matrix.data) {
      const group = catalogue.groups.find((g) => g.id === row.id)!;
      const slugs = row.members.flatMap((member) => member.services.map((s) => s.slug));
      expect(slugs.sort()).toEqual([...group.services].sort());
      const providers = row.members.map((member) => member.providerId);
      expect(providers).toEqual([...providers].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
      for (const member of row.members)
        for (const service of member.services)
          expect(catalogue.bySlug.get(service.slug)!.service.providerId).toBe(member.providerId);
      expect(catalogue.categoryById.has(row.category)).toBe(true);
    }
  });

  it("puts each provider's flagship first: EC2 before Lightsail, ElastiCache before MemoryDB", () => {
    const matrix = equivalenceMatrix(realCatalogue());
    const first = (group: string, provider: string) =>
      matrix.data.find((row) => row.id === group)!.members.find((m) => m.providerId === provider)!.services[0]!.slug;
    expect(first("virtual-machines", "aws")).toBe("aws-ec2");
    expect(first("managed-redis", "aws")).toBe("aws-elasticache");
    expect(first("managed-kubernetes", "aws")).toBe("aws-eks");
  });

  it("answers one group in full, or nothing for an unknown id", () => {
    const detail = EquivalenceGroupDetail.parse(equivalenceGroup(fixtureCatalogue(), "object-storage"));
    expect(detail.members[0]!.providerId).toBe("aws");
    expect(detail.members[0]!.services[0]!.slug).toBe("aws-s3");
    expect(detail.members[0]!.services[0]!.category).toBe("storage");
    expect(equivalenceGroup(fixtureCatalogue(), "nope")).toBeUndefined();
  });

  it("chooses the asked providers as columns, else the three largest", () => {
    const catalogue = realCatalogue();
    expect(matrixColumns(catalogue, [])).toEqual(providersBySize(catalogue).slice(0, DEFAULT_MATRIX_PROVIDERS));
    expect(matrixColumns(catalogue, ["ovhcloud", "nope", "aws", "ovhcloud"])).toEqual(["ovhcloud", "aws"]);
  });

  it("is written as static files, one per group", () => {
    const catalogue = fixtureCatalogue();
    const rows = ENDPOINTS.filter((row) => row.path.startsWith("/v1/equivalents"));
    expect(rows.map((row) => row.path)).toEqual(["/v1/equivalents", "/v1/equivalents/{id}"]);
    const files = rows.flatMap((row) => [...row.static!.files!(catalogue, URLS, ENDPOINTS)].map((f) => f.file));
    expect(files).toEqual(["v1/equivalents.json", ...catalogue.groups.map((g) => `v1/equivalents/${g.id}.json`)]);
  });
});

describe("GET /v1/equivalents", () => {
  it("answers the matrix and one group, and a 404 in the Error shape for an unknown group", async () => {
    const app = await build();
    const matrix = await app.inject("/v1/equivalents");
    expect(matrix.statusCode).toBe(200);
    expect(matrix.json().data.length).toBe(realCatalogue().groups.length);
    const group = await app.inject("/v1/equivalents/object-storage");
    expect(group.statusCode).toBe(200);
    expect(group.json().members[0].services[0].slug).toBe("aws-s3");
    const missing = await app.inject("/v1/equivalents/no-such-group");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, error: "Equivalence group not found" });
    const odd = await app.inject("/v1/equivalents/..%2F..%2Fetc");
    expect(odd.statusCode).toBe(404);
    await app.close();
  });
});
