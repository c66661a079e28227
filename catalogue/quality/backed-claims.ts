/**
 * Backed claims per provider (issue 100): how much of what the catalogue says its sources state,
 * counted per claim rather than per `backs` tag, and the claims no source states. A claim is
 *
 * - description: each claim term of the description (rule "claim terms", ../load/claim-terms.ts),
 *   counted by kind too: dates, numbers, names and (issue 115) capabilities;
 * - identity: the service's name, stated in the claims of a source that backs identity;
 * - compliance: each programme of the service's own compliance, named by a source that backs
 *   compliance (its `programmes`, or the service's whole list when it names none);
 * - lifecycle: the sunset or retirement date, stated in the claims of a source that backs lifecycle.
 *
 * A description or lifecycle claim no source states fails check:data unless the committed baseline
 * (unbacked-claims.txt, read by backed-claims.node.ts) lists it; the baseline can only shrink: an
 * entry that is now backed, or no longer a claim, fails too, so that it is taken out.
 */
import type { Catalogue } from "../load/load.ts";
import {
  CLAIM_TERM_KINDS,
  claimTermsByKind,
  states,
  unbackedClaimTerms,
  type ClaimTermKind,
} from "../load/claim-terms.ts";

export const CLAIM_FACES = ["description", "identity", "compliance", "lifecycle"] as const;
export type ClaimFace = (typeof CLAIM_FACES)[number];
/** The faces whose unbacked claims fail the check (the others are counted). */
export const FAILING_FACES = ["description", "lifecycle"] as const satisfies readonly ClaimFace[];

/** One claim no source states: a baseline line is `slug<TAB>face<TAB>term`. */
export interface UnbackedClaim {
  readonly slug: string;
  readonly face: (typeof FAILING_FACES)[number];
  readonly term: string;
}

export const baselineKey = (claim: UnbackedClaim) => `${claim.slug}\t${claim.face}\t${claim.term}`;

export interface ProviderClaims {
  readonly providerId: string;
  /** Per face, claims stated by a source and claims made. */
  readonly counts: Record<ClaimFace, { backed: number; claims: number }>;
  /** The description's claims by kind of term (they add up to counts.description). */
  readonly kinds: Record<ClaimTermKind, { backed: number; claims: number }>;
  /** Services with a description, and those whose description is backed (Service.descriptionBacked). */
  readonly descriptions: number;
  readonly descriptionsBacked: number;
}

export interface BackedClaims {
  readonly providers: ProviderClaims[];
  readonly unbacked: UnbackedClaim[];
}

/** Every service's claims, counted per provider, and the description and lifecycle claims no source states. */
export function backedClaims(catalogue: Catalogue): BackedClaims {
  const byProvider = new Map<string, ProviderClaims>();
  const unbacked: UnbackedClaim[] = [];
  for (const service of catalogue.services) {
    const provider = catalogue.providerById.get(service.providerId)!.provider;
    const sources = catalogue.bySlug.get(service.slug)!.sources;
    const row =
      byProvider.get(service.providerId) ??
      ({
        providerId: service.providerId,
        counts: Object.fromEntries(
          CLAIM_FACES.map((face) => [face, { backed: 0, claims: 0 }]),
        ) as ProviderClaims["counts"],
        kinds: Object.fromEntries(
          CLAIM_TERM_KINDS.map((kind) => [kind, { backed: 0, claims: 0 }]),
        ) as ProviderClaims["kinds"],
        descriptions: 0,
        descriptionsBacked: 0,
      } satisfies ProviderClaims);
    byProvider.set(service.providerId, row);
    const claimsOf = (fact: "identity" | "lifecycle") =>
      sources.filter((source) => source.backs.includes(fact)).flatMap((source) => source.claims ?? []);

    if (service.description) {
      const terms = claimTermsByKind(service.description);
      const missing = unbackedClaimTerms({
        description: service.description,
        names: [service.name, service.shortName ?? "", ...(service.aliases ?? []), provider.name, provider.shortName],
        sources,
        compatibility: catalogue.bySlug
          .get(service.slug)!
          .compatibility.map((claim) => catalogue.compatibilityById.get(claim.id)?.name ?? claim.id),
      });
      row.counts.description.claims += terms.length;
      row.counts.description.backed += terms.length - missing.length;
      for (const { kind } of terms) row.kinds[kind].claims++;
      for (const { kind } of terms) row.kinds[kind].backed++;
      for (const { kind } of missing) row.kinds[kind].backed--;
      (row as { descriptions: number }).descriptions++;
      if (service.descriptionBacked) (row as { descriptionsBacked: number }).descriptionsBacked++;
      for (const { term } of missing) unbacked.push({ slug: service.slug, face: "description", term });
    }

    const identityClaims = claimsOf("identity");
    row.counts.identity.claims++;
    if ([service.name, service.shortName].some((name) => name && identityClaims.some((c) => states(c, name))))
      row.counts.identity.backed++;

    for (const programme of service.compliance ?? []) {
      row.counts.compliance.claims++;
      const named = sources.some(
        (source) =>
          source.backs.includes("compliance") && (source.programmes ?? service.compliance ?? []).includes(programme),
      );
      if (named) row.counts.compliance.backed++;
    }

    const date = service.lifecycle?.sunsetDate;
    if (date) {
      row.counts.lifecycle.claims++;
      if (claimsOf("lifecycle").some((claim) => states(claim, date))) row.counts.lifecycle.backed++;
      else unbacked.push({ slug: service.slug, face: "lifecycle", term: date });
    }
  }
  return { providers: [...byProvider.values()].sort((a, b) => a.providerId.localeCompare(b.providerId)), unbacked };
}

