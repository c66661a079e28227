/**
 * Terraform resource types on services (terraformResources, added in 1.9.0): the resource types of
 * the vendor's official Terraform provider that create the service's resources, so a plan's
 * resources can be named by service. A type belongs to one service only: a plan line must resolve
 * to exactly one owner, so a type two services would claim goes on the one whose resource it is
 * (the other's use of it is a dependency, not ownership).
 */
interface Claim {
  readonly where: string;
  readonly slug: string;
  readonly types: readonly string[] | undefined;
}

/** No type twice in a service, and no type claimed by two services, as "…: field terraformResources: …" phrases. */
export function terraformResourceProblems(claims: Iterable<Claim>): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  for (const { where, slug, types } of claims) {
    const seen = new Set<string>();
    for (const type of types ?? []) {
      const at = `${where}: field terraformResources: ${type}`;
      if (seen.has(type)) problems.push(`${at} is listed twice`);
      seen.add(type);
      const other = owner.get(type);
      if (other && other !== slug) problems.push(`${at} is already claimed by ${other}; a type has one owning service`);
      else owner.set(type, slug);
    }
  }
  return problems;
}
