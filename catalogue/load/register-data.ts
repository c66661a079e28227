/**
 * data/register.yaml (issue 127) cross-checked: every category of categories.yaml has one ICT
 * service type and no category is unknown or given twice; every entity's provider is a provider of
 * the catalogue, listed once. The LEIs' check digits are the schema's (schema/register.ts).
 */
import type { RegisterFileT } from "../schema/register.ts";

export function registerProblems(
  file: RegisterFileT,
  at: string,
  categories: ReadonlySet<string>,
  providers: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const typed = new Set<string>();
  file.serviceTypes.forEach(({ category }, index) => {
    if (!categories.has(category))
      problems.push(`${at}: serviceTypes[${index}]: unknown category "${category}" (see categories.yaml)`);
    if (typed.has(category)) problems.push(`${at}: serviceTypes[${index}]: category "${category}" is listed twice`);
    typed.add(category);
  });
  for (const category of categories)
    if (!typed.has(category))
      problems.push(`${at}: serviceTypes: category "${category}" has no ICT service type; add a row with its reason`);
  const listed = new Set<string>();
  file.entities.forEach(({ provider }, index) => {
    if (!providers.has(provider))
      problems.push(`${at}: entities[${index}]: unknown provider "${provider}" (see providers/)`);
    if (listed.has(provider)) problems.push(`${at}: entities[${index}]: provider "${provider}" is listed twice`);
    listed.add(provider);
  });
  return problems;
}
