/**
 * Where the catalogue is published and the text host's paths: a leaf module (it imports nothing),
 * so the domain, the renderers, the build and both hosts can name them without reaching for the
 * contract table.
 */

/** The public base URLs the build bakes into its files and the hosts answer with. */
export interface PublicUrls {
  readonly apiUrl: string;
  readonly textUrl: string;
}

/** Text host path of a service: /aws/s3 for aws-s3. */
export function servicePath(service: { readonly providerId: string; readonly slug: string }): string {
  return `/${service.providerId}/${service.slug.slice(service.providerId.length + 1)}`;
}
export const providerPath = (providerId: string) => `/${providerId}`;
export const categoryPath = (categoryId: string) => `/category/${categoryId}`;
