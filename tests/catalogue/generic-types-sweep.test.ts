/**
 * Issue 121: every generic type of the catalogue's providers' Terraform providers is placed by its
 * attribute. The sweep reads the vendored Terraform inventories (catalogue/inventory/data/<provider>/
 * terraform, each the provider's own list of resource types) reconciled against the catalogue: a type
 * several services own, or whose exclusion says it serves every engine, is generic. Each is a
 * GENERIC_TYPES row (placed by an attribute: exoscale_dbaas by type) or a SHARED_TYPES entry saying
 * why no attribute places it; the table's services exist and are of the type's provider; and each
 * row places what its attribute names, through the check.
 */
import { describe, expect, it } from "vitest";
import { reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { GENERIC_TYPES, SHARED_TYPES, sharedPatternMatches } from "../../catalogue/templates/tables/generic-types.ts";
import { terraformProviderOf } from "../../catalogue/templates/tables/terraform-providers.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const { inventories, reports } = reconcileAll(catalogue);
/** What an exclusion says of a type that serves several services. */
const SERVES_SEVERAL =
  /\b(every|any|several|each)\b[^.;]*\bengines?\b|generic|shared by every|one resource type for every/i;

/** Every generic type the inventories hold: [inventory, type, why it is generic]. */
const generic: [string, string, string][] = inventories.flatMap((inventory, at) => {
  if (!inventory.id.endsWith("/terraform")) return [];
  const report = reports[at]!;
  return inventory.items.flatMap((item): [string, string, string][] => {
    const owners = report.owners.get(item) ?? [];
    const note = report.exclusionOf.get(item)?.note ?? "";
    if (owners.length > 1) return [[inventory.id, item, `owned by ${owners.join(", ")}`]];
    if (SERVES_SEVERAL.test(note)) return [[inventory.id, item, note]];
    return [];
  });
});
const placed = new Set(GENERIC_TYPES.filter((row) => row.kind === "terraform-type").map((row) => row.type));

describe("the generic types of the providers' Terraform providers", () => {
  it("are found in every provider's inventory that has them (the sweep sees them)", () => {
    expect(generic.length).toBeGreaterThan(500);
    for (const type of ["exoscale_dbaas", "vultr_database", "ibm_database", "digitalocean_database_cluster"])
      expect(
        generic.some(([, item]) => item === type),
        type,
      ).toBe(true);
  });

  it("each is placed by an attribute (GENERIC_TYPES) or says why no attribute places it (SHARED_TYPES)", () => {
    const unplaced = generic.filter(
      ([, type]) => !placed.has(type) && !SHARED_TYPES.some((entry) => sharedPatternMatches(entry.pattern, type)),
    );
    expect(unplaced.map(([inventory, type, why]) => `${inventory} ${type}: ${why.slice(0, 80)}`)).toEqual([]);
  });

  it("names no stale entry: each shared pattern matches a generic type, each row's type is in its inventory", () => {
    for (const entry of SHARED_TYPES)
      expect(
        generic.some(([, type]) => sharedPatternMatches(entry.pattern, type)),
        entry.pattern,
      ).toBe(true);
    const items = new Set(inventories.flatMap((inventory) => inventory.items));
    for (const type of placed) expect(items.has(type), type).toBe(true);
  });

  it("places each value in a service of the catalogue, of the type's own provider", () => {
    for (const row of GENERIC_TYPES.filter((entry) => entry.kind === "terraform-type"))
      for (const [value, id] of Object.entries(row.byValue)) {
        const service = catalogue.bySlug.get(id)?.service;
        expect(service, `${row.type} ${value} → ${id}`).toBeDefined();
        expect(service!.providerId, `${row.type} ${value}`).toBe(terraformProviderOf(row.type));
      }
  });

  it.each(
    GENERIC_TYPES.filter((row) => row.kind === "terraform-type" && !row.byValue["*"]).map(
      (row) => [row.type, row] as const,
    ),
  )("%s: each value its attribute takes places the resource in that value's service", (_, row) => {
    for (const [value, id] of Object.entries(row.byValue)) {
      const path = row.attribute.split(".");
      // A nested block (db.0.type) is written as the block.
      const body =
        path.length === 3 ? `  ${path[0]} {\n    ${path[2]} = "${value}"\n  }\n` : `  ${row.attribute} = "${value}"\n`;
      const answer = checkTemplate(
        catalogue,
        new TerraformFiles({ "main.tf": `resource "${row.type}" "x" {\n${body}}\n` }),
        [id],
      );
      expect(
        answer.services.map((service) => service.id),
        `${row.type} ${row.attribute} = ${value}`,
      ).toEqual([id]);
    }
  });

  it("exoscale_dbaas of type pg needs Exoscale PostgreSQL: a list without it fails, with it passes", () => {
    const files = new TerraformFiles({
      "main.tf":
        'resource "exoscale_dbaas" "pg" {\n  zone = "ch-gva-2"\n  name = "db"\n  type = "pg"\n  plan = "hobbyist-2"\n}\n',
    });
    const without = checkTemplate(catalogue, files, ["exoscale-dbaas-mysql"]);
    expect(without.missingServiceIds).toEqual(["exoscale-dbaas-postgresql"]);
    expect(without.unplaced).toEqual([]);
    expect(checkTemplate(catalogue, files, ["exoscale-dbaas-postgresql"]).missingServiceIds).toEqual([]);
  });
});
