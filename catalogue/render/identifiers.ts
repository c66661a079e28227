/**
 * A service's policy identifiers as field rows (the service page's "Policy identifiers" section);
 * a service with none says why, or that none is recorded, as the site's page does.
 */
import type { PolicyIdentifiersT } from "../schema/index.ts";
import type { Inline } from "../format/doc.ts";

export function policyIdentifierRows(ids: PolicyIdentifiersT): [string, Inline[]][] {
  const rows: [string, Inline[]][] = [];
  if (ids.iamPrefixes) rows.push(["AWS IAM prefixes", [ids.iamPrefixes.join(", ")]]);
  if (ids.resourceTypes) rows.push(["Azure resource types", [ids.resourceTypes.join(", ")]]);
  if (ids.apiServices) {
    rows.push([
      "Google APIs",
      [ids.apiServices.map((api) => `${api.name}${api.restrictServiceUsage ? "" : " (not restrictable)"}`).join(", ")],
    ]);
  }
  for (const other of ids.other ?? []) rows.push([other.scheme, [other.values.join(", ")]]);
  if (ids.noneReason) rows.push(["None", [ids.noneReason]]);
  if (rows.length === 0) rows.push(["None", ["Not recorded."]]);
  return rows;
}
