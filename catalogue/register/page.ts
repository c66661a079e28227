/**
 * The register as a page (a Doc: Markdown on the API, ANSI, Markdown and HTML on the text host and
 * the site): the checks that fail first, then what remains to fill, then each template as a table
 * whose every cell says where it comes from, the providers' facts with their sources, and notes.
 */
import { heading, link, paragraph, strong, type Block, type Doc, type Inline } from "../format/doc.ts";
import type { RegisterCellT, RegisterT } from "../schema/index.ts";

/** A cell in words: its value (or label), and its basis in brackets; an entity cell says "to fill". */
function cellText(cell: RegisterCellT | undefined): string {
  if (!cell) return "";
  if (cell.basis === "entity") return "(entity to fill)";
  const shown = cell.label && cell.label !== cell.value ? `${cell.value} (${cell.label})` : cell.value;
  if (cell.value === "") return "(not reported)";
  const basis =
    cell.basis === "catalogue"
      ? ""
      : cell.basis === "exit-plan"
        ? " [exit plan]"
        : cell.basis === "request"
          ? " [given]"
          : "";
  return `${shown}${basis}`;
}

export const registerTitle = (listName?: string) => `DORA register${listName ? `: ${listName}` : ""}`;

/** The links the page offers: the same register as CSV and as the report package (absent where the face has none). */
export interface RegisterLinks {
  readonly zip?: string;
  readonly csv?: (template: string) => string;
  readonly exitPlan?: string;
}

export function registerDoc(register: RegisterT, options: { listName?: string; links?: RegisterLinks } = {}): Doc {
  const links = options.links ?? {};
  const failures = register.checks.failures;
  const title = registerTitle(options.listName);
  const blocks: Block[] = [
    heading(1, title),
    paragraph(
      `The provider side of the register of information (${register.regulation}) for ${register.providers.length} provider${register.providers.length === 1 ? "" : "s"}: `,
      strong(`${failures.length} check${failures.length === 1 ? "" : "s"} fail`),
      `, ${register.toFill.length} column${register.toFill.length === 1 ? "" : "s"} left to the entity.`,
    ),
  ];
  const downloads: Inline[] = [];
  if (links.zip) downloads.push(link("xBRL-CSV report package (zip)", links.zip), " · ");
  if (links.csv)
    for (const template of register.templates)
      downloads.push(link(`${template.id} CSV`, links.csv(template.file.replace(".csv", ""))), " · ");
  if (links.exitPlan) downloads.push(link("the exit plan behind B_07.01", links.exitPlan));
  if (downloads.length > 0) blocks.push(paragraph(...downloads));

  blocks.push(
    ...checkBlocks(register),
    ...toFillBlocks(register),
    ...templateBlocks(register),
    ...providerBlocks(register),
  );
  blocks.push(heading(2, "Notes"));
  blocks.push({ kind: "list", items: register.notes.map((note) => [note]) });
  blocks.push(
    paragraph(
      `Catalogue ${register.catalogue.release ?? "(no release recorded)"}, data of ${register.catalogue.lastUpdated.slice(0, 10)}; taxonomy ${register.taxonomy}.`,
    ),
  );
  return { title, blocks };
}

function checkBlocks(register: RegisterT): Block[] {
  const failures = register.checks.failures;
  return [
    heading(2, `Checks the supervisors run (${failures.length} failing)`),
    failures.length === 0
      ? paragraph("Every check run passes.")
      : {
          kind: "table",
          head: ["Rule", "Template", "Column", "Row", "What to fix"],
          rows: failures.map((check) => [
            check.rule,
            check.template,
            check.column ?? "",
            check.row ?? "",
            check.message,
          ]),
        },
    paragraph(`Not run: ${register.checks.notRun.join(" ")}`),
  ];
}

function toFillBlocks(register: RegisterT): Block[] {
  return [
    heading(2, "What remains to fill"),
    {
      kind: "table",
      head: ["Template", "Column", "Name", "Rows", "What to enter"],
      rows: register.toFill.map((entry) => [
        entry.template,
        entry.column,
        entry.name,
        String(entry.rows.length),
        entry.why,
      ]),
    },
  ];
}

/** Each template, one field list a row: columns down, so that 18 columns stay readable in a terminal. */
function templateBlocks(register: RegisterT): Block[] {
  return register.templates.flatMap((template): Block[] => [
    heading(2, `${template.id} ${template.name}`),
    ...(template.rows.length === 0
      ? [paragraph("No row.")]
      : template.rows.flatMap((row): Block[] => [
          heading(3, row.label),
          {
            kind: "fields",
            rows: template.columns.map(({ code, name }): [string, Inline[]] => {
              const cell = row.cells[code];
              return [
                `${code} ${name}`,
                [cellText(cell), ...(cell?.note && cell.basis !== "entity" ? [` — ${cell.note}`] : [])],
              ];
            }),
          },
          paragraph(`Services: ${row.services.join(", ")}`),
        ])),
  ]);
}

function providerBlocks(register: RegisterT): Block[] {
  const blocks: Block[] = [heading(2, "Providers and their sources")];
  for (const provider of register.providers) {
    blocks.push(
      paragraph(
        strong(provider.providerName),
        `: ${provider.entity}${provider.country ? ` (${provider.country})` : ""}`,
        provider.basis === "head-office"
          ? " — the provider's operating company: the catalogue records no EU contracting entity for it."
          : provider.for
            ? ` — contracts with ${provider.for}.`
            : ".",
        provider.lei ? ` LEI ${provider.lei}.` : " LEI not known.",
        provider.parent
          ? ` Parent: ${provider.parent.name}${provider.parent.country ? ` (${provider.parent.country})` : ""}${provider.parent.lei ? `, LEI ${provider.parent.lei}` : ""}.`
          : "",
      ),
    );
    if (provider.sources.length > 0)
      blocks.push({
        kind: "list",
        items: provider.sources.map((source) => [
          link(source.url, source.url),
          ` (read ${source.retrieved}${source.asOf ? `, as of ${source.asOf}` : ""}): ${source.claims.join(" ")}${source.note ? ` Note: ${source.note}.` : ""}`,
        ]),
      });
  }
  return blocks;
}