const share = ({ backed, claims }: { backed: number; claims: number }) =>
  claims === 0 ? "–" : `${backed}/${claims} (${((backed / claims) * 100).toFixed(1)} %)`;

/**
 * One line per provider: backed claims per face, the description's by kind (names, numbers, dates,
 * capabilities), and descriptions wholly backed.
 */
export function backedClaimLines(report: BackedClaims): string[] {
  return report.providers.map(
    (row) =>
      `${row.providerId}: ${CLAIM_FACES.map((face) => `${face} ${share(row.counts[face])}`).join(", ")}; description by kind: ${CLAIM_TERM_KINDS.map((kind) => `${kind} ${share(row.kinds[kind])}`).join(", ")}; descriptions backed ${row.descriptionsBacked}/${row.descriptions}`,
  );
}

/** The whole catalogue's figures (issue 128's targets): descriptions backed in full, and description claims backed. */
export function backedClaimTotals(report: BackedClaims): string {
  const sum = (pick: (row: ProviderClaims) => number) => report.providers.reduce((total, row) => total + pick(row), 0);
  const descriptions = sum((row) => row.descriptions);
  const backed = sum((row) => row.descriptionsBacked);
  const claims = sum((row) => row.counts.description.claims);
  const claimsBacked = sum((row) => row.counts.description.backed);
  return `all: descriptions backed ${backed}/${descriptions} (${((100 * backed) / descriptions).toFixed(1)} %), description claims backed ${claimsBacked}/${claims} (${((100 * claimsBacked) / claims).toFixed(1)} %)`;
}

/** New unbacked claims (not in the baseline) and baseline entries that no longer fail. */
export function backedClaimProblems(report: BackedClaims, baseline: ReadonlySet<string>): string[] {
  const now = new Set(report.unbacked.map(baselineKey));
  const fresh = report.unbacked
    .filter((claim) => !baseline.has(baselineKey(claim)))
    .map(
      (claim) =>
        `UNBACKED_CLAIM: ${claim.slug}: the ${claim.face} says "${claim.term}" but no source's claims state it; add it to the claims of the source whose page states it, or take it out of the ${claim.face}`,
    );
  const stale = [...baseline]
    .filter((key) => !now.has(key))
    .map(
      (key) =>
        `UNBACKED_CLAIM_BASELINE: "${key.replaceAll("\t", " | ")}" is backed now (or no longer said); take it out of catalogue/data/unbacked-claims.txt (npm run check:data -- --shrink-claims-baseline)`,
    );
  return [...fresh, ...stale];
}
