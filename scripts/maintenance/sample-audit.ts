/**
 * `node scripts/maintenance/sample-audit.ts [seed]`: draws a sample of 40 services (Fisher–Yates over the sorted
 * slugs, mulberry32 PRNG, default seed 20261127) and checks each of its compliance, lifecycle,
 * identifier and verified claims against what the repository holds of the sources they cite: AWS's
 * vendored scope tables, the vendored IAM-prefix and Azure resource-type references. Prints one line
 * per service and field, then the counts per field (right / wrong / without a source / not checkable
 * here). Writes nothing; docs/audit-compliance-2026-11-26.md records a run.
 *
 * `node scripts/maintenance/sample-audit.ts --other-providers <seed>`: the same draw among the services of every
 * provider but AWS, Azure and Google Cloud; prints the 40 slugs in drawn order, for a field-by-field
 * audit by hand (docs/audit-providers-2026-11-26.md records one).
 *
 * `node scripts/maintenance/sample-audit.ts --backed <seed> [size]`: the same draw, 15 (or `size`) among
 * the services whose description is backed (Service.descriptionBacked); prints each description's
 * claim terms with the source claim (and its page) or the name that states each, and whether that
 * claim is found word for word in the vendored excerpt of the pinned copy the source cites (`via`),
 * then the counts (docs/audits/sample-2026-11-28-issue-115.md records one).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { servicesForRow, type ScopeRow } from "../../catalogue/compliance/aws-scope.ts";
import { awsScopePages } from "../../catalogue/compliance/aws-scope-pages.ts";
import { loadCatalogue, type Catalogue } from "../../catalogue/load/load.ts";
import type { ServiceT } from "../../catalogue/schema/index.ts";
import { claimTermsByKind, states } from "../../catalogue/load/claim-terms.ts";
import { statesCapability } from "../../catalogue/load/capability-terms.ts";
import { quoteFound } from "../../catalogue/quality/backed-copies.ts";
import { readCopyExcerpts } from "../../catalogue/quality/copies.node.ts";

type Verdict = "right" | "wrong" | "unsourced" | "unchecked" | "none";
const SAMPLE = 40;

function draw(slugs: readonly string[], seed: number, size = SAMPLE): string[] {
  let state = seed;
  const rnd = () => {
    state |= 0;
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...slugs].sort();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled.slice(0, size);
}

const referenceLines = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../../catalogue/reference/${file}`, import.meta.url)), "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(/\s/)[0]!.toLowerCase());
const awsPrefixes = new Set(referenceLines("aws-iam-prefixes.txt"));
const azureTypes = new Set(referenceLines("azure-resource-types.txt"));
/** Google API names (`<name>.googleapis.com`) of the vendored iam-dataset table (catalogue/reference/gcp-apis.csv). */
const googleApis = new Set(
  referenceLines("gcp-apis.csv")
    .slice(1)
    .map((line) => `${line.split(",")[0]}.googleapis.com`),
);

/** Per AWS scope page id, its rows (to find which rows name a service). */
const awsRows = new Map(awsScopePages().map((page) => [page.url, page.rowsOf(page.html)]));

function complianceVerdict(catalogue: Catalogue, service: ServiceT): Verdict {
  const own = service.compliance ?? [];
  if (own.length === 0) return "none";
  const { sources } = catalogue.bySlug.get(service.slug)!;
  const backing = (id: string) =>
    sources.filter((s) => s.backs.includes("compliance") && (s.programmes ?? own).includes(id));
  if (own.some((id) => backing(id).length === 0)) return "unsourced";
  if (service.providerId !== "aws") return "unchecked";
  const candidate = {
    slug: service.slug,
    names: [service.name, ...(service.shortName ? [service.shortName] : []), ...(service.aliases ?? [])],
  };
  // Each programme: a row of the cited page that names this service ticks it.
  const ticked = (url: string, id: string) =>
    (awsRows.get(url) ?? []).some(
      (row: ScopeRow) => row.programmes.includes(id) && servicesForRow(row, [candidate]).includes(service.slug),
    );
  return own.every((id) => backing(id).some((s) => ticked(s.url, id))) ? "right" : "wrong";
}

function identifiersVerdict(catalogue: Catalogue, service: ServiceT): Verdict {
  const { policyIdentifiers: ids, sources } = catalogue.bySlug.get(service.slug)!;
  const prefixes = ids.iamPrefixes ?? [];
  const types = ids.resourceTypes ?? [];
  const apis = (ids.apiServices ?? []).map((api) => api.name);
  if (prefixes.length + types.length + apis.length === 0) return ids.other ? "unchecked" : "none";
  // An API the vendored table lacks is not wrong, only not checkable here.
  if (apis.some((api) => !googleApis.has(api))) return "unchecked";
  const known = prefixes.every((p) => awsPrefixes.has(p)) && types.every((t) => azureTypes.has(t.toLowerCase()));
  if (!known) return "wrong";
  return sources.some((s) => s.backs.includes("identifiers")) ? "right" : "unsourced";
}

