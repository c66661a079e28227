/**
 * A service page's identifier sections: its policy identifiers, then the Terraform resource types
 * it owns (1.9.0), so an architect reading a plan sees which service each resource belongs to.
 */
import type { PolicyIdentifiersT } from "../schema/index.ts";
import { heading, type Block, type Inline } from "./doc.ts";

export function identifierBlocks(ids: PolicyIdentifiersT, terraformResources: readonly string[]): Block[] {
  const identifierRows: [string, Inline[]][] = [];
  if (ids.iamPrefixes) identifierRows.push(["AWS IAM prefixes", [ids.iamPrefixes.join(", ")]]);
  if (ids.resourceTypes) identifierRows.push(["Azure resource types", [ids.resourceTypes.join(", ")]]);
  if (ids.apiServices) {
    identifierRows.push([
      "Google APIs",
      [ids.apiServices.map((api) => `${api.name}${api.restrictServiceUsage ? "" : " (not restrictable)"}`).join(", ")],
    ]);
  }
  for (const other of ids.other ?? []) identifierRows.push([other.scheme, [other.values.join(", ")]]);
  if (ids.noneReason) identifierRows.push(["None", [ids.noneReason]]);
  const blocks: Block[] = [];
  if (identifierRows.length > 0)
    blocks.push(heading(2, "Policy identifiers"), { kind: "fields", rows: identifierRows });
  if (terraformResources.length > 0) {
    blocks.push(heading(2, "Terraform resource types"), {
      kind: "fields",
      rows: [["Resource types", [terraformResources.join(", ")]]],
    });
  }
  return blocks;
}
