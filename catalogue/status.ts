/** GET /v1/status: the catalogue's counts and the components' states rolled up into one status. */
import { API_VERSION } from "./contract.ts";
import type { Catalogue } from "./load.ts";
import type { ComponentStateT, ReplicationT, StatusReportT } from "./schema.ts";

/** The worst of the components' states: down, then degraded, else ok. */
export function rollUp(components: readonly ComponentStateT[]): ComponentStateT["status"] {
  if (components.some((c) => c.status === "down")) return "down";
  if (components.some((c) => c.status === "degraded")) return "degraded";
  return "ok";
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