function lifecycleVerdict(catalogue: Catalogue, service: ServiceT): Verdict {
  if (!service.lifecycle) return "none";
  const { sources } = catalogue.bySlug.get(service.slug)!;
  if (!service.lifecycle.announcementUrl || !sources.some((s) => s.backs.includes("lifecycle"))) return "unsourced";
  return "unchecked";
}

function verifiedVerdict(catalogue: Catalogue, service: ServiceT): Verdict {
  const { sources } = catalogue.bySlug.get(service.slug)!;
  if (sources.length === 0) return service.verified || service.lastVerified ? "wrong" : "none";
  const kinds = new Set(sources.flatMap((s) => s.backs));
  const claimed = Object.keys(service.verified ?? {});
  return claimed.length === kinds.size && claimed.every((kind) => kinds.has(kind as never)) ? "right" : "wrong";
}

const FIELDS = {
  compliance: complianceVerdict,
  identifiers: identifiersVerdict,
  lifecycle: lifecycleVerdict,
  verified: verifiedVerdict,
};

const HYPERSCALERS = new Set(["aws", "azure", "gcp"]);
const otherProviders = process.argv[2] === "--other-providers";
const backedOnly = process.argv[2] === "--backed";
const seed = Number(process.argv[otherProviders || backedOnly ? 3 : 2] ?? 20261127);
const catalogue = loadCatalogue();
if (backedOnly) {
  const BACKED_SAMPLE = Number(process.argv[4] ?? 15);
  const excerptOf = new Map(readCopyExcerpts().map((copy) => [copy.via, copy.excerpt]));
  const found: Record<string, number> = {};
  const backed = catalogue.services.filter((service) => service.descriptionBacked === true);
  console.log(`seed ${seed}: ${BACKED_SAMPLE} of ${backed.length} services whose description is backed`);
  for (const slug of draw(
    backed.map((service) => service.slug),
    seed,
    BACKED_SAMPLE,
  )) {
    const { service, sources } = catalogue.bySlug.get(slug)!;
    const names = [service.name, service.shortName ?? "", ...(service.aliases ?? [])].filter(Boolean);
    console.log(`\n## ${slug}: ${service.description}`);
    for (const { term, kind } of claimTermsByKind(service.description ?? "")) {
      const stated = kind === "capabilities" ? statesCapability : states;
      const source = sources.find((s) => (s.claims ?? []).some((claim) => stated(claim, term)));
      const claim = source?.claims?.find((c) => stated(c, term));
      const by = source
        ? `${source.url}: "${claim}"`
        : names.some((name) => stated(name, term))
          ? "(the service's name)"
          : "(the provider's name or a compatibility term)";
      const excerpt = source?.via ? excerptOf.get(source.via) : undefined;
      const copy = !source
        ? "name"
        : excerpt === undefined
          ? "no excerpted copy"
          : quoteFound(claim!, excerpt)
            ? "in its copy"
            : "NOT in its copy";
      found[copy] = (found[copy] ?? 0) + 1;
      console.log(`- ${term} [${kind}] ← ${by} (${copy})`);
    }
  }
  console.log(
    `\nclaim terms: ${Object.entries(found)
      .map(([copy, n]) => `${copy} ${n}`)
      .join(", ")}`,
  );
  process.exit(0);
}
if (otherProviders) {
  const others = catalogue.services.filter((service) => !HYPERSCALERS.has(service.providerId));
  console.log(`seed ${seed}: ${SAMPLE} of ${others.length} services of the other providers`);
  for (const slug of draw(
    others.map((service) => service.slug),
    seed,
  ))
    console.log(slug);
  process.exit(0);
}
const sample = draw(
  catalogue.services.map((service) => service.slug),
  seed,
);
const counts = Object.fromEntries(Object.keys(FIELDS).map((field) => [field, {} as Record<Verdict, number>]));
console.log(`seed ${seed}: ${sample.length} of ${catalogue.services.length} services`);
for (const slug of sample) {
  const service = catalogue.bySlug.get(slug)!.service;
  const verdicts = Object.entries(FIELDS).map(([field, check]) => {
    const verdict = check(catalogue, service);
    counts[field]![verdict] = (counts[field]![verdict] ?? 0) + 1;
    return `${field} ${verdict}`;
  });
  console.log(`| ${slug} | ${(service.compliance ?? []).length} programmes | ${verdicts.join(" | ")} |`);
}
for (const [field, byVerdict] of Object.entries(counts))
  console.log(
    `${field}: ${Object.entries(byVerdict)
      .map(([verdict, n]) => `${verdict} ${n}`)
      .join(", ")}`,
  );
