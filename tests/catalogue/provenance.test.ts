import { describe, expect, it } from "vitest";
import { assembleCatalogue, readCatalogueSource, type CatalogueSource } from "../../catalogue/load/load.ts";
import { lifecycleSourceProblems, staleLifecycleGaps } from "../../catalogue/quality/lifecycle-sources.ts";
import { groupProblems, lineageProblems, provenance, provenanceProblems } from "../../catalogue/quality/quality.ts";
import { unsourcedProblems } from "../../catalogue/quality/unsourced.ts";
import { communitySourceProblems } from "../../catalogue/quality/community-sources.ts";
import { serviceFileOf } from "../../catalogue/load/load-services.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";

/** The fixture's validated source with one service entry changed, assembled without the loader's checks (as a built catalogue-source.json would be). */
function withEntry(slug: string, change: (entry: Record<string, unknown>) => void) {
  const source = structuredClone(readCatalogueSource(FIXTURE_DIR)) as CatalogueSource;
  const item = source.services.find(({ entry }) => entry.slug === slug)!;
  change(item.entry);
  return assembleCatalogue(source);
}

describe("provenance gates", () => {
  it("counts services with sources, sources, compliance entries and lifecycle links", () => {
    const report = provenance(assembleCatalogue(readCatalogueSource(FIXTURE_DIR)));
    expect(report).toMatchObject({
      servicesWithSources: 1,
      sources: 2,
      lifecycleEntries: 3,
      lifecycleWithAnnouncement: 0,
      lifecycleWithSource: 0,
    });
    // The entries' own programmes only: aws-s3's pci-dss, not AWS's three provider-wide ones times four services.
    expect(report.complianceEntries).toEqual({ aws: 1, ovhcloud: 0, stackit: 0 });
  });

  it("asks for the announcement of every non-active lifecycle, and nothing of aws-s3", () => {
    const problems = provenanceProblems(assembleCatalogue(readCatalogueSource(FIXTURE_DIR)));
    const needsSource = (at: string, status: string) =>
      `${at}: field sources: a ${status} service needs a source that backs lifecycle (the vendor's announcement or the notice on its documentation)`;
    expect(problems).toEqual([
      "services/aws/cloud9.yaml: field lifecycle.announcementUrl: a deprecated service needs the vendor's announcement",
      "services/aws/old-thing.yaml: field lifecycle.announcementUrl: a retired service needs the vendor's announcement",
      "services/ovhcloud/managed-kubernetes.yaml: field lifecycle.announcementUrl: a preview service needs the vendor's announcement",
      needsSource("services/aws/cloud9.yaml", "deprecated"),
      needsSource("services/aws/old-thing.yaml", "retired"),
      needsSource("services/ovhcloud/managed-kubernetes.yaml", "preview"),
    ]);
  });

  it("fails a compliance programme no source backs", () => {
    const catalogue = withEntry("aws-s3", (entry) => {
      entry.sources = [{ url: "https://docs.aws.amazon.com/s3/", retrieved: "2026-11-25", backs: ["identity"] }];
    });
    expect(provenanceProblems(catalogue)).toContain(
      "services/aws/s3.yaml: field compliance: pci-dss without a source that backs compliance (the provider's published scope naming this service)",
    );
  });

  it("fails a programme the compliance sources do not name when they name theirs", () => {
    const catalogue = withEntry("aws-s3", (entry) => {
      entry.compliance = ["pci-dss", "soc-2"];
      entry.sources = [
        {
          url: "https://aws.amazon.com/compliance/services-in-scope/",
          retrieved: "2026-11-26",
          asOf: "2022-07-15",
          backs: ["compliance"],
          programmes: ["pci-dss"],
        },
      ];
    });
    expect(provenanceProblems(catalogue)).toContain(
      "services/aws/s3.yaml: field compliance: soc-2 without a source that backs compliance (the provider's published scope naming this service)",
    );
  });

  it("fails compliance on a retired service", () => {
    const catalogue = withEntry("aws-old-thing", (entry) => {
      entry.compliance = ["soc-2"];
      entry.sources = [
        { url: "https://aws.amazon.com/compliance/services-in-scope/", retrieved: "2026-11-25", backs: ["compliance"] },
      ];
    });
    expect(provenanceProblems(catalogue)).toContain(
      "services/aws/old-thing.yaml: field compliance: a retired service carries no compliance programme",
    );
  });

  it("passes a lifecycle with its announcement listed as a source that backs it", () => {
    const catalogue = withEntry("aws-cloud9", (entry) => {
      entry.lifecycle = {
        status: "deprecated",
        announcementUrl: "https://aws.amazon.com/blogs/devops/",
      };
      entry.sources = [{ url: "https://aws.amazon.com/blogs/devops/", retrieved: "2026-11-26", backs: ["lifecycle"] }];
    });
    expect(provenanceProblems(catalogue).filter((problem) => problem.includes("services/aws/cloud9.yaml"))).toEqual([]);
  });

  it("fails a non-active lifecycle whose only source backs something else (decisions.md#facts-carry-sources)", () => {
    const catalogue = withEntry("aws-cloud9", (entry) => {
      entry.lifecycle = { status: "deprecated", announcementUrl: "https://aws.amazon.com/blogs/devops/" };
      entry.sources = [{ url: "https://docs.aws.amazon.com/cloud9/", retrieved: "2026-11-26", backs: ["identity"] }];
    });
    expect(lifecycleSourceProblems(catalogue, {})).toEqual([
      "services/aws/cloud9.yaml: field sources: a deprecated service needs a source that backs lifecycle (the vendor's announcement or the notice on its documentation)",
      expect.stringContaining("services/aws/old-thing.yaml: field sources: a retired service needs"),
      expect.stringContaining("services/ovhcloud/managed-kubernetes.yaml: field sources: a preview service needs"),
    ]);
  });

  it("refuses a CLI or CDK reference as the lifecycle source or announcement (decisions.md#facts-carry-sources)", () => {
    const announced = withEntry("aws-cloud9", (entry) => {
      entry.lifecycle = { status: "deprecated", announcementUrl: "https://docs.aws.amazon.com/cdk/api/v2/docs/x.html" };
    });
    expect(lifecycleSourceProblems(announced, {})).toContain(
      "services/aws/cloud9.yaml: field lifecycle.announcementUrl: https://docs.aws.amazon.com/cdk/api/v2/docs/x.html is a CLI or CDK reference, not the vendor's announcement",
    );
    const catalogue = withEntry("aws-cloud9", (entry) => {
      entry.lifecycle = { status: "deprecated", announcementUrl: "https://aws.amazon.com/blogs/devops/" };
      entry.sources = [
        {
          url: "https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cloud9-readme.html",
          retrieved: "2026-11-26",
          backs: ["lifecycle"],
        },
        {
          url: "https://docs.aws.amazon.com/cli/latest/reference/cloud9/",
          retrieved: "2026-11-26",
          backs: ["lifecycle"],
        },
      ];
    });
    expect(
      lifecycleSourceProblems(catalogue, {}).filter((problem) => problem.includes("services/aws/cloud9.yaml")),
    ).toEqual([
      "services/aws/cloud9.yaml: field sources: https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cloud9-readme.html is a CLI or CDK reference, not the vendor's announcement; cite the notice itself",
      "services/aws/cloud9.yaml: field sources: https://docs.aws.amazon.com/cli/latest/reference/cloud9/ is a CLI or CDK reference, not the vendor's announcement; cite the notice itself",
    ]);
  });

  it("lets a listed gap through, and fails the list when it goes stale (decisions.md#facts-carry-sources)", () => {
    const fixture = assembleCatalogue(readCatalogueSource(FIXTURE_DIR));
    const gaps = { "aws-old-thing": "searched, not found", "aws-s3": "active", "aws-gone": "renamed" };
    expect(
      lifecycleSourceProblems(fixture, gaps).filter((problem) => /services\/aws\/(old-thing|s3)\.yaml/.test(problem)),
    ).toEqual(["services/aws/s3.yaml: listed in LIFECYCLE_WITHOUT_VENDOR_SOURCE but active; take it out of the list"]);
    expect(staleLifecycleGaps(fixture, gaps)).toEqual([
      "LIFECYCLE_WITHOUT_VENDOR_SOURCE: aws-gone is not in the catalogue; take it out of the list",
    ]);
    const sourced = withEntry("aws-old-thing", (entry) => {
      entry.sources = [{ url: "https://aws.amazon.com/blogs/aws/", retrieved: "2026-11-26", backs: ["lifecycle"] }];
    });
    expect(lifecycleSourceProblems(sourced, gaps)).toContain(
      "services/aws/old-thing.yaml: listed in LIFECYCLE_WITHOUT_VENDOR_SOURCE but has a source that backs lifecycle; take it out of the list",
    );
  });

  it("fails a lastVerified that no source supports", () => {
    const source = structuredClone(readCatalogueSource(FIXTURE_DIR)) as CatalogueSource;
    const catalogue = assembleCatalogue(source);
    const forged = {
      ...catalogue,
      services: catalogue.services.map((service) =>
        service.slug === "aws-lambda" ? { ...service, lastVerified: "2026-11-23" } : service,
      ),
    };
    expect(provenanceProblems(forged)).toContain(
      "services/aws/lambda.yaml: field lastVerified: 2026-11-23 is not the newest checked date of its sources (none)",
    );
  });

  it("fails a retired service in an equivalence group", () => {
    const source = structuredClone(readCatalogueSource(FIXTURE_DIR)) as CatalogueSource;
    const group = source.groups.find((g) => g.id === "object-storage")!;
    (group.services as string[]).push("aws-old-thing");
    expect(provenanceProblems(assembleCatalogue(source))).toContain(
      "equivalents.yaml: object-storage: field services: aws-old-thing is retired; remove it (the service names its successor)",
    );
  });
});

