/**
 * A service's page as a Doc (Markdown, ANSI, plain text and MCP): its sections in the order
 * sections.ts gives, the same walk the site's page makes, each section's heading from that list.
 */
import { keyDifferences, protocolReader } from "../capabilities/capabilities.ts";
import { closestEquivalents } from "../equivalence/equivalents.ts";
import type { Catalogue } from "../load/load.ts";
import type { FactSourceT, ServiceSourceT } from "../schema/index.ts";
import { categoryPath, providerPath, servicePath } from "../base/urls.ts";
import { shownVerifiedText } from "../quality/verified.ts";
import { DESCRIPTION_NOT_BACKED } from "../load/claim-terms.ts";
import { heading, link, paragraph, type Block, type Doc, type Inline } from "../format/doc.ts";
import { policyIdentifierRows } from "./identifiers.ts";
import { complianceRows, lifecycleLabel, lifecycleNote, programmeNames, serviceRow } from "./pages.ts";
import { shownSections, type ServiceSectionId } from "./sections.ts";
import { regionsSection } from "./regions.ts";
import { versionTables } from "./versions.ts";
import { SERVICE_FIELD_ROWS, shownFieldValue } from "../schema/service-fields.ts";

/** "retrieved 2026-11-26 (copy of 2026-03-07, via <url>)": when a source was read, and what copy. */
function sourceDates(source: ServiceSourceT): Inline[] {
  const parts: Inline[] = [`retrieved ${source.retrieved}`];
  if (source.asOf || source.via) {
    parts.push(` (${source.asOf ? `copy of ${source.asOf}` : "copy"}`);
    if (source.via) parts.push(", via ", link(source.via, source.via));
    parts.push(")");
  }
  return parts;
}

/** When the vendor's page was read, the date it gives for itself, and the copy read when not the page. */
const readOn = (source: FactSourceT): Inline[] => [
  `read ${source.retrieved}${source.asOf ? `, page dated ${source.asOf}` : ""}`,
  ...(source.via ? [", via ", link(source.via, source.via)] : []),
];

type SectionBlocks = (catalogue: Catalogue, slug: string) => Block[];

const record = (catalogue: Catalogue, slug: string) => catalogue.bySlug.get(slug)!;

function summaryBlocks(catalogue: Catalogue, slug: string): Block[] {
  const { service } = record(catalogue, slug);
  const blocks: Block[] = [heading(1, service.name)];
  if (service.description) blocks.push(paragraph(service.description));
  if (service.descriptionBacked === false) blocks.push(paragraph(DESCRIPTION_NOT_BACKED));
  if (service.lifecycle) blocks.push(lifecycleNote(catalogue, service.lifecycle));
  return blocks;
}

function fieldBlocks(catalogue: Catalogue, slug: string): Block[] {
  const { service, sources } = record(catalogue, slug);
  const provider = catalogue.providerById.get(service.providerId)!.provider;
  const fields: [string, Inline[]][] = [
    ["Provider", [link(provider.name, providerPath(provider.id))]],
    ["Slug", [service.slug]],
    ["Category", [link(catalogue.categoryById.get(service.category)!.name, categoryPath(service.category))]],
    ["Lifecycle", [lifecycleLabel(service.lifecycle)]],
  ];
  if (service.shortName) fields.push(["Short name", [service.shortName]]);
  for (const { key, shown } of SERVICE_FIELD_ROWS) {
    const value = shown && shownFieldValue(service[key], shown);
    if (shown && value) fields.push([shown.label, [shown.as === "link" ? link(value, value) : value]]);
  }
  fields.push(...complianceRows(catalogue, service));
  // The copy's own date where a source gives one, never the day it was read (catalogue/quality/verified.ts).
  // Each date's age on the catalogue's last update: a 2022 scope table says it is 4 years old.
  const verified = shownVerifiedText(sources, catalogue.lastUpdated.slice(0, 10));
  if (verified) fields.push(["Verified", [verified]]);
  return [{ kind: "fields", rows: fields }];
}

/** Whose product this is when another company operates it, with the page that says so (1.8.0). */
function lineageBlocks(catalogue: Catalogue, slug: string): Block[] {
  const { service, lineage } = record(catalogue, slug);
  const origin = catalogue.bySlug.get(lineage!.origin)!.service;
  const originProvider = catalogue.providerById.get(origin.providerId)!.provider;
  const operator = catalogue.providerById.get(service.providerId)!.provider;
  return [
    {
      kind: "note",
      tone: "info",
      parts: [
        `${originProvider.shortName}'s `,
        link(origin.name, servicePath(origin)),
        `, operated by ${operator.shortName}. Source: `,
        link(lineage!.source.url, lineage!.source.url),
        " (",
        ...readOn(lineage!.source),
        ")",
      ],
    },
  ];
}

/** The protocols and APIs the vendor states the service speaks, each with its page (1.8.0). */
const compatibilityBlocks: SectionBlocks = (catalogue, slug) => [
  {
    kind: "list",
    items: record(catalogue, slug).compatibility.map((claim) => {
      const term = catalogue.compatibilityById.get(claim.id);
      return [
        term ? link(term.name, term.url) : claim.id,
        " — the vendor states it. Source: ",
        link(claim.source.url, claim.source.url),
        " (",
        ...readOn(claim.source),
        ")",
      ];
    }),
  },
];

const subServiceBlocks: SectionBlocks = (catalogue, slug) => [
  {
    kind: "table",
    head: ["Name", "Kind", "Description"],
    rows: record(catalogue, slug).subServices.map((sub) => [sub.name, sub.kind, sub.description ?? ""]),
  },
];

