/** GET /v1/status: the catalogue's counts and the components' states rolled up into one status. */
import type { Catalogue } from "../load/load.ts";
import type { ComponentStateT, ReplicationT, StatusRecordT, StatusReportT } from "../schema/index.ts";
import { API_VERSION } from "../base/version.ts";

/** The worst of the components' states: down, then degraded, else ok. */
export function rollUp(components: readonly ComponentStateT[]): ComponentStateT["status"] {
  if (components.some((c) => c.status === "down")) return "down";
  if (components.some((c) => c.status === "degraded")) return "degraded";
  return "ok";
}

/** One history record of a sample of every component: their roll-up, the slowest check, what is wrong. */
export function statusRecord(components: readonly ComponentStateT[], timestamp: string): StatusRecordT {
  const wrong = components.filter((c) => c.status !== "ok").map((c) => `${c.component}: ${c.message ?? c.status}`);
  return {
    component: "all",
    status: rollUp(components),
    latencyMs: Math.max(0, ...components.map((c) => c.latencyMs)),
    message: wrong.length > 0 ? wrong.join("; ") : null,
    timestamp,
    components: [...components],
  };
}

/** Services per lifecycle status (active services are not counted). */
export function lifecycleCounts(catalogue: Catalogue): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const service of catalogue.services)
    if (service.lifecycle) counts[service.lifecycle.status] = (counts[service.lifecycle.status] ?? 0) + 1;
  return counts;
}

export function statusReport(
  catalogue: Catalogue,
  components: ComponentStateT[],
  replication?: ReplicationT,
): StatusReportT {
  return {
    status: rollUp(components),
    apiVersion: API_VERSION,
    counts: {
      providers: catalogue.providers.length,
      categories: catalogue.categories.length,
      services: catalogue.services.length,
      equivalenceGroups: catalogue.groups.length,
      lifecycle: lifecycleCounts(catalogue),
    },
    lastUpdated: catalogue.lastUpdated,
    components,
    ...(replication ? { replication } : {}),
  };
}
