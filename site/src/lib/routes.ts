/** Site paths, one place: every link is built from the page table's paths (catalogue/base/urls.ts). */
export { lifecycleLabel } from "../../../catalogue/render/pages.ts";
export {
  categoryPath,
  href,
  listCalendarPath,
  listPath,
  providerPath,
  servicePath,
  serviceSegment,
} from "../../../catalogue/base/urls.ts";
