/** Terraform plans as `terraform show -json` writes them, for the suites that run the deployment check on one. */

/** A resource the plan creates: its type, its name and its attributes after the change (none when left out). */
export type PlannedResource = readonly [type: string, name: string, after?: Record<string, unknown>];

/** A plan creating each resource; `fields` are the plan's other top-level fields (terraform_version…). */
export const terraformPlan = (resources: readonly PlannedResource[], fields: Record<string, unknown> = {}) => ({
  format_version: "1.2",
  ...fields,
  resource_changes: resources.map(([type, name, after = {}]) => ({
    address: `${type}.${name}`,
    mode: "managed",
    type,
    name,
    change: { actions: ["create"], before: null, after },
  })),
});
