/**
 * Where the catalogue is published and every path of the text host and the site: a leaf module (it
 * imports nothing), so the domain, the renderers, the build, both hosts, MCP and the site link
 * through `href()` without reaching for the tables. `PAGE_PATHS` is the page table's path column
 * (outputs/pages.ts takes each row's path from it); tests/catalogue/page-links.test.ts refuses a
 * literal copy of one anywhere else in source.
 */

/** The public base URLs the build bakes into its files and the hosts answer with. */
export interface PublicUrls {
  readonly apiUrl: string;
  readonly textUrl: string;
}

/** Each page of the page table by id: Fastify's path (`:name` a segment, `*` the rest). */
export const PAGE_PATHS = {
  home: "/",
  lifecycle: "/lifecycle",
  category: "/category/:id",
  provider: "/:provider",
  service: "/:provider/:service",
  "exit-planner": "/list/exit",
  "feedback-sent": "/feedback/thanks",
  "compare-ids": "/compare/:ids",
  compare: "/compare",
  search: "/search",
  equivalents: "/equivalents",
  "equivalence-group": "/equivalents/:id",
  feedback: "/feedback",
  exposure: "/exposure",
  "list-builder": "/list",
  "list-file": "/list/files/:file",
  "save-list": "/lists",
  "saved-list": "/lists/:id",
  "exit-plan": "/lists/:id/exit-plan",
  register: "/lists/:id/register",
  "deployment-check": "/deployments/check",
  built: "/*",
} as const;

export type PageId = keyof typeof PAGE_PATHS;

/** The `:name` parameters of a path, as a union of names (never for none). */
type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a page's path needs filled in: one string per `:name`. */
export type PageParams<Id extends PageId> = Readonly<Record<ParamsOf<(typeof PAGE_PATHS)[Id]>, string>>;

/** A query to append: a value, several values (repeated keys), or absent (left out). */
export type PageQuery = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The arguments after the id: the parameters when the path has some, then an optional query. */
type HrefArgs<Id extends PageId> = [ParamsOf<(typeof PAGE_PATHS)[Id]>] extends [never]
  ? [query?: PageQuery]
  : [params: PageParams<Id>, query?: PageQuery];

/**
 * The pages the site prerenders at a fixed path, which the build writes as a directory (Astro's
 * `directory` format: /lifecycle/index.html): their links end in "/", which nginx and the site serve
 * without a redirect (the hosts ignore the slash). tests/catalogue/page-links.test.ts holds this to
 * the page table's `site` column.
 */
export const DIRECTORY_PAGES: ReadonlySet<PageId> = new Set([
  "lifecycle",
  "exit-planner",
  "feedback-sent",
  "compare",
  "search",
  "equivalents",
  "feedback",
  "exposure",
  "list-builder",
]);

/**
 * The link to a page: its path with the parameters filled in (each percent-encoded, commas kept:
 * they separate ids), a trailing slash for a directory page, and the query appended.
 */
export function href<Id extends PageId>(id: Id, ...args: HrefArgs<Id>): string {
  const path: string = PAGE_PATHS[id];
  const hasParams = path.includes(":");
  const params = (hasParams ? args[0] : undefined) as Readonly<Record<string, string>> | undefined;
  const query: PageQuery | undefined = hasParams ? args[1] : args[0];
  const filled = path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(params?.[name] ?? "").replace(/%2C/gi, ","),
  );
  return `${filled}${DIRECTORY_PAGES.has(id) ? "/" : ""}${queryString(query)}`;
}

function queryString(query: PageQuery | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  if (query instanceof URLSearchParams) query.forEach((value, key) => params.append(key, value));
  else
    for (const [key, value] of Object.entries(query))
      for (const one of typeof value === "string" ? [value] : (value ?? [])) params.append(key, one);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The service segment of a text path: the slug without its provider prefix (aws-s3 → s3). */
export const serviceSegment = (service: { readonly providerId: string; readonly slug: string }): string =>
  service.slug.slice(service.providerId.length + 1);

/** Text host path of a service: /aws/s3 for aws-s3. */
export const servicePath = (service: { readonly providerId: string; readonly slug: string }): string =>
  href("service", { provider: service.providerId, service: serviceSegment(service) });
export const providerPath = (providerId: string): string => href("provider", { provider: providerId });
export const categoryPath = (categoryId: string): string => href("category", { id: categoryId });
/** A saved list's page, by its custom address when it has one. */
export const listPath = (list: { readonly slug?: string | null; readonly id: string }): string =>
  href("saved-list", { id: list.slug ?? list.id });
/**
 * A saved list's calendar on the API (GET /v1/lists/{id}/lifecycle.ics, catalogue/contract/lists.ts),
 * by its custom address when it has one: an endpoint's path, not the page's with /v1 before it.
 */
export const listCalendarPath = (list: { readonly slug?: string | null; readonly id: string }): string =>
  `/v1/lists/${encodeURIComponent(list.slug ?? list.id)}/lifecycle.ics`;