/** Each version family as a table, with the page behind its dates (data/versions/). */
const versionBlocks: SectionBlocks = (catalogue, slug) =>
  versionTables(catalogue, slug).flatMap((table): Block[] => {
    const successor = table.successorSlug ? catalogue.bySlug.get(table.successorSlug)?.service : undefined;
    return [
      heading(3, table.title),
      ...(table.note ? [paragraph(table.note)] : []),
      { kind: "table", head: [...table.head], rows: table.rows.map((row) => [...row]) },
      // What each phase after standard support means and costs, with its page where not the family's.
      ...table.phases.map((phase) =>
        paragraph(
          phase.text,
          ...(phase.source ? [" (", link(phase.source.url, phase.source.url), ", ", ...readOn(phase.source), ")"] : []),
        ),
      ),
      paragraph(
        ...(successor ? ["Moves to ", link(successor.name, servicePath(successor)), ". "] : []),
        `Source: ${table.source.backs}: `,
        link(table.source.url, table.source.url),
        " (",
        ...readOn(table.source),
        ")",
      ),
    ];
  });

const terraformBlocks: SectionBlocks = (catalogue, slug) => [
  { kind: "fields", rows: [["Resource types", [record(catalogue, slug).terraformResources.join(", ")]]] },
];

function equivalentBlocks(catalogue: Catalogue, slug: string): Block[] {
  // The closest stand-ins first, the ranking the site's "Compare with" picks from (issue 123).
  const equivalents = closestEquivalents(catalogue, slug).map((other) => catalogue.bySlug.get(other)!.service);
  if (equivalents.length === 0) return [paragraph("No equivalent on another provider is recorded.")];
  // What moving there keeps and loses (issue 98): the exit plan's own function, where recorded.
  // A row per job both do, and the protocols spoken are said on each: each phrase said once.
  const groupsOf = (other: string) => catalogue.bySlug.get(other)?.groupIds ?? [];
  const moving = equivalents.map((other) =>
    [
      ...new Set(
        keyDifferences(catalogue.capabilities, groupsOf, slug, other.slug, protocolReader(catalogue)).flatMap((row) =>
          row.words.split("; "),
        ),
      ),
    ]
      .filter(Boolean)
      .join("; "),
  );
  if (moving.every((words) => words === ""))
    return [
      {
        kind: "table",
        head: ["Service", "Provider", "Lifecycle"],
        rows: equivalents.map((other) => serviceRow(other)),
      },
    ];
  return [
    {
      kind: "table",
      head: ["Service", "Provider", "Lifecycle", "Moving there"],
      rows: equivalents.map((other, i) => [...serviceRow(other), moving[i] || "not recorded"]),
    },
  ];
}

/** The identifiers a service needs besides its own (data/dependencies/), each group with why and its source. */
const dependencyBlocks: SectionBlocks = (catalogue, slug) => [
  paragraph(
    "Identifiers besides the service's own that a policy allowing it must allow too; the policy generators add them.",
  ),
  {
    kind: "list",
    items: record(catalogue, slug).dependencies.map(({ identifiers, source }) => [
      identifiers.join(", "),
      ` — ${source.backs}. Source: `,
      link(source.url, source.url),
      ` (checked ${source.checked})`,
    ]),
  },
];

/** The vendor pages behind a service's facts, newest first: what each backs, when it was read, from what copy. */
function sourcesBlocks(catalogue: Catalogue, slug: string): Block[] {
  const { sources } = record(catalogue, slug);
  if (sources.length === 0)
    return [paragraph("No vendor page is recorded for this service yet, so none of its facts is marked as verified.")];
  // "compliance (ANSSI SecNumCloud, for Managed Dedicated Cloud - SecNumCloud)": the offer when narrower than the service.
  const scopeOf = (source: ServiceSourceT) =>
    [source.programmes && programmeNames(catalogue, source.programmes), source.offer && `for ${source.offer}`]
      .filter(Boolean)
      .join(", ");
  const backs = (source: ServiceSourceT) =>
    scopeOf(source) ? `${source.backs.join(", ")} (${scopeOf(source)})` : source.backs.join(", ");
  return [
    {
      kind: "list",
      items: sources.map((source) => [
        link(source.url, source.url),
        ` — backs ${backs(source)}; `,
        ...sourceDates(source),
        // What the page states, as read: the claims a description's terms are checked against.
        ...(source.claims ? [`; states: ${source.claims.join("; ")}`] : []),
      ]),
    },
  ];
}

/** Each section's blocks, below its heading: every section of sections.ts has one (the type says so). */
const SECTION_BLOCKS: Record<ServiceSectionId, SectionBlocks> = {
  summary: summaryBlocks,
  fields: fieldBlocks,
  lineage: lineageBlocks,
  compatibility: compatibilityBlocks,
  "sub-services": subServiceBlocks,
  versions: versionBlocks,
  "policy-identifiers": (catalogue, slug) => [
    { kind: "fields", rows: policyIdentifierRows(record(catalogue, slug).policyIdentifiers) },
  ],
  terraform: terraformBlocks,
  regions: (catalogue, slug) => {
    const { level, rows } = regionsSection(catalogue, slug);
    return [paragraph(level), { kind: "fields", rows: rows.map(([country, ids]) => [country, [ids]]) }];
  },
  equivalents: equivalentBlocks,
  dependencies: dependencyBlocks,
  sources: sourcesBlocks,
};

export function servicePage(catalogue: Catalogue, slug: string): Doc {
  const { service } = record(catalogue, slug);
  const provider = catalogue.providerById.get(service.providerId)!.provider;
  const blocks = shownSections(catalogue, slug).flatMap((section) => [
    ...("heading" in section ? [heading(2, section.heading)] : []),
    ...SECTION_BLOCKS[section.id](catalogue, slug),
  ]);
  return { title: `${service.name} — ${provider.shortName}`, blocks };
}
