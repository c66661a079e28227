/**
 * Issue 99, "eight new real version events, each shown on every face": eight dated ends of
 * support read from the vendors' calendars (catalogue/data/versions/), none of them used by another
 * suite or fixture, each found on every face that shows versions: GET /v1/services/{slug}
 * (versions), GET /v1/lifecycle?kind=version under ids, provider and within, the Atom feed (read by
 * @rowanmanning/feed-parser), the calendar (read by ical.js, with its reminders), the site's built
 * service and lifecycle pages, MCP (get_service and lifecycle_upcoming through the SDK's client)
 * and the text host (its lifecycle page and the service page in Markdown).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseFeed } from "@rowanmanning/feed-parser";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { LifecycleListT, ServiceDetailT } from "../../catalogue/schema/index.ts";
import { daysBetween } from "../../catalogue/lifecycle/lifecycle.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap } from "../../build/dist.ts";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue, tempStore } from "../helpers/app.ts";
import { wholeAnswer } from "../helpers/mcp-parts.ts";

/** The day the API and MCP answer as of (the catalogue's day, 2026-11-28): each event is still to come. */
const TODAY = "2026-11-28";

interface VersionEvent {
  readonly slug: string;
  readonly provider: string;
  /** The service page's path, on the site and the text host. */
  readonly path: string;
  readonly family: string;
  readonly id: string;
  readonly end: "standardEnd" | "extendedEnd";
  readonly date: string;
  /** The vendor's word for the end, and the page that states the date. */
  readonly endName: string;
  readonly page: string;
  /** Its title on the feed and the calendar: service, version, provider, end and date. */
  readonly title: string;
  /** Its first cell in the service page's versions table. */
  readonly cell: string;
}

const EVENTS: readonly VersionEvent[] = [
  {
    slug: "aws-rds-postgresql",
    provider: "aws",
    path: "/aws/rds-postgresql",
    family: "postgresql",
    id: "14",
    end: "standardEnd",
    date: "2027-02-28",
    endName: "End of standard support",
    page: "https://docs.aws.amazon.com/AmazonRDS/latest/PostgreSQLReleaseNotes/postgresql-release-calendar.html",
    title: "Amazon RDS for PostgreSQL PostgreSQL 14 (AWS): End of standard support 2027-02-28",
    cell: "14",
  },
  {
    slug: "aws-lambda",
    provider: "aws",
    path: "/aws/lambda",
    family: "ruby",
    id: "ruby3.3",
    end: "standardEnd",
    date: "2027-03-31",
    endName: "Deprecation",
    page: "https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html",
    title: "AWS Lambda Ruby 3.3 (ruby3.3) (AWS): Deprecation 2027-03-31",
    cell: "ruby3.3 (Ruby 3.3)",
  },
  {
    slug: "aws-elasticache",
    provider: "aws",
    path: "/aws/elasticache",
    family: "redis-oss",
    id: "6",
    end: "standardEnd",
    date: "2027-01-31",
    endName: "End of standard support",
    page: "https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/engine-versions.html",
    title: "Amazon ElastiCache Redis OSS 6 (AWS): End of standard support 2027-01-31",
    cell: "6",
  },
  {
    slug: "aws-eks",
    provider: "aws",
    path: "/aws/eks",
    family: "kubernetes",
    id: "1.35",
    end: "standardEnd",
    date: "2027-03-27",
    endName: "End of standard support",
    page: "https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html",
    title: "Amazon Elastic Kubernetes Service Kubernetes 1.35 (AWS): End of standard support 2027-03-27",
    cell: "1.35",
  },
  {
    slug: "azure-database-for-mysql",
    provider: "azure",
    path: "/azure/database-for-mysql",
    family: "mysql",
    id: "8.0",
    end: "standardEnd",
    date: "2026-12-31",
    endName: "End of standard support",
    page: "https://learn.microsoft.com/azure/mysql/concepts-version-policy",
    title: "Azure Database for MySQL MySQL 8.0 (Azure): End of standard support 2026-12-31",
    cell: "8.0",
  },
  {
    slug: "azure-database-for-postgresql",
    provider: "azure",
    path: "/azure/database-for-postgresql",
    family: "postgresql",
    id: "15",
    end: "standardEnd",
    date: "2027-11-11",
    endName: "End of standard support",
    page: "https://learn.microsoft.com/azure/postgresql/configure-maintain/concepts-version-policy",
    title: "Azure Database for PostgreSQL PostgreSQL 15 (Azure): End of standard support 2027-11-11",
    cell: "15",
  },
  {
    slug: "gcp-gke",
    provider: "gcp",
    path: "/gcp/gke",
    family: "kubernetes",
    id: "1.35",
    end: "standardEnd",
    date: "2027-04-11",
    endName: "End of standard support",
    page: "https://cloud.google.com/kubernetes-engine/docs/release-schedule",
    title: "Google Kubernetes Engine Kubernetes 1.35 (Google Cloud): End of standard support 2027-04-11",
    cell: "1.35",
  },
  {
    slug: "gcp-cloud-sql-postgresql",
    provider: "gcp",
    path: "/gcp/cloud-sql-postgresql",
    family: "postgresql",
    id: "POSTGRES_15",
    end: "standardEnd",
    date: "2028-01-31",
    endName: "End of regular support",
    page: "https://cloud.google.com/sql/docs/postgres/db-versions",
    title: "Cloud SQL for PostgreSQL PostgreSQL 15 (POSTGRES_15) (Google Cloud): End of regular support 2028-01-31",
    cell: "POSTGRES_15 (PostgreSQL 15)",
  },
];

