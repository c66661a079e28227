/**
 * The Catalogue rows: providers, categories, services, equivalents, lifecycle, changes, compare
 * and exposure. See index.ts for the table they join.
 */
import { z } from "zod";
import { compareServices } from "../equivalence/compare.ts";
import { endpoint, type Endpoint, type PublicUrls } from "./endpoint.ts";
import { equivalenceGroup, equivalenceMatrix } from "../equivalence/equivalents.ts";
import { exposureReport } from "../equivalence/exposure.ts";
import { parseIdList } from "../search/ids.ts";
import { DEFAULT_PAGE_SIZE, MAX_COMPARE_IDS, MAX_EXPOSURE_IDS } from "../base/limits.ts";
import { changesAtom } from "../load/changes.ts";
import {
  catalogueDay,
  dayOf,
  filteredFeed,
  type FilteredFeed,
  isFiltered,
  lifecycleAtom,
  lifecycleCalendar,
  lifecycleFilterOf,
  lifecycleList,
} from "../lifecycle/lifecycle.ts";
import type { Catalogue } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import { listServices, pageCount, serviceDetail } from "../search/query.ts";
import {
  EXPOSURE_QUERY,
  exposureRegions,
  readLifecycleFilters,
  SERVICES_QUERY,
  slugList,
} from "../search/filter-table.ts";
import { placeAnswer } from "../search/place-detail.ts";
import {
  Category,
  ChangeHistory,
  CompareResult,
  EquivalenceGroupDetail,
  EquivalenceMatrix,
  ExposureReport,
  LifecycleCalendarQuery,
  LifecycleList,
  LifecycleQuery,
  PlaceDetail,
  placeWord,
  Provider,
  ServiceDetail,
  ServiceList,
} from "../schema/index.ts";
import { ATOM, CALENDAR, text, json, file } from "./shared.ts";

const catalogueCalendar = (
  catalogue: Catalogue,
  urls: PublicUrls,
  filtered?: FilteredFeed,
  alarms?: readonly number[],
  asOf?: string,
) =>
  lifecycleCalendar(catalogue, urls, {
    name: "Cloud service sunsets",
    description:
      "Sunset and retirement dates of cloud services, and the dates of their versions' and tiers' phases (end of standard support, extended support, blocks, end), from the Cloud Services Catalogue.",
    ...(filtered ? { filtered } : {}),
    ...(asOf ? { asOf } : {}),
    alarms,
  });

const FEED_FILTERS =
  " `ids`, `status`, `provider`, `within` and `kind` filter as on GET /v1/lifecycle (within counts from the request's day, UTC); without a query the answer is the static file. An unknown service id or provider, a bad status, within or kind, or a parameter this endpoint does not take, is a 400.";

