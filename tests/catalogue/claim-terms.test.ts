/**
 * Rule "claim terms" (issues 100 and 115): what of a description is a checkable claim (dates,
 * numbers, names and, since issue 115, the lower-case capability terms), when a source's
 * claims state it, the shrinking baseline of unbacked claims, and Service.descriptionBacked on the
 * real data (a description read for its claims shows so; one not yet read says so on every face).
 */
import { describe, expect, it } from "vitest";
import {
  claimTerms,
  claimTermsByKind,
  descriptionBacked,
  states,
  unbackedTerms,
} from "../../catalogue/load/claim-terms.ts";
import { statesCapability } from "../../catalogue/load/capability-terms.ts";
import { backedClaimProblems, backedClaims, baselineKey } from "../../catalogue/quality/backed-claims.ts";
import { readBaseline } from "../../catalogue/quality/unbacked-baseline.node.ts";
import { DEFAULT_DATA_DIR } from "../../catalogue/load/load.ts";
import { serviceDetail } from "../../catalogue/search/query.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { realCatalogue } from "../helpers/app.ts";

describe("claimTerms", () => {
  it("takes dates, numbers with their units, versions and names, each once", () => {
    expect(
      claimTerms(
        "Object storage with S3-compatible and NFS access, retrieval within 12 hours and 99.99 % availability; TLS 1.3 since 17 December 2025, PostgreSQL 16 and Active Directory.",
      ),
    ).toEqual([
      "S3",
      "NFS",
      "12 hours",
      "99.99 %",
      "TLS",
      "1.3",
      "17 December 2025",
      "PostgreSQL",
      "16",
      "Active Directory",
    ]);
  });

  it("leaves out a sentence's plain first word and generic acronyms, keeps an acronym that opens it", () => {
    expect(claimTerms("Managed Kafka clusters behind an API.")).toEqual(["Kafka"]);
    expect(claimTerms("NFS shares. Backups run nightly")).toEqual(["NFS"]);
    expect(claimTerms("Runs VMs with an SDK and a CLI")).toEqual([]);
  });

  it("reads a number glued to letters (3D, 10K) as a name, so that a claim saying it backs it", () => {
    expect(claimTerms("Renders 3D models on Thales payShield 10K devices, 3 zones and 5TB.")).toEqual([
      "3D",
      "Thales payShield 10K",
      "3 zones",
      "5TB",
    ]);
    expect(claimTerms("Streams GPT-4o output")).toEqual(["GPT"]);
    expect(
      unbackedTerms({
        description: "Rendered high-quality 3D models in the cloud.",
        names: [],
        sources: [{ backs: ["description"], claims: ["Renders high-quality interactive 3D models in the cloud."] }],
      }),
    ).toEqual([]);
  });
});

// Issue 115: "backed" read capitals and digits only, so aws-arc's "readiness checks, zonal shift,
// region switch" and Chime SDK's "screen sharing" passed with no page stating them.
describe("capability terms", () => {
  it("takes the lower-case phrases left between function words and punctuation, generic words dropped", () => {
    expect(
      claimTermsByKind(
        "Readiness checks, routing controls, zonal shift and region switch plans for recovering applications across Availability Zones.",
      ),
    ).toEqual([
      { term: "Availability Zones", kind: "names" },
      { term: "Readiness checks", kind: "capabilities" },
      { term: "routing controls", kind: "capabilities" },
      { term: "zonal shift", kind: "capabilities" },
      { term: "region switch plans", kind: "capabilities" },
      { term: "recovering", kind: "capabilities" },
    ]);
    // "Fully managed … service" says what kind of thing it is, not what it does; a hyphenated word is one.
    expect(claimTermsByKind("Fully managed MySQL service with point-in-time restore.").map(({ term }) => term)).toEqual(
      ["MySQL", "point-in-time restore"],
    );
  });

  it("is stated by a claim holding each of its words, by stem, never by a claim lacking one", () => {
    expect(statesCapability("Restores a database to a point in time", "point-in-time restore")).toBe(true);
    expect(statesCapability("Takes automated backups", "point-in-time restore")).toBe(false);
    expect(statesCapability("Users can share their screens in a meeting", "screen sharing")).toBe(true);
    expect(statesCapability("Audio and video meetings", "screen sharing")).toBe(false);
    const read = { backs: ["identity", "description"], claims: ["Object storage with routing control"] };
    expect(unbackedTerms({ description: "Object storage with zonal shift.", names: [], sources: [read] })).toEqual([
      "zonal shift",
    ]);
  });
});