/** The text of an HTML fragment: tags out, the few entities Astro writes decoded, space collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();

/** The cells of each row of an HTML page's tables. */
const htmlRows = (html: string) =>
  [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1]!)),
  );

/** Markdown's escapes undone (a cell's leading "1." is written \1., an id's underscore \_). */
const unescaped = (markdown: string) => markdown.replace(/\\([\\`*_{}[\]()#+\-.!|0-9])/g, "$1");

/** The cells of each row of a Markdown page's tables. */
const markdownRows = (markdown: string) =>
  markdown
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => unescaped(cell.trim())),
    );

/** A row naming the event's version in its first cell and its date in another. */
const hasRow = (rows: string[][], event: VersionEvent) =>
  rows.some((cells) => cells[0] === event.cell && cells.slice(1).includes(event.date));

/** The attributes of each lifecycle card (<li class="card" data-…>) of the site's lifecycle page. */
const cards = (html: string) =>
  [...html.matchAll(/<li\b([^>]*\bdata-kind="version"[^>]*)>/g)].map(
    (tag) => new Map([...tag[1]!.matchAll(/\b(data-[a-z-]+)="([^"]*)"/g)].map((a) => [a[1]!, textOf(a[2]!)])),
  );

describe("eight real version events, each on every face", () => {
  let built = "";
  beforeAll(async () => {
    // dist/ as npm start serves it: built once for the sources as they are (helpers/dist-setup.ts), reused here.
    built = await buildAndSwap({ urls: buildUrls(loadConfig({})), build: buildDist, log: () => undefined });
  }, 240_000);

  /** The API on the day (build() closes it, and its store, after the test). */
  const api = () => build({ now: () => new Date(`${TODAY}T12:00:00Z`) });

  /** An MCP client of the API's /mcp, through the SDK's own transport; closed after the test. */
  async function mcp() {
    const address = await (await api()).listen({ port: 0, host: "127.0.0.1" });
    const client = new Client({ name: "assistant", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
    onTestFinished(() => client.close());
    // A long answer (Lambda's 52 runtimes) comes in parts: each is asked in turn.
    return async <T>(name: string, args: Record<string, unknown>): Promise<T> =>
      (await wholeAnswer<T>(async (each) => (await client.callTool({ name, arguments: each })) as CallToolResult, args))
        .answer;
  }
  const sitePage = (path: string) => readFileSync(join(built, "site", "client", path, "index.html"), "utf8");

  it("are eight distinct events of eight services of the three providers, all to come", () => {
    expect(new Set(EVENTS.map((event) => `${event.slug} ${event.id} ${event.end}`)).size).toBe(8);
    expect(new Set(EVENTS.map((event) => event.slug)).size).toBe(8);
    expect(new Set(EVENTS.map((event) => event.provider))).toEqual(new Set(["aws", "azure", "gcp"]));
    expect(EVENTS.every((event) => event.date > TODAY)).toBe(true);
  });

  describe.each(EVENTS)("$slug $id: $endName $date", (event) => {
    it("GET /v1/services/{slug}: in versions, with its date, status and the vendor's page", async () => {
      const response = await (await api()).inject(`/v1/services/${event.slug}`);
      expect(response.statusCode).toBe(200);
      const { versions } = response.json() as ServiceDetailT;
      const family = versions!.families.find((each) => each.id === event.family)!;
      expect(family.source.url).toBe(event.page);
      expect(family.terms[event.end]).toBe(event.endName);
      expect(family.versions.find((version) => version.id === event.id)).toMatchObject({
        [event.end]: event.date,
        status: "supported",
      });
    });

    it("GET /v1/lifecycle?kind=version: under ids and provider, within the days to its date and not one fewer", async () => {
      const days = daysBetween(TODAY, event.date);
      const app = await api();
      const list = async (within: number) => {
        const response = await app.inject(
          `/v1/lifecycle?kind=version&ids=${event.slug}&provider=${event.provider}&within=${within}d`,
        );
        expect(response.statusCode).toBe(200);
        return (response.json() as LifecycleListT).data.filter(
          (entry) => entry.version?.id === event.id && entry.version.end === event.end,
        );
      };
      const [entry] = await list(days);
      expect(entry).toMatchObject({
        slug: event.slug,
        providerId: event.provider,
        kind: "version",
        status: "sunset",
        sunsetDate: event.date,
        announcementUrl: event.page,
        version: { family: event.family, id: event.id, end: event.end, endName: event.endName },
      });
      expect(await list(days - 1)).toEqual([]);
    });

    it("the Atom feed: an entry titled with the version, the end and the date", async () => {
      const response = await (await api()).inject(`/v1/lifecycle.atom?kind=version&ids=${event.slug}`);
      expect(response.statusCode).toBe(200);
      const feed = parseFeed(response.body);
      expect(feed.items.map((item) => item.title)).toContain(event.title);
    });

    it("the calendar: an all-day event on the date, with its reminders", async () => {
      const response = await (await api()).inject(`/v1/lifecycle.ics?kind=version&ids=${event.slug}`);
      expect(response.statusCode).toBe(200);
      const vevent = new ICAL.Component(ICAL.parse(response.body))
        .getAllSubcomponents("vevent")
        .find((each) => new ICAL.Event(each).summary === event.title);
      expect(vevent, event.title).toBeDefined();
      const start = new ICAL.Event(vevent!).startDate;
      expect(start.isDate).toBe(true);
      expect(start.toString()).toBe(event.date);
      expect(vevent!.getAllSubcomponents("valarm").length).toBeGreaterThan(0);
    });

    it("the site's service page: a row of its versions table with the date", () => {
      const html = sitePage(event.path.slice(1));
      const section = /<section\b[^>]*data-versions[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
      expect(hasRow(htmlRows(section), event), event.path).toBe(true);
      expect(section).toContain(event.page);
    });

    it("the site's lifecycle page: a version card with the date", () => {
      const card = cards(sitePage("lifecycle")).find(
        (each) =>
          each.get("data-slug") === event.slug &&
          each.get("data-date") === event.date &&
          each.get("data-name")!.endsWith(`: ${event.endName}`) &&
          each.get("data-name")!.includes(event.id),
      );
      expect(card, event.title).toBeDefined();
      expect(card!.get("data-announcement")).toBe(event.page);
    });

    it("MCP: get_service holds the version and lifecycle_upcoming the event", async () => {
      const tool = await mcp();
      const service = await tool<ServiceDetailT>("get_service", { slug: event.slug });
      const family = service.versions!.families.find((each) => each.id === event.family)!;
      expect(family.versions.find((version) => version.id === event.id)).toMatchObject({ [event.end]: event.date });
      const upcoming = await tool<LifecycleListT>("lifecycle_upcoming", {
        kind: "version",
        ids: [event.slug],
        from: event.date,
        to: event.date,
      });
      expect(
        upcoming.data.some(
          (entry) =>
            entry.version?.id === event.id && entry.version.end === event.end && entry.sunsetDate === event.date,
        ),
      ).toBe(true);
    });

    it("the text host: its lifecycle page under kind and provider, and the service page's versions table", async () => {
      const text = await buildTextApp({
        config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
        catalogue: realCatalogue(),
        store: await tempStore(),
      });
      onTestFinished(() => text.close());
      const lifecycle = await text.inject(`/lifecycle?kind=version&provider=${event.provider}&format=md`);
      expect(lifecycle.statusCode).toBe(200);
      expect(hasLifecycleLine(lifecycle.body, event)).toBe(true);
      const page = await text.inject(`${event.path}?format=md`);
      expect(page.statusCode).toBe(200);
      expect(hasRow(markdownRows(page.body), event), event.path).toBe(true);
    });
  });
});

/** A line of the text host's lifecycle page naming the version's end on its date. */
function hasLifecycleLine(markdown: string, event: VersionEvent): boolean {
  return unescaped(markdown)
    .split("\n")
    .some((line) => line.includes(event.date) && line.includes(`: ${event.endName}`) && line.includes(event.id));
}
