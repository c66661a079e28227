/**
 * Issue 101: a mirror run's summary says what the pulled catalogue changed. After pulling a
 * provider whose regions had changed it said "catalogue changes pulled: no changes", as only the
 * services' release changes (added, removed, renamed, lifecycle) were compared.
 */
import { describe, expect, it } from "vitest";
import { pulledChanges } from "../../scripts/mirror-changes.ts";

const provider = { id: "stackit", name: "STACKIT", regions: [{ id: "eu01" }] };
const service = {
  slug: "stackit-object-storage",
  providerId: "stackit",
  name: "Object Storage",
  description: "Buckets.",
};
const dump = (changes: { providers?: object[]; services?: object[]; categories?: object[] } = {}) => ({
  providers: (changes.providers ?? [provider]) as Record<string, unknown>[],
  categories: (changes.categories ?? [{ id: "storage", name: "Storage" }]) as Record<string, unknown>[],
  services: (changes.services ?? [service]) as Record<string, unknown>[],
  equivalenceGroups: [],
});

describe("what a mirror run says it pulled", () => {
  it("says no changes only when the two catalogues are the same", () => {
    expect(pulledChanges(dump(), dump())).toEqual({ lines: [], summary: "no changes" });
  });

  it("names a provider whose fields changed, and which fields", () => {
    const changed = pulledChanges(
      dump(),
      dump({ providers: [{ ...provider, regions: [{ id: "eu01" }, { id: "eu02" }] }] }),
    );
    expect(changed.summary).toBe("1 provider changed");
    expect(changed.lines).toEqual(["provider stackit: regions changed"]);
  });

  it("counts services changed beyond their release changes, and reports a rename once", () => {
    const described = pulledChanges(
      dump(),
      dump({ services: [{ ...service, description: "Buckets, S3-compatible." }] }),
    );
    expect(described).toEqual({
      lines: ["service stackit-object-storage: description changed"],
      summary: "1 service otherwise changed",
    });
    const renamed = pulledChanges(
      dump(),
      dump({ services: [{ ...service, name: "Object Storage (S3)", description: "Other." }] }),
    );
    expect(renamed).toEqual({
      lines: ["renamed stackit-object-storage: Object Storage → Object Storage (S3)"],
      summary: "1 renamed",
    });
  });

  it("does not count a service changed because an equivalent it embeds was renamed", () => {
    const other = { slug: "aws-s3", providerId: "aws", name: "S3", equivalents: [service] };
    const renamedService = { ...service, name: "Object Storage (S3)" };
    const changed = pulledChanges(
      dump({ services: [service, other] }),
      dump({ services: [renamedService, { ...other, equivalents: [renamedService] }] }),
    );
    expect(changed.lines).toEqual(["renamed stackit-object-storage: Object Storage → Object Storage (S3)"]);
  });

  it("names categories and providers added or removed", () => {
    const changed = pulledChanges(
      dump(),
      dump({ providers: [provider, { id: "ionos", name: "IONOS" }], categories: [] }),
    );
    expect(changed.summary).toBe("1 provider added, 1 category removed");
    expect(changed.lines).toEqual(["provider added: ionos", "category removed: storage"]);
  });
});
