/**
 * What every service-section component (components/service/) starts with: the props the service
 * page hands each section (sections.ts lists them) and the catalogue with the service's record.
 */
import type { Catalogue, ServiceRecord } from "../../../catalogue/load/load.ts";
import { catalogue } from "./catalogue.ts";

/** Every section takes the same props; the summary has no heading of its own. */
export interface SectionProps {
  slug: string;
  heading?: string | undefined;
}

/** The catalogue, the section's service record and its service. */
export function serviceSection(props: SectionProps): {
  c: Catalogue;
  record: ServiceRecord;
  service: ServiceRecord["service"];
} {
  const c = catalogue();
  const record = c.bySlug.get(props.slug)!;
  return { c, record, service: record.service };
}
