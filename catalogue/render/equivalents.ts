/**
 * The equivalence matrix as text-host documents: /equivalents (rows = kinds of service, columns =
 * the chosen providers, default the three largest; ?providers=a,b and ?category=id) and
 * /equivalents/{id} (one kind, its members by provider).
 */
import { equivalenceGroup, equivalenceMatrix, matrixColumns } from "../equivalence/equivalents.ts";
import type { Catalogue } from "../load/load.ts";
import { heading, link, paragraph, type Block, type Doc, type Inline } from "../format/doc.ts";
import { href } from "../base/urls.ts";
import { categoryPath, lifecycleLabel, servicePath } from "./pages.ts";

export const equivalentsPath = (id?: string): string => (id ? href("equivalence-group", { id }) : href("equivalents"));

/** The matrix page; unknown provider ids are left out (named in a note), an unknown category shows no rows. */
export function equivalentsDoc(catalogue: Catalogue, providers: readonly string[], category?: string): Doc {
  const columns = matrixColumns(catalogue, providers);
  const unknown = providers.filter((id) => !catalogue.providerById.has(id));
  const matrix = equivalenceMatrix(catalogue);
  const rows = matrix.data.filter(
    (row) =>
      (!category || row.category === category) && row.members.some((member) => columns.includes(member.providerId)),
  );
  const names = (id: string) => catalogue.providerById.get(id)!.provider.shortName;
  const blocks: Block[] = [
    heading(1, "Equivalent services"),
    paragraph(
      `One row per kind of service, one column per provider: ${columns.map(names).join(", ")}. `,
      "Choose columns with ?providers=aws,azure,gcp,ovhcloud and a category with ?category=storage.",
    ),
  ];
  if (unknown.length > 0) blocks.push(paragraph(`Unknown provider ids left out: ${unknown.join(", ").slice(0, 200)}.`));
  if (category && !catalogue.categoryById.has(category))
    blocks.push(paragraph(`No category "${category.slice(0, 100)}"; the categories are at /category/.`));
  else if (category)
    blocks.push(paragraph("Category: ", link(catalogue.categoryById.get(category)!.name, categoryPath(category)), "."));
  blocks.push({
    kind: "table",
    head: ["Kind", ...columns.map(names)],
    rows: rows.map((row) => [
      link(row.name, equivalentsPath(row.id)),
      ...columns.map((id): Inline => {
        const services = row.members.find((member) => member.providerId === id)?.services ?? [];
        return services.length === 0 ? "—" : services.map((service) => service.shortName ?? service.name).join(", ");
      }),
    ]),
  });
  blocks.push(paragraph(`${rows.length} kinds of service.`));
  return { title: "Equivalent services", blocks };
}

/** " Compatible with …; the same product as …", from the service's compatibility and lineage (1.8.0). */
function compatibilityNote(catalogue: Catalogue, slug: string): Inline[] {
  const { compatibility, lineage } = catalogue.bySlug.get(slug)!;
  const parts: Inline[] = [];
  if (compatibility.length > 0)
    parts.push(
      ` Compatible with ${compatibility.map((claim) => catalogue.compatibilityById.get(claim.id)?.name ?? claim.id).join(", ")}.`,
    );
  const origin = lineage && catalogue.bySlug.get(lineage.origin)?.service;
  if (origin)
    parts.push(
      ` The same product as ${catalogue.providerById.get(origin.providerId)!.provider.shortName}'s `,
      link(origin.name, servicePath(origin)),
      ".",
    );
  return parts;
}

/** One kind of service: its members by provider, largest portfolio first; undefined for an unknown id. */
export function equivalenceGroupDoc(catalogue: Catalogue, id: string): Doc | undefined {
  const group = equivalenceGroup(catalogue, id);
  if (!group) return undefined;
  const blocks: Block[] = [
    heading(1, group.name),
    paragraph(
      "Category: ",
      link(catalogue.categoryById.get(group.category)!.name, categoryPath(group.category)),
      ". ",
      link("All kinds", equivalentsPath()),
      ".",
    ),
  ];
  for (const member of group.members) {
    blocks.push(heading(2, catalogue.providerById.get(member.providerId)!.provider.name));
    blocks.push({
      kind: "list",
      items: member.services.map((service) => [
        link(service.name, servicePath(service)),
        ` — ${lifecycleLabel(service.lifecycle)}${service.description ? `. ${service.description}` : ""}`,
        ...compatibilityNote(catalogue, service.slug),
      ]),
    });
  }
  return { title: group.name, blocks };
}
