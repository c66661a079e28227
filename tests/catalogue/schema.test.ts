import { describe, expect, it } from "vitest";
import {
  ApiError,
  ApprovedServicesBody,
  Category,
  FeedbackBody,
  Pagination,
  Provider,
  SavedListCreate,
  Service,
  ServiceDetail,
  ServiceEntry,
  ServiceLifecycle,
  ServiceSource,
  StatusRecord,
} from "../../catalogue/schema/index.ts";

describe("schemas", () => {
  it("round-trip the contract's resources", () => {
    const examples: [
      typeof Provider | typeof Category | typeof Service | typeof Pagination | typeof ApiError | typeof StatusRecord,
      unknown,
    ][] = [
      [
        Provider,
        {
          id: "aws",
          name: "Amazon Web Services",
          shortName: "AWS",
          logo: "/logos/aws.svg",
          documentationBaseUrl: "https://docs.aws.amazon.com/",
          defaultCompliance: ["soc-2"],
        },
      ],
      [
        Category,
        { id: "storage", name: "Storage", icon: "hard-drive", description: "Object, block and file storage." },
      ],
      [
        Service,
        {
          id: "aws-s3",
          slug: "aws-s3",
          providerId: "aws",
          name: "Amazon S3",
          category: "storage",
          hasFreeTier: true,
          tags: ["object storage"],
          lifecycle: {
            status: "sunset",
            sunsetDate: "2027-01-31",
            successorSlug: "aws-s3-express",
            note: "Migrate.",
            announcementUrl: "https://aws.amazon.com/blogs/x",
          },
        },
      ],
      [Pagination, { page: 1, limit: 50, total: 640, totalPages: 13 }],
      [ApiError, { error: "Not found", status: 404, details: "No service with slug x" }],
      [
        StatusRecord,
        {
          component: "all",
          status: "ok",
          latencyMs: 1.2,
          message: null,
          timestamp: "2026-11-22T10:00:00.000Z",
          components: [{ component: "store", status: "ok", latencyMs: 1.2, message: null }],
        },
      ],
    ];
    for (const [schema, example] of examples)
      expect(schema.parse(JSON.parse(JSON.stringify(example)))).toEqual(example);
  });

  it("require sunsetDate for sunset and retired, and not for the other statuses", () => {
    expect(ServiceLifecycle.safeParse({ status: "sunset" }).success).toBe(false);
    expect(ServiceLifecycle.safeParse({ status: "retired" }).success).toBe(false);
    expect(ServiceLifecycle.safeParse({ status: "retired", sunsetDate: "2024-02-30" }).success).toBe(false);
    expect(ServiceLifecycle.safeParse({ status: "deprecated" }).success).toBe(true);
    expect(ServiceLifecycle.safeParse({ status: "preview", gaTarget: "2027 H1" }).success).toBe(true);
    expect(ServiceLifecycle.safeParse({ status: "active" }).success).toBe(false);
  });

  it("accept the request bodies of the contract and refuse their boundaries", () => {
    expect(ApprovedServicesBody.safeParse({ approvedServiceIds: ["aws-s3"] }).success).toBe(true);
    expect(ApprovedServicesBody.safeParse({ approvedServiceIds: [] }).success).toBe(false);
    // The cap counts distinct ids (decisions.md#approved-means-usable): 501 different ids are refused, 600 copies of one accepted.
    const distinct = Array.from({ length: 501 }, (_, i) => `id-${i}`);
    expect(ApprovedServicesBody.safeParse({ approvedServiceIds: distinct }).success).toBe(false);
    expect(ApprovedServicesBody.safeParse({ approvedServiceIds: distinct.slice(0, 500) }).success).toBe(true);
    expect(ApprovedServicesBody.safeParse({ approvedServiceIds: Array(600).fill("aws-s3") }).success).toBe(true);
    expect(SavedListCreate.safeParse({ approvedServiceIds: ["aws-s3"], slug: "ab" }).success).toBe(true);
    for (const slug of ["a", "-ab", "ab-", "Ab", "a_b", "x".repeat(65)])
      expect(SavedListCreate.safeParse({ approvedServiceIds: ["aws-s3"], slug }).success, slug).toBe(false);
    expect(SavedListCreate.safeParse({ approvedServiceIds: ["aws-s3"], slug: "x".repeat(64) }).success).toBe(true);
    expect(FeedbackBody.safeParse({ message: "hello", email: "not-an-email" }).success).toBe(false);
    expect(FeedbackBody.safeParse({ message: "hello", email: "a@b.example", type: "bug", page: "/aws" }).success).toBe(
      true,
    );
  });

  it("hold a service's sources: an https page, the day it was read and what it backs (1.7.0, 1.8.0)", () => {
    const source = {
      url: "https://docs.aws.amazon.com/s3/",
      retrieved: "2026-11-26",
      checked: "2026-11-26",
      backs: ["identity", "compliance"],
    };
    expect(ServiceSource.parse(source)).toEqual(source);
    for (const bad of [
      { ...source, url: "http://docs.aws.amazon.com/s3/" },
      { ...source, retrieved: "26/11/2026" },
      { ...source, backs: [] },
      { ...source, backs: ["pricing"] },
      { ...source, note: "extra" },
    ])
      expect(ServiceSource.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    const detail = { id: "aws-s3", slug: "aws-s3", providerId: "aws", name: "Amazon S3", category: "storage" };
    const extras = { subServices: [], equivalents: [], policyIdentifiers: {} };
    expect(ServiceDetail.safeParse({ ...detail, ...extras, sources: [source] }).success).toBe(true);
    expect(ServiceDetail.safeParse({ ...detail, ...extras }).success).toBe(true);
  });

  it("refuse a hand-written lastVerified on a data-file entry, pointing to sources", () => {
    const entry = { slug: "aws-s3", name: "Amazon S3", category: "storage" };
    expect(ServiceEntry.safeParse(entry).success).toBe(true);
    const result = ServiceEntry.safeParse({ ...entry, lastVerified: "2026-11-23" });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ["lastVerified"] });
    expect(result.error!.issues[0]!.message).toMatch(/list the vendor pages you checked under sources/);
    expect(ServiceEntry.safeParse({ ...entry, sources: [] }).success).toBe(false);
  });
});
