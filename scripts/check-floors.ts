/**
 * `npm run check:floors`: the folders stand on floors, and an import only runs down. Three houses
 * are checked: the repository's top-level folders, the folders inside catalogue/ (catalogue/README.md,
 * "Floors"), and the deployment check's, catalogue/templates/ (its README: readers, evaluator,
 * resolved deployment, rules, answer). A folder imports only folders on lower floors — never one on its own floor or above —
 * so a folder-level loop cannot form either. dpdm reads the imports, type-only ones included, as
 * `npm run check:cycles` does for files; a folder nobody placed on a floor fails too, so a new one
 * is placed on purpose. In sidecar/, the files that build and start the hosts stand at the top
 * (SIDECAR_TOP).
 */
import { relative, resolve, sep } from "node:path";
import { parseDependencyTree, type DependencyTree } from "dpdm";

/** One house: its folder, and its floors from the ground up, each floor the folders standing on it. */
export interface House {
  readonly root: string;
  readonly floors: readonly (readonly string[])[];
  /**
   * Folders of generated code, which stand on no floor and are not checked: what a tool writes from
   * the tables (catalogue/generated/) is read by the faces above, never edited here.
   */
  readonly apart?: readonly string[];
}

/** The repository: the domain at the ground, the faces above it, the commands on top. */
export const REPOSITORY: House = {
  root: ".",
  floors: [["catalogue"], ["build", "mcp"], ["sidecar", "site"], ["scripts"]],
};

/** catalogue/: the leaves, the schemas and the Doc, the domain, the tables and what is generated from them. */
export const CATALOGUE: House = {
  root: "catalogue",
  floors: [
    ["base"],
    ["schema", "format"],
    ["compliance", "dependencies", "versions", "capabilities", "locations"],
    ["inventory"],
    ["load"],
    ["search", "lifecycle", "lists"],
    ["equivalence", "policies"],
    ["exit", "quality", "templates"],
    ["render", "register"],
    ["contract"],
    ["outputs"],
  ],
  apart: ["generated"],
};

/**
 * catalogue/templates/: a deployment passes each floor once, upwards: the types (model), the vendor
 * tables, the readers (text to structure), the resolved deployment's builder, the evaluator (structure
 * to resource instances), the inventories' index, the rules (services, policies, needs, locations,
 * versions), the answer's faces (statements, findings, SARIF, render), then the two entries: read.ts
 * (a text to a resolved deployment) and check.ts (a resolved deployment to the answer).
 */
export const TEMPLATES: House = {
  root: "catalogue/templates",
  floors: [
    ["model"],
    ["tables"],
    ["readers", "resolved.ts"],
    ["evaluate"],
    ["index.node.ts"],
    ["rules"],
    ["answer"],
    ["read.ts", "check.ts"],
  ],
};

/** The import graph as dpdm gives it: file → the files it imports (paths from the repository's root). */
export type ImportTree = Readonly<Record<string, readonly { readonly id: string | null }[] | null>>;

/** The folder of `house` a file stands in (a file at the house's top stands alone), or none outside it. */
function folderOf(house: House, file: string): string | undefined {
  const inside =
    house.root === "." ? file : file.startsWith(`${house.root}/`) ? file.slice(house.root.length + 1) : undefined;
  if (inside === undefined) return undefined;
  return inside.split("/")[0];
}

/** Every import of `tree` that does not run down a floor of `house`, and every file on no floor, in words. */
export function floorViolations(house: House, tree: ImportTree): string[] {
  const floorOf = new Map(house.floors.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)));
  const problems = new Set<string>();
  const where = (folder: string) => `${house.root === "." ? "" : `${house.root}/`}${folder}`;
  for (const [file, imports] of Object.entries(tree)) {
    const from = folderOf(house, file);
    if (from === undefined || house.apart?.includes(from)) continue;
    const fromFloor = floorOf.get(from);
    if (fromFloor === undefined) {
      if (house.root !== ".") problems.add(`${file}: ${where(from)} is on no floor (scripts/check-floors.ts)`);
      continue;
    }
    for (const { id } of imports ?? []) {
      const to = id === null ? undefined : folderOf(house, id);
      if (to === undefined || to === from) continue;
      const toFloor = floorOf.get(to);
      if (toFloor === undefined) continue; // reported from its own files, or outside the floors (tests/)
      if (toFloor === fromFloor)
        problems.add(`${file} imports ${id}: ${where(from)} and ${where(to)} share floor ${fromFloor + 1}`);
      if (toFloor > fromFloor)
        problems.add(
          `${file} imports ${id}: up from ${where(from)} (floor ${fromFloor + 1}) to ${where(to)} (floor ${toFloor + 1})`,
        );
    }
  }
  return [...problems].sort();
}

/**
 * sidecar/'s top, from the ground up: the files that build a host (the API app and the text host,
 * side by side), then server.ts, which starts both. No other file of sidecar/ imports them, and a
 * builder imports no other builder, so what the hosts share has a file of its own (host-options.ts).
 */
export const SIDECAR_TOP: readonly (readonly string[])[] = [
  ["sidecar/app.ts", "sidecar/text/app.ts"],
  ["sidecar/server.ts"],
];

/** Every import in sidecar/ of a file of SIDECAR_TOP that does not stand below it, in words. */
export function topViolations(top: readonly (readonly string[])[], tree: ImportTree, root = "sidecar"): string[] {
  const levelOf = new Map(top.flatMap((files, level) => files.map((file) => [file, level] as const)));
  const problems: string[] = [];
  for (const [file, imports] of Object.entries(tree)) {
    if (!file.startsWith(`${root}/`)) continue;
    const from = levelOf.get(file) ?? -1;
    for (const { id } of imports ?? []) {
      const to = id === null ? undefined : levelOf.get(id);
      if (to !== undefined && to >= from && id !== file)
        problems.push(`${file} imports ${id}: up to ${root}'s top (${top[to]!.join(", ")})`);
    }
  }
  return problems.sort();
}

/** dpdm's graph of the TypeScript files in `folders` of `cwd`, keyed by paths from `cwd` with forward slashes. */
export async function importTree(cwd: string, folders: readonly string[]): Promise<ImportTree> {
  const tree: DependencyTree = await parseDependencyTree(
    folders.map((folder) => `${folder}/**/*.ts`),
    {
      cwd,
      context: cwd,
      transform: false,
      skipDynamicImports: false,
    },
  );
  const slash = (path: string) => relative(cwd, resolve(cwd, path)).split(sep).join("/");
  return Object.fromEntries(
    Object.entries(tree).map(([file, imports]) => [
      slash(file),
      imports?.map(({ id }) => ({ id: id === null ? null : slash(id) })) ?? null,
    ]),
  );
}

if (import.meta.main) {
  const tree = await importTree(process.cwd(), REPOSITORY.floors.flat());
  const problems = [
    ...[REPOSITORY, CATALOGUE, TEMPLATES].flatMap((house) => floorViolations(house, tree)),
    ...topViolations(SIDECAR_TOP, tree),
  ];
  for (const problem of problems) console.error(`floors: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`floors: ${Object.keys(tree).length} files, every import runs down a floor`);
}