describe("states", () => {
  it("matches whole words, case-insensitive, and a date in any written form", () => {
    expect(states("Speaks the nfs v4.1 protocol", "NFS")).toBe(true);
    expect(states("Speaks NFSv4", "NFS")).toBe(false);
    expect(states("qualified on 2025-12-17 by ANSSI", "17 December 2025")).toBe(true);
    expect(states("retires December 17, 2025", "2025-12-17")).toBe(true);
    expect(states("retires December 18, 2025", "2025-12-17")).toBe(false);
    expect(states("retrieval within 12 hours", "12 hours")).toBe(true);
    expect(states("retrieval within 120 hours", "12 hours")).toBe(false);
  });
});

describe("descriptionBacked", () => {
  const description = "Shares over NFS and SMB for Acme Files.";
  const names = ["Acme Files"];
  it("is true only when a description source lists claims and every term is stated", () => {
    const read = { backs: ["identity", "description"], claims: ["File shares over NFS v4.1 and SMB 3"] };
    expect(descriptionBacked({ description, names, sources: [read] })).toBe(true);
    expect(unbackedTerms({ description, names, sources: [{ ...read, claims: ["File shares over NFS"] }] })).toEqual([
      "SMB",
    ]);
    // A tag without a reading backs nothing, though no term is missing once SMB and NFS are claimed elsewhere.
    expect(descriptionBacked({ description, names, sources: [{ backs: ["identity", "description"] }] })).toBe(false);
    // The product's own name needs an identity source.
    expect(
      unbackedTerms({ description, names, sources: [{ backs: ["description"], claims: ["NFS and SMB shares"] }] }),
    ).toEqual(["Acme Files"]);
    // A compatibility term the service claims (its vendor source states it) backs its name.
    expect(unbackedTerms({ description, names, sources: [read], compatibility: ["Apache Kafka protocol"] })).toEqual(
      [],
    );
    expect(descriptionBacked({ names, sources: [read] })).toBeUndefined();
  });
});

describe("the baseline of unbacked claims", () => {
  const report = {
    providers: [],
    unbacked: [
      { slug: "x-a", face: "description" as const, term: "NFS" },
      { slug: "x-b", face: "lifecycle" as const, term: "2026-01-31" },
    ],
  };
  it("fails on an unbacked claim it does not list and on a line that is backed now", () => {
    const baseline = new Set([baselineKey(report.unbacked[0]!), "x-c\tdescription\tSMB"]);
    const problems = backedClaimProblems(report, baseline);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^UNBACKED_CLAIM: x-b: the lifecycle says "2026-01-31"/);
    expect(problems[1]).toMatch(/^UNBACKED_CLAIM_BASELINE: "x-c \| description \| SMB"/);
    expect(backedClaimProblems(report, new Set(report.unbacked.map(baselineKey)))).toEqual([]);
  });

  it("matches the real data exactly: every unbacked claim listed, every line still unbacked", () => {
    const real = backedClaims(realCatalogue());
    expect(backedClaimProblems(real, readBaseline(DEFAULT_DATA_DIR))).toEqual([]);
  });
});

describe("Service.descriptionBacked on the real data", () => {
  it("is true for a description whose terms its source's claims state (AWS Transfer Family)", () => {
    const catalogue = realCatalogue();
    const transfer = serviceDetail(catalogue, "aws-transfer-family")!;
    expect(transfer.descriptionBacked).toBe(true);
    const source = transfer.sources!.find((s) => s.backs.includes("description"))!;
    expect(source.claims!.join(" ")).toMatch(/SFTP/);
    // The text host shows what each source states beside it, and no "not yet backed" note.
    const page = JSON.stringify(servicePage(catalogue, "aws-transfer-family"));
    expect(page).toContain("states: ");
    expect(page).not.toContain("Description not yet backed");
  });

  it("is false, and said so on the text host's page, for one not yet read for its claims", () => {
    const catalogue = realCatalogue();
    const unread = catalogue.services.find((service) => service.descriptionBacked === false)!;
    expect(unread).toBeDefined();
    expect(JSON.stringify(servicePage(catalogue, unread.slug))).toContain("Description not yet backed");
  });
});
