/**
 * placement.yaml and egress.yaml cross-checks (issue 114): every group named is a group of
 * equivalents.yaml, each job listed once; every egress entry a provider of the catalogue, listed
 * once, its price and waiver sourced on the provider's own domains, read no later than today, the
 * services it prices that provider's own, its bands in increasing order; the Data Act's periods in order, without a gap.
 */
import type { EgressFileT, PlacementFileT } from "../schema/exit-data.ts";
import { factSourceProblems, type ProviderAt } from "./entry-checks.ts";

export function placementProblems(
  file: PlacementFileT,
  at: string,
  groups: readonly { readonly id: string }[],
): string[] {
  const known = new Set(groups.map((group) => group.id));
  const problems: string[] = [];
  const seen = new Set<string>();
  file.follows.forEach((entry, i) => {
    const where = `${at}: follows.${i} (${entry.group})`;
    if (!known.has(entry.group)) problems.push(`${where}: not a group of equivalents.yaml`);
    if (seen.has(entry.group)) problems.push(`${where}: listed twice`);
    seen.add(entry.group);
    for (const served of entry.serves) {
      if (!known.has(served)) problems.push(`${where}: serves "${served}", not a group of equivalents.yaml`);
      if (served === entry.group) problems.push(`${where}: serves itself`);
    }
  });
  return problems;
}

export function egressProblems(
  file: EgressFileT,
  at: string,
  providers: ReadonlyMap<string, ProviderAt>,
  providerOf: (slug: string) => string | undefined = () => undefined,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  file.providers.forEach((entry, i) => {
    const where = `${at}: providers.${i} (${entry.provider})`;
    const provider = providers.get(entry.provider);
    if (!provider) problems.push(`${where}: not a provider of the catalogue`);
    if (seen.has(entry.provider)) problems.push(`${where}: listed twice`);
    seen.add(entry.provider);
    const domains = provider?.file.officialDomains;
    if (entry.source)
      problems.push(...factSourceProblems("source", entry.source, domains).map((problem) => `${where}: ${problem}`));
    if (entry.waiver)
      problems.push(
        ...factSourceProblems("waiver.source", entry.waiver.source, domains).map((problem) => `${where}: ${problem}`),
      );
    for (const slug of entry.services ?? [])
      if (providerOf(slug) !== entry.provider)
        problems.push(`${where}: services: "${slug}" is not a service of ${entry.provider}`);
    const tiers = entry.tiers ?? [];
    tiers.forEach((tier, t) => {
      const last = t === tiers.length - 1;
      if (!last && tier.upToGb === undefined) problems.push(`${where}: tiers.${t}: only the last band may have no end`);
      const before = tiers[t - 1]?.upToGb;
      if (before !== undefined && tier.upToGb !== undefined && tier.upToGb <= before)
        problems.push(`${where}: tiers.${t}: upToGb ${tier.upToGb} is not above the band before (${before})`);
    });
  });
  const periods = file.dataAct.periods;
  problems.push(...factSourceProblems("dataAct.source", file.dataAct.source, undefined).map((p) => `${at}: ${p}`));
  periods.forEach((period, i) => {
    if (period.until !== undefined && period.until <= period.from)
      problems.push(`${at}: dataAct.periods.${i}: until ${period.until} is not after from ${period.from}`);
    const next = periods[i + 1];
    if (next && next.from !== period.until)
      problems.push(`${at}: dataAct.periods.${i + 1}: starts ${next.from}, not when the period before ends`);
    if (!next && period.until !== undefined) problems.push(`${at}: dataAct.periods.${i}: the last period has no end`);
  });
  return problems;
}
