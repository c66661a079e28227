/** Site paths, one place: the text host's paths (/aws, /aws/s3, /category/storage). */
export { lifecycleLabel } from "../../../catalogue/render/pages.ts";
export { categoryPath, providerPath, servicePath } from "../../../catalogue/base/urls.ts";

/** The service segment of a text path: the slug without its provider prefix. */
export const serviceSegment = (service: { providerId: string; slug: string }) =>
  service.slug.slice(service.providerId.length + 1);
