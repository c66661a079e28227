/** How a picker names a chosen service: "Amazon S3 · AWS · active" (the page and its script alike). */
import { lifecycleLabel } from "../../../catalogue/render/pages.ts";
import type { ServiceT } from "../../../catalogue/schema/index.ts";

export const serviceLabel = (service: Pick<ServiceT, "name" | "lifecycle">, providerShortName: string): string =>
  `${service.name} · ${providerShortName} · ${lifecycleLabel(service.lifecycle)}`;