describe("group and lineage gates (decisions.md#exit-ranking)", () => {
  const withGroups = (groups: CatalogueSource["groups"], change?: (source: CatalogueSource) => CatalogueSource) => {
    const source = { ...readCatalogueSource(FIXTURE_DIR), groups };
    return assembleCatalogue(change ? change(source) : source);
  };
  const storage = ["aws-s3", "ovhcloud-object-storage", "stackit-object-storage"];

  it("fails a member filed under another category without a reason, and a reason left on a member that needs none", () => {
    const mixed = withGroups([{ id: "object-storage", name: "Object storage", services: [...storage, "aws-lambda"] }]);
    expect(groupProblems(mixed)).toEqual([
      expect.stringMatching(
        /object-storage: field otherCategories\.aws-lambda: aws-lambda is in serverless, the group in storage/,
      ),
    ]);
    const reasoned = withGroups([
      {
        id: "object-storage",
        name: "Object storage",
        services: [...storage, "aws-lambda"],
        otherCategories: { "aws-lambda": "It stores objects.", "aws-s3": "It is storage." },
      },
    ]);
    expect(groupProblems(reasoned)).toEqual([
      expect.stringMatching(
        /otherCategories\.aws-s3: aws-s3 is in the group's own category \(storage\); remove the reason/,
      ),
    ]);
    // A stated category settles a tie.
    const tied = withGroups([
      { id: "pair", name: "Pair", category: "serverless", services: ["aws-lambda", "ovhcloud-object-storage"] },
    ]);
    expect(groupProblems(tied)).toEqual([
      expect.stringMatching(/ovhcloud-object-storage is in storage, the group in serverless/),
    ]);
  });

  it("fails a lineage whose origin shares no group with it", () => {
    const lineage = (source: CatalogueSource): CatalogueSource => ({
      ...source,
      services: source.services.map((item) =>
        item.entry.slug === "stackit-object-storage"
          ? {
              ...item,
              entry: {
                ...item.entry,
                lineage: { origin: "aws-s3", source: { url: "https://docs.stackit.cloud/x", retrieved: "2026-11-20" } },
              },
            }
          : item,
      ),
    });
    expect(
      lineageProblems(withGroups([{ id: "object-storage", name: "Object storage", services: storage }], lineage)),
    ).toEqual([]);
    expect(
      lineageProblems(
        withGroups(
          [{ id: "object-storage", name: "Object storage", services: ["aws-s3", "ovhcloud-object-storage"] }],
          lineage,
        ),
      ),
    ).toEqual([
      expect.stringMatching(
        /services\/stackit\/object-storage\.yaml: field lineage\.origin: aws-s3 shares no equivalence group/,
      ),
    ]);
  });

  it("refuses a source in a community area of an official domain, by host and path", () => {
    const area = { domain: "aws.amazon.com", pathPrefix: "/forum/", why: "user posts" };
    expect(communitySourceProblems(assembleCatalogue(readCatalogueSource(FIXTURE_DIR)), [area])).toEqual([]);
    const cited = withEntry("aws-s3", (entry) => {
      entry.sources = [
        { url: "https://www.aws.amazon.com/forum/thread/1", retrieved: "2026-11-27", backs: ["description"] },
        { url: "https://aws.amazon.com/forumsearch/", retrieved: "2026-11-27", backs: ["description"] },
      ];
    });
    expect(communitySourceProblems(cited, [area])).toEqual([
      expect.stringMatching(
        /services\/aws\/s3\.yaml: field sources\.0\.url: https:\/\/www\.aws\.amazon\.com\/forum\/thread\/1 is in a community area \(user posts\)/,
      ),
    ]);
  });

  it("asks every unsourced service to cite a page or be listed with what was searched, and keeps the list true", () => {
    const catalogue = assembleCatalogue(readCatalogueSource(FIXTURE_DIR));
    const sourced = catalogue.services.filter((service) => catalogue.bySlug.get(service.slug)!.sources.length > 0);
    const bare = catalogue.services.filter((service) => catalogue.bySlug.get(service.slug)!.sources.length === 0);
    expect(sourced.length).toBeGreaterThan(0);
    expect(bare.length).toBeGreaterThan(0);
    const listed = Object.fromEntries(bare.map((service) => [service.slug, "searched, not found"]));
    expect(unsourcedProblems(catalogue, listed)).toEqual([]);
    const problems = unsourcedProblems(catalogue, { ...listed, [sourced[0]!.slug]: "x", "no-such": "x" });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${serviceFileOf(sourced[0]!.providerId, sourced[0]!.slug)}: has a source now`),
        "SERVICES_WITHOUT_VENDOR_SOURCE: no-such is not in the catalogue; take it out of the list",
      ]),
    );
    const { [bare[0]!.slug]: _dropped, ...unlisted } = listed;
    expect(unsourcedProblems(catalogue, unlisted)).toEqual([
      expect.stringContaining(`${serviceFileOf(bare[0]!.providerId, bare[0]!.slug)}: field sources: none`),
    ]);
  });
});
