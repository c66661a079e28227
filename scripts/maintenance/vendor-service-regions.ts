/**
 * `node scripts/maintenance/vendor-service-regions.ts azure <PSRule.Rules.Azure git dir> [commit]`,
 * `node scripts/maintenance/vendor-service-regions.ts gcp <region-picker git dir> [commit]` and
 * `node scripts/maintenance/vendor-service-regions.ts otc <regions-and-endpoints git dir> <Swiss regions-and-endpoints git dir>`:
 * write a reduced copy of a vendor's per-resource-type, per-product or per-service region
 * availability to catalogue/inventory/data/<provider>/locations/regions.json (service-regions.node.ts
 * reads it).
 *
 * - azure: Azure/PSRule.Rules.Azure's data/providers/<namespace>/types.json, the Azure Resource
 *   Manager provider list (`GET /providers`: each resource type's `locations`) that Microsoft's
 *   PSRule project commits. Kept: every resource type with at least one location, keyed
 *   `<namespace>/<type>` in lower case, its locations as ARM location names (display name lower-cased,
 *   spaces removed: "West Europe" → westeurope), each distinct list once in `locationSets`.
 * - gcp: GoogleCloudPlatform/region-picker's data/products.json, the product × region table of
 *   cloud.google.com/about/locations as its parser reads it; kept per product the regions marked
 *   available, and in `notInTable` the regions of a continent whose table has no row for it (the
 *   page says nothing of the product there).
 * - scaleway: scaleway/scaleway-sdk-go's api/<product>/<version>/*_sdk.go, where each API client
 *   says the regions (`Regions()`) or zones (`Zones()`) it serves; kept per `<product>/<version>
 *   <client>` its regions, a zone read as its region (fr-par-3 → fr-par, by scw/locality.go's names).
 * - otc: opentelekomcloud-docs/regions-and-endpoints and opentelekomcloud-docs-swiss/regions-and-endpoints
 *   doc/source/index.rst, Open Telekom Cloud's tables of each service's endpoint per region (the
 *   public cloud's eu-de and eu-nl, the Swiss cloud's eu-ch2); kept per service name (as the table
 *   writes it) the regions it has an endpoint in, both tables joined.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_INVENTORY_DIR } from "../../catalogue/inventory/load.node.ts";

const [provider, gitDir, third] = process.argv.slice(2);
if (!["azure", "gcp", "otc", "scaleway"].includes(provider ?? "") || !gitDir || (provider === "otc" && !third)) {
  console.error(
    "usage: node scripts/maintenance/vendor-service-regions.ts azure|gcp|scaleway <git dir> [commit], or otc <git dir> <Swiss git dir>",
  );
  process.exit(1);
}
const commit = provider === "otc" ? "HEAD" : (third ?? "HEAD");
const gitIn = (dir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
const git = (...args: string[]) => gitIn(gitDir, ...args);
/** The file of OTC's regions-and-endpoints repositories that holds the table. */
const OTC_TABLE = "doc/source/index.rst";
const hash = git("rev-parse", `${commit}^{commit}`).trim();
/** The artefact's date: when the vendored path last changed at that commit. */
const date = git(
  "log",
  "-1",
  "--format=%cs",
  commit,
  "--",
  { azure: "data/providers", gcp: "data/products.json", otc: OTC_TABLE, scaleway: "api" }[provider!]!,
).trim();

/** ARM's location name for a display name ("Germany West Central" → germanywestcentral). */
export const armLocationName = (displayName: string): string => displayName.toLowerCase().replace(/\s+/g, "");

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

