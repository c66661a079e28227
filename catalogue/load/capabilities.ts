/**
 * capabilities.yaml cross-checks (issue 98): every capability defined once and used by a job;
 * every job a group; every service entry stating only capabilities of jobs it does, each once,
 * with a vendor page on its provider's domains behind what it has or lacks.
 */
import type { CapabilitiesFileT } from "../schema/capabilities.ts";
import { factSourceProblems, type ProviderAt, type ServiceAt } from "./entry-checks.ts";

export function capabilitiesProblems(
  file: CapabilitiesFileT,
  at: string,
  groups: readonly { readonly id: string; readonly services: readonly string[] }[],
  entries: ReadonlyMap<string, ServiceAt>,
  providers: ReadonlyMap<string, ProviderAt>,
  terms?: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const defined = new Set<string>();
  file.capabilities.forEach((capability, i) => {
    if (defined.has(capability.id)) problems.push(`${at}: capabilities.${i}: "${capability.id}" is defined twice`);
    if (capability.compatibility && terms && !terms.has(capability.compatibility))
      problems.push(
        `${at}: capabilities.${i}: compatibility "${capability.compatibility}" is not a term of compatibility.yaml`,
      );
    defined.add(capability.id);
  });
  const groupById = new Map(groups.map((group) => [group.id, group]));
  const jobs = new Map<string, readonly string[]>();
  const used = new Set<string>();
  file.jobs.forEach((job, i) => {
    if (!groupById.has(job.group)) problems.push(`${at}: jobs.${i}: "${job.group}" is not a group of equivalents.yaml`);
    if (jobs.has(job.group)) problems.push(`${at}: jobs.${i}: "${job.group}" is listed twice`);
    jobs.set(job.group, job.capabilities);
    for (const id of job.capabilities) {
      if (!defined.has(id)) problems.push(`${at}: jobs.${i} (${job.group}): capability "${id}" is not defined`);
      used.add(id);
    }
  });
  for (const id of defined) if (!used.has(id)) problems.push(`${at}: capability "${id}" is used by no job`);
  const seen = new Set<string>();
  file.services.forEach((entry, i) => {
    const where = `${at}: services.${i} (${entry.service})`;
    if (seen.has(entry.service)) problems.push(`${where}: listed twice`);
    seen.add(entry.service);
    const service = entries.get(entry.service);
    if (!service) return problems.push(`${where}: not a service in the catalogue`);
    // The capabilities of the jobs it does: a capability of a job it is not in says nothing here.
    const own = new Set(
      [...jobs].filter(([group]) => groupById.get(group)?.services.includes(entry.service)).flatMap(([, ids]) => ids),
    );
    const stated = [...(entry.has ?? []), ...(entry.partly ?? []), ...(entry.lacks ?? []), ...(entry.notKnown ?? [])];
    if (stated.length === 0) problems.push(`${where}: states no capability`);
    for (const id of stated) {
      if (!own.has(id)) problems.push(`${where}: "${id}" is not a capability of a job it does`);
      if (stated.filter((other) => other === id).length > 1)
        problems.push(`${where}: "${id}" is in more than one of has, lacks and notKnown`);
    }
    for (const id of Object.keys(entry.notes ?? {}))
      if (!stated.includes(id)) problems.push(`${where}: notes.${id}: not a capability stated here`);
    const claims = (entry.has ?? []).length + (entry.partly ?? []).length + (entry.lacks ?? []).length;
    if (claims > 0 && !entry.sources)
      problems.push(`${where}: has, partly and lacks need sources (the vendor pages stating them)`);
    for (const id of entry.partly ?? [])
      if (!entry.notes?.[id])
        problems.push(`${where}: partly "${id}" needs a note saying which part, as the vendor's page does`);
    // The engine's own pages may be on its project's domain; the service's sources say it runs it.
    (entry.engine?.sources ?? []).forEach((source, s) =>
      problems.push(
        ...factSourceProblems(`engine.sources.${s}`, source, undefined).map((problem) => `${where}: ${problem}`),
      ),
    );
    if (entry.engine && !entry.sources)
      problems.push(`${where}: engine needs the service's own sources stating it runs ${entry.engine.name}`);
    const domains = providers.get(service.providerId)?.file.officialDomains;
    (entry.sources ?? []).forEach((source, s) =>
      problems.push(...factSourceProblems(`sources.${s}`, source, domains).map((problem) => `${where}: ${problem}`)),
    );
  });
  return problems;
}
