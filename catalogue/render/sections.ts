/**
 * The service page's sections, in order, and which of them a service shows. Both faces walk this
 * list: the text renderings (pages.ts `servicePage`, Markdown, ANSI and MCP) and the site's page
 * (site/src/pages/[provider]/[service].astro, one component per section), so the two cannot put a
 * section elsewhere or show one the other leaves out. tests/site/service-sections.test.ts holds them
 * to it on the built pages.
 */
import type { Catalogue } from "../load/load.ts";

export const SERVICE_SECTIONS = [
  /** Name, description and lifecycle notice. */
  { id: "summary" },
  /** Slug, provider, category, pricing, documentation, compliance, verified. */
  { id: "fields" },
  { id: "lineage", heading: "Lineage" },
  { id: "compatibility", heading: "Compatible with" },
  { id: "sub-services", heading: "Sub-services" },
  /** Runtimes, Kubernetes versions, engine versions and tiers with their end dates (data/versions/). */
  { id: "versions", heading: "Versions and tiers" },
  { id: "policy-identifiers", heading: "Policy identifiers" },
  { id: "terraform", heading: "Terraform resource types" },
  /** The regions it runs in, by country, and the kind of place it is with the data's date (1.11.0; 1.12.0). */
  { id: "regions", heading: "Where it runs" },
  { id: "equivalents", heading: "Equivalents" },
  { id: "dependencies", heading: "Needs to be usable" },
  { id: "sources", heading: "Sources" },
] as const;

export type ServiceSection = (typeof SERVICE_SECTIONS)[number];
export type ServiceSectionId = ServiceSection["id"];

/** Whether a service has something for the section; the rest are shown for every service. */
const SHOWN_WHEN: Partial<Record<ServiceSectionId, (catalogue: Catalogue, slug: string) => boolean>> = {
  lineage: (catalogue, slug) => {
    const origin = catalogue.bySlug.get(slug)!.lineage?.origin;
    return origin !== undefined && catalogue.bySlug.has(origin);
  },
  compatibility: (catalogue, slug) => catalogue.bySlug.get(slug)!.compatibility.length > 0,
  "sub-services": (catalogue, slug) => catalogue.bySlug.get(slug)!.subServices.length > 0,
  versions: (catalogue, slug) => catalogue.bySlug.get(slug)!.versions.length > 0,
  terraform: (catalogue, slug) => catalogue.bySlug.get(slug)!.terraformResources.length > 0,
  dependencies: (catalogue, slug) => catalogue.bySlug.get(slug)!.dependencies.length > 0,
  regions: (catalogue, slug) => catalogue.bySlug.get(slug)!.placement !== undefined,
};

/** The sections a service's page shows, in page order. */
export const shownSections = (catalogue: Catalogue, slug: string): readonly ServiceSection[] =>
  SERVICE_SECTIONS.filter((section) => SHOWN_WHEN[section.id]?.(catalogue, slug) ?? true);
