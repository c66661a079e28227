/** Site paths, one place: every link is built from the page table's paths (catalogue/urls.ts). */
export { lifecycleLabel } from "../../../catalogue/render/pages.ts";
export { categoryPath, href, listPath, providerPath, servicePath, serviceSegment } from "../../../catalogue/urls.ts";