function azureItems(): { sets: string[][]; items: [string, number][]; missing: string[] } {
  const folder = "data/providers";
  const paths = git("ls-tree", "-r", "--name-only", commit, folder)
    .split("\n")
    .filter((path) => path.endsWith("/types.json"));
  const sets: string[][] = [];
  const setIndex = new Map<string, number>();
  const items: [string, number][] = [];
  const missing: string[] = [];
  const all: [string, string[]][] = [];
  for (const path of paths) {
    const namespace = path.split("/").at(-2)!;
    let text: string;
    try {
      text = git("show", `${commit}:${path}`);
    } catch {
      // A mirror may lack its largest blobs: say so rather than vendor a partial namespace.
      missing.push(namespace);
      continue;
    }
    for (const type of JSON.parse(text) as { resourceType: string; locations?: string[] | null }[]) {
      const locations = [...new Set((type.locations ?? []).map(armLocationName))].sort();
      if (locations.length > 0) all.push([`${namespace}/${type.resourceType.toLowerCase()}`, locations]);
    }
  }
  for (const [item, locations] of all.sort(byKey)) {
    const key = locations.join(",");
    if (!setIndex.has(key)) {
      setIndex.set(key, sets.length);
      sets.push(locations);
    }
    items.push([item, setIndex.get(key)!]);
  }
  return { sets, items, missing };
}

/** Per product, the table's regions it has no cell for (its row is missing from that continent's table). */
function gcpNotInTable(table: Record<string, Record<string, boolean>>): [string, string[]][] {
  const all = [...new Set(Object.values(table).flatMap((regions) => Object.keys(regions)))].sort();
  return Object.entries(table)
    .map(([product, regions]): [string, string[]] => [product, all.filter((region) => !Object.hasOwn(regions, region))])
    .filter(([, missing]) => missing.length > 0)
    .sort(byKey);
}

function gcpItems(table: Record<string, Record<string, boolean>>): [string, string[]][] {
  return Object.entries(table)
    .map(([product, regions]): [string, string[]] => [
      product,
      Object.entries(regions)
        .filter(([, available]) => available)
        .map(([region]) => region)
        .sort(),
    ])
    .sort(byKey);
}

/**
 * One OTC regions-and-endpoints table: per service name its regions. An RST grid table: a row's
 * cells span lines until the next border, a service's further regions are rows with an empty name.
 */
export function otcTable(text: string): Map<string, Set<string>> {
  const body = text.slice(text.search(/^(Regions and )?Endpoints\n-+$/m));
  const services = new Map<string, Set<string>>();
  let current: string | undefined;
  let cells: string[][] = [];
  for (const line of body.split("\n")) {
    if (line.startsWith("|"))
      cells.push(
        line
          .replace(/^\||\|$/g, "")
          .split("|")
          .map((cell) => cell.trim()),
      );
    else if (line.startsWith("+") && cells.length > 0) {
      const name = cells
        .map((row) => row[0] ?? "")
        .filter(Boolean)
        .join(" ");
      const region = cells
        .map((row) => row[2] ?? "")
        .filter(Boolean)
        .join(" ");
      cells = [];
      if (name.startsWith("**")) continue; // the header row
      if (name) current = name;
      if (current && region) services.set(current, (services.get(current) ?? new Set()).add(region));
    }
  }
  return services;
}

/** Scaleway's SDK: per `<product>/<version> <client>`, the regions its Regions() or Zones() names. */
function scalewayItems(): [string, string[]][] {
  const names = new Map<string, string>();
  for (const [, name, value] of git("show", `${commit}:scw/locality.go`).matchAll(
    /\b((?:Region|Zone)[A-Za-z0-9]+)\s*=\s*(?:Region|Zone)\("([a-z0-9-]+)"\)/g,
  ))
    names.set(name!, value!);
  const items: [string, string[]][] = [];
  const paths = git("ls-tree", "-r", "--name-only", commit, "api")
    .split("\n")
    .filter((path) => path.endsWith("_sdk.go"));
  for (const path of paths) {
    const [, product, version] = path.split("/");
    const text = git("show", `${commit}:${path}`);
    for (const [, client, list] of text.matchAll(
      /func \(s \*([A-Za-z]+)\) (?:Regions|Zones)\(\) \[\]scw\.(?:Region|Zone) \{\s*return \[\]scw\.(?:Region|Zone)\{([^}]*)\}/g,
    )) {
      const regions = [...list!.matchAll(/scw\.([A-Za-z0-9]+)/g)].map(([, constant]) => {
        const id = names.get(constant!);
        if (!id) throw new Error(`${path}: ${constant} is not in scw/locality.go`);
        return constant!.startsWith("Zone") ? id.replace(/-\d+$/, "") : id;
      });
      items.push([`${product}/${version} ${client}`, [...new Set(regions)].sort()]);
    }
  }
  return items.sort(byKey);
}