export const CATALOGUE_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "listProviders",
    method: "GET",
    path: "/v1/providers",
    summary: "List providers",
    description: "Every provider, with head office, jurisdiction, regions and the sovereignty flags.",
    tag: "Catalogue",
    response: { status: 200, schema: z.array(Provider), contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/providers.json", files: (c) => [file("v1/providers.json", c.providers)] },
    example: { request: "GET /v1/providers" },
    handler: (c) => json(c.catalogue.providers),
  }),
  endpoint({
    operationId: "listCategories",
    method: "GET",
    path: "/v1/categories",
    summary: "List categories",
    description: "Every service category.",
    tag: "Catalogue",
    response: { status: 200, schema: z.array(Category), contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/categories.json", files: (c) => [file("v1/categories.json", c.categories)] },
    example: { request: "GET /v1/categories" },
    handler: (c) => json(c.catalogue.categories),
  }),
  endpoint({
    operationId: "listServices",
    method: "GET",
    path: "/v1/services",
    summary: "Search and filter services",
    description:
      "Services ordered by provider then name, or by relevance when q is given. Filters combine (each one more condition); compliance, jurisdiction, region and country take comma-separated, case-insensitive lists: every programme of compliance is required, any value of the others matches. A bad page or limit, an unknown compliance programme, jurisdiction, region or country, or a parameter this endpoint does not take, is a 400.",
    tag: "Catalogue",
    query: SERVICES_QUERY,
    response: { status: 200, schema: ServiceList, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    static: {
      file: "v1/services.json",
      pages: { file: "v1/services/pages/{page}.json", limit: DEFAULT_PAGE_SIZE },
      files: function* (c) {
        for (let page = 1; page <= pageCount(c, DEFAULT_PAGE_SIZE); page++)
          yield file(
            page === 1 ? "v1/services.json" : `v1/services/pages/${page}.json`,
            listServices(c, { page, limit: DEFAULT_PAGE_SIZE }),
          );
      },
    },
    example: { request: "GET /v1/services?q=object%20storage&provider=aws&limit=10" },
    handler: (c, { query }) => ({ body: listServices(c.catalogue, query) }),
  }),
  endpoint({
    operationId: "getService",
    method: "GET",
    path: "/v1/services/{slug}",
    summary: "Get one service",
    description:
      "A service with sub-services, equivalents on other providers and policy identifiers, and its versions and tiers with their end dates and computed statuses (versions, since 1.11.0).",
    tag: "Catalogue",
    params: z.object({ slug: z.string().meta({ description: "Service slug", example: "aws-s3" }) }),
    response: { status: 200, schema: ServiceDetail, contentType: "application/json" },
    errors: [404],
    cache: "public",
    pure: true,
    static: {
      file: "v1/services/{slug}.json",
      files: function* (c) {
        for (const service of c.services)
          yield file(`v1/services/${service.slug}.json`, serviceDetail(c, service.slug));
      },
    },
    example: { request: "GET /v1/services/aws-s3" },
    handler: (c, { params }) => {
      const detail = serviceDetail(c.catalogue, params.slug);
      if (!detail)
        throw new HttpError(
          404,
          "Service not found",
          `No service with slug "${params.slug.slice(0, 100)}"; search with GET /v1/services?q=…`,
        );
      return json(detail);
    },
  }),
  endpoint({
    operationId: "listEquivalents",
    method: "GET",
    path: "/v1/equivalents",
    summary: "The equivalence matrix",
    description:
      "Every equivalence group (one kind of service: object storage, managed Kubernetes…) with its members by provider, the largest portfolios first and each provider's flagship first; and the providers, largest first, as the matrix's possible columns.",
    tag: "Catalogue",
    response: { status: 200, schema: EquivalenceMatrix, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/equivalents.json", files: (c) => [file("v1/equivalents.json", equivalenceMatrix(c))] },
    example: { request: "GET /v1/equivalents" },
    handler: (c) => json(equivalenceMatrix(c.catalogue)),
  }),
  endpoint({
    operationId: "getEquivalenceGroup",
    method: "GET",
    path: "/v1/equivalents/{id}",
    summary: "Get one equivalence group",
    description: "One equivalence group with its member services in full, by provider.",
    tag: "Catalogue",
    params: z.object({ id: z.string().meta({ description: "Equivalence group id", example: "object-storage" }) }),
    response: { status: 200, schema: EquivalenceGroupDetail, contentType: "application/json" },
    errors: [404],
    cache: "public",
    pure: true,
    static: {
      file: "v1/equivalents/{id}.json",
      files: function* (c) {
        for (const group of c.groups) yield file(`v1/equivalents/${group.id}.json`, equivalenceGroup(c, group.id));
      },
    },
    example: { request: "GET /v1/equivalents/object-storage" },
    handler: (c, { params }) => {
      const group = equivalenceGroup(c.catalogue, params.id);
      if (!group)
        throw new HttpError(
          404,
          "Equivalence group not found",
          `No equivalence group with id "${params.id.slice(0, 100)}"; GET /v1/equivalents lists them`,
        );
      return json(group);
    },
  }),
  endpoint({
    operationId: "getPlace",
    method: "GET",
    path: "/v1/places/{place}",
    summary: "A place and every provider's regions there",
    description:
      "A place as people name it, read as every place parameter reads it (region=, country=, regions=, allowedLocations): a metro area by its name in any of several languages (Frankfurt, Francfort, München), a country by its ISO code or its name (DE, Germany, Allemagne), a group (EU, EEA), a vendor's multi-region (EUR4), a region id (eu-central-1; provider:region for one named like a group, a country or a metro, e.g. heroku:frankfurt) or a region's display name (Germany West Central). The answer lists every provider's regions there, largest providers first, each with its vendor's name, its city and the vendor page or dataset that states the city, and the metro areas those regions are in: a region leads back to its metro, whose answer holds the other providers' regions there. Answered by the sidecar: the word is any of these. A word no place could be (empty, over 40 characters, or of other characters) is a 400; an unknown place is a 404 naming the nearest places, by code and by name (added in 1.13.0).",
    tag: "Catalogue",
    params: z.object({
      place: placeWord().meta({
        description: "A metro, country, group, multi-region, region id or name",
        example: "Frankfurt",
      }),
    }),
    response: { status: 200, schema: PlaceDetail, contentType: "application/json" },
    errors: [400, 404],
    cache: "public",
    pure: true,
    example: { request: "GET /v1/places/frankfurt" },
    handler: (c, { params }) => json(placeAnswer(c.catalogue, params.place)),
  }),
  endpoint({
    operationId: "listLifecycle",
    method: "GET",
    path: "/v1/lifecycle",
    summary: "Lifecycle watch",
    description:
      "Every lifecycle entry (preview, deprecated, sunset, retired) by next relevant date: upcoming dates soonest first, then undated entries, then past dates most recent first. Services' own entries (kind service) and, since 1.11.0, one entry per date of each version or tier of a service (kind version: sunset while the date is to come, retired once it has passed, with version saying which version, which date and, since 1.12.0, the phase it leads into with its consequence). `within=<n>d` keeps entries whose sunsetDate is between today (UTC, the request's day) and today + n days, both included, leaving out undated and past ones; `ids` (comma-separated service slugs, case-insensitive), `status`, `provider` and `kind` (service or version; each a comma-separated list since 1.12.0, e.g. provider=azure,gcp, status=deprecated,preview) filter too, each one more condition. lifecycleVerified is the date of the copy of the vendor page read (sourceAsOf) where the source gives one, beside sourceRetrieved, the day it was read (1.12.0). Without a query the answer is the static file, ordered as of the catalogue's last update (asOf says which day). An unknown service id (named with the nearest slugs) or provider, a bad status, within or kind, or a parameter this endpoint does not take, is a 400.",
    tag: "Catalogue",
    query: LifecycleQuery,
    response: { status: 200, schema: LifecycleList, contentType: "application/json" },
    errors: [400],
    cache: "public",
    static: {
      file: "v1/lifecycle.json",
      files: (c, urls) => [file("v1/lifecycle.json", lifecycleList(c, urls, catalogueDay(c)))],
    },
    example: { request: "GET /v1/lifecycle?within=90d&provider=gcp" },
    handler: (c, { query: asked }) => {
      const { query, slugs } = readLifecycleFilters(c.catalogue, asked);
      const filter = lifecycleFilterOf(c.catalogue, query, slugs);
      const filtered = isFiltered(filter);
      return json(lifecycleList(c.catalogue, c.urls, filtered ? dayOf(c.now()) : catalogueDay(c.catalogue), filter));
    },
  }),
  endpoint({
    operationId: "getLifecycleAtom",
    method: "GET",
    path: "/v1/lifecycle.atom",
    summary: "Lifecycle feed (Atom)",
    description:
      "An Atom 1.0 feed with one entry per lifecycle announcement. Entry ids are tag: URIs made of slug, status and date: stable across builds, new when the announcement changes." +
      FEED_FILTERS,
    tag: "Catalogue",
    query: LifecycleQuery,
    response: { status: 200, contentType: ATOM },
    errors: [400],
    cache: "public",
    static: {
      file: "v1/lifecycle.atom",
      files: (c, urls) => [{ file: "v1/lifecycle.atom", body: lifecycleAtom(c, urls) }],
    },
    example: { request: "GET /v1/lifecycle.atom" },
    handler: (c, { query: asked }) => {
      const { query, slugs } = readLifecycleFilters(c.catalogue, asked);
      return text(lifecycleAtom(c.catalogue, c.urls, filteredFeed(c.catalogue, query, c.now(), slugs)), ATOM);
    },
  }),
  endpoint({
    operationId: "getLifecycleCalendar",
    method: "GET",
    path: "/v1/lifecycle.ics",
    summary: "Lifecycle calendar (iCalendar)",
    description:
      "An iCalendar (RFC 5545) with one all-day event per sunset or retirement date, and one per date of a version or tier (end of standard support, blocks on create and update, end of extended support). A UID names the event, never its date (slug; a version's also its family, id and which date: since 1.12.0), and SEQUENCE counts the changes of its date in the catalogue's record of event dates, so a calendar app updates a moved event in place rather than keeping the old one beside it. Each event carries display reminders (VALARM), by default 180, 90 and 30 days before it, each only while its day is still to come: in the built file (no query) on the catalogue's last update, in an answer to a query (alarms=180,90,30 included) on the request's day (since 1.12.0); `alarms` chooses others (e.g. alarms=30,7) or none (alarms=none), and a bad value is a 400. REFRESH-INTERVAL and X-PUBLISHED-TTL ask for a daily refresh (since 1.12.0)." +
      FEED_FILTERS,
    tag: "Catalogue",
    query: LifecycleCalendarQuery,
    response: { status: 200, contentType: CALENDAR },
    errors: [400],
    cache: "public",
    static: {
      file: "v1/lifecycle.ics",
      files: (c, urls) => [{ file: "v1/lifecycle.ics", body: catalogueCalendar(c, urls) }],
    },
    example: { request: "GET /v1/lifecycle.ics" },
    handler: (c, { query: asked }) => {
      const { query, slugs } = readLifecycleFilters(c.catalogue, asked);
      return text(
        catalogueCalendar(
          c.catalogue,
          c.urls,
          filteredFeed(c.catalogue, query, c.now(), slugs),
          query.alarms,
          // A query (alarms= too) is answered on the request's day: its reminders are those still to
          // come today. Without one the answer is the built file's, as of the catalogue's day.
          Object.values(query).some((value) => value !== undefined) ? dayOf(c.now()) : undefined,
        ),
        CALENDAR,
      );
    },
  }),
  endpoint({
    operationId: "getChanges",
    method: "GET",
    path: "/v1/changes",
    summary: "Catalogue changes by release",
    description:
      "What each catalogue release added, removed, renamed or moved in lifecycle, newest first, each counted from the release before it; changes not yet recorded as a release come first with released: false.",
    tag: "Catalogue",
    response: { status: 200, schema: ChangeHistory, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/changes.json", files: (c) => [file("v1/changes.json", { data: c.changes })] },
    example: { request: "GET /v1/changes" },
    handler: (c) => json({ data: c.catalogue.changes }),
  }),
  endpoint({
    operationId: "getChangesAtom",
    method: "GET",
    path: "/v1/changes.atom",
    summary: "Catalogue changes feed (Atom)",
    description: "GET /v1/changes as an Atom 1.0 feed: one entry per release.",
    tag: "Catalogue",
    response: { status: 200, contentType: ATOM },
    errors: [],
    cache: "public",
    pure: true,
    static: {
      file: "v1/changes.atom",
      files: (c, urls) => [{ file: "v1/changes.atom", body: changesAtom(c.changes, c.lastUpdated, urls) }],
    },
    example: { request: "GET /v1/changes.atom" },
    handler: (c) => text(changesAtom(c.catalogue.changes, c.catalogue.lastUpdated, c.urls), ATOM),
  }),
  endpoint({
    operationId: "compareServices",
    method: "GET",
    path: "/v1/compare",
    summary: "Compare services",
    description: `Up to ${MAX_COMPARE_IDS} services side by side, with a shared-attribute table and compliance in common and apart.`,
    tag: "Catalogue",
    query: z.object({ ids: slugList(MAX_COMPARE_IDS) }),
    response: { status: 200, schema: CompareResult, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    example: { request: "GET /v1/compare?ids=aws-s3,azure-blob-storage,gcp-cloud-storage" },
    handler: (c, { query }) => ({
      body: compareServices(c.catalogue, parseIdList(c.catalogue, query.ids, MAX_COMPARE_IDS)),
    }),
  }),
  endpoint({
    operationId: "getExposure",
    method: "GET",
    path: "/v1/exposure",
    summary: "Jurisdictional exposure scorecard",
    description: `Head-office jurisdictions, region countries, US-headquartered share, sovereign and EU-resident-only counts for up to ${MAX_EXPOSURE_IDS} services. Procurement triage, not legal advice.`,
    tag: "Catalogue",
    query: EXPOSURE_QUERY,
    response: { status: 200, schema: ExposureReport, contentType: "application/json" },
    errors: [400],
    cache: "public",
    pure: true,
    example: { request: "GET /v1/exposure?ids=aws-s3,ovhcloud-object-storage" },
    handler: (c, { query }) => {
      const ids = parseIdList(c.catalogue, query.ids, MAX_EXPOSURE_IDS);
      const places = exposureRegions(c.catalogue, query.regions);
      return { body: exposureReport(c.catalogue, ids, places) };
    },
  }),
];
