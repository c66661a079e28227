/**
 * Deployment dependencies from AWS's CloudFormation resource schemas (inventory aws/cloudformation):
 * each resource type a service owns (map.yaml) brings the IAM actions its create, update and delete
 * handlers need under other prefixes, so that approving a service lets its own resources deploy.
 * One dependency group per type, with the type and the schema file as its source; merged by the
 * loader into the services' dependencies (catalogue/data/dependencies/ holds the hand-written ones).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEPENDENCY_SHAPES, type DependencyMap } from "../dependencies/dependencies.ts";
import type { ServiceDependencyT } from "../schema/index.ts";
import { reconcileInventory, type InventoryService } from "./inventory.ts";
import { readInventory } from "./load.node.ts";

export const CLOUDFORMATION_INVENTORY = "aws/cloudformation";
const SCHEMAS = "src/cfnlint/data/schemas/providers";

/** handler-permissions.json: per resource type, the schema read and its handlers' actions. */
export type HandlerPermissions = Readonly<
  Record<
    string,
    { readonly schema: string; readonly permissions: readonly string[]; readonly unknown?: readonly string[] }
  >
>;

export function readHandlerPermissions(inventoryDir: string): HandlerPermissions | undefined {
  const path = join(inventoryDir, CLOUDFORMATION_INVENTORY, "handler-permissions.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as HandlerPermissions) : undefined;
}

/**
 * Per service slug, one group per CloudFormation type it owns whose handlers need actions outside
 * the service's own prefixes. Empty when the inventory folder is absent (test data folders).
 */
export function cloudFormationDependencies(
  inventoryDir: string,
  services: readonly InventoryService[],
  problems: string[] = [],
): DependencyMap {
  const permissions = readHandlerPermissions(inventoryDir);
  if (!permissions || !existsSync(join(inventoryDir, CLOUDFORMATION_INVENTORY, "source.yaml"))) return {};
  const inventory = readInventory(inventoryDir, CLOUDFORMATION_INVENTORY, problems);
  if (!inventory) return {};
  const { commit, repository, retrieved } = inventory.source;
  const bySlug = new Map(services.map((service) => [service.slug, service]));
  const report = reconcileInventory(inventory, services, (slug) => bySlug.has(slug));
  const result: Record<string, ServiceDependencyT[]> = {};
  for (const [type, owners] of report.owners) {
    const entry = permissions[type];
    if (!entry) continue;
    for (const slug of owners) {
      const own = new Set(bySlug.get(slug)?.policyIdentifiers?.iamPrefixes ?? []);
      // A whole other prefix (events:*) would approve that service outright: such entries are left
      // out, as the hand-written dependencies may not name one either.
      const identifiers = entry.permissions.filter(
        (action) => !own.has(action.split(":")[0]!) && DEPENDENCY_SHAPES.aws!.pattern.test(action),
      );
      if (identifiers.length === 0) continue;
      (result[slug] ??= []).push({
        identifiers: [...identifiers],
        resourceType: type,
        source: {
          url: `${repository}/blob/${commit}/${SCHEMAS}/${entry.schema}`,
          backs: `the ${type} resource schema: its create, update and delete handlers need these actions besides the service's own`,
          checked: retrieved,
        },
      });
    }
  }
  return result;
}