const lines = ["{"];
let summary: string;
if (provider === "azure") {
  const { sets, items, missing } = azureItems();
  const origin = `https://github.com/Azure/PSRule.Rules.Azure data/providers/*/types.json ${hash}, as of ${date}`;
  lines.push(` "origin": ${JSON.stringify(origin)},`, ` "missingNamespaces": ${JSON.stringify(missing)},`);
  lines.push(' "locationSets": [');
  sets.forEach((set, i) => lines.push(`  ${JSON.stringify(set)}${i === sets.length - 1 ? "" : ","}`));
  lines.push(" ],", ' "items": {');
  items.forEach(([item, set], i) =>
    lines.push(`  ${JSON.stringify(item)}: ${set}${i === items.length - 1 ? "" : ","}`),
  );
  summary = `${items.length} resource types, ${sets.length} location sets; namespaces absent from the mirror: ${missing.join(", ") || "none"}`;
} else if (provider === "scaleway") {
  const items = scalewayItems();
  const origin = `https://github.com/scaleway/scaleway-sdk-go api/*/*/*_sdk.go ${hash}, as of ${date}`;
  lines.push(` "origin": ${JSON.stringify(origin)},`, ' "items": {');
  items.forEach(([item, regions], i) =>
    lines.push(`  ${JSON.stringify(item)}: ${JSON.stringify(regions)}${i === items.length - 1 ? "" : ","}`),
  );
  summary = `${items.length} API clients`;
} else if (provider === "otc") {
  const swissHash = gitIn(third!, "rev-parse", "HEAD^{commit}").trim();
  const swissDate = gitIn(third!, "log", "-1", "--format=%cs", "HEAD", "--", OTC_TABLE).trim();
  const rows = new Map<string, Set<string>>();
  for (const [name, regions] of [
    ...otcTable(git("show", `HEAD:${OTC_TABLE}`)),
    ...otcTable(gitIn(third!, "show", `HEAD:${OTC_TABLE}`)),
  ])
    rows.set(name, new Set([...(rows.get(name) ?? []), ...regions]));
  const items = [...rows].map(([name, regions]): [string, string[]] => [name, [...regions].sort()]).sort(byKey);
  const origin = `https://github.com/opentelekomcloud-docs/regions-and-endpoints ${OTC_TABLE} ${hash}, as of ${date}, and https://github.com/opentelekomcloud-docs-swiss/regions-and-endpoints ${OTC_TABLE} ${swissHash}, as of ${swissDate}`;
  lines.push(` "origin": ${JSON.stringify(origin)},`, ' "items": {');
  items.forEach(([item, regions], i) =>
    lines.push(`  ${JSON.stringify(item)}: ${JSON.stringify(regions)}${i === items.length - 1 ? "" : ","}`),
  );
  summary = `${items.length} services (Swiss table ${swissHash} ${swissDate})`;
} else {
  const table = JSON.parse(git("show", `${commit}:data/products.json`)) as Record<string, Record<string, boolean>>;
  const items = gcpItems(table);
  const notInTable = gcpNotInTable(table);
  const origin = `https://github.com/GoogleCloudPlatform/region-picker data/products.json ${hash}, as of ${date}`;
  lines.push(` "origin": ${JSON.stringify(origin)},`, ' "notInTable": {');
  notInTable.forEach(([item, regions], i) =>
    lines.push(`  ${JSON.stringify(item)}: ${JSON.stringify(regions)}${i === notInTable.length - 1 ? "" : ","}`),
  );
  lines.push(" },", ' "items": {');
  items.forEach(([item, regions], i) =>
    lines.push(`  ${JSON.stringify(item)}: ${JSON.stringify(regions)}${i === items.length - 1 ? "" : ","}`),
  );
  summary = `${items.length} products`;
}
lines.push(" }", "}", "");
const out = join(DEFAULT_INVENTORY_DIR, provider!, "locations", "regions.json");
writeFileSync(out, lines.join("\n"));
console.log(`${out}: ${summary} (${hash} ${date})`);
