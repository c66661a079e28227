/**
 * `node scripts/maintenance/inventory-aws-endpoints.ts <botocore git dir> [commit]`: reads boto/botocore's
 * botocore/data/endpoints.json (AWS's partition and endpoint metadata, Apache-2.0) and writes
 * catalogue/inventory/data/aws/endpoints/: items.txt (every endpoint prefix of any partition) and
 * regions.json (per partition: its regions with their descriptions, and per endpoint prefix the
 * regions it has an endpoint in, or `{global: <region>}` for a partition-wide endpoint). Endpoint
 * keys that are not a region of the partition (fips-*, *-fips, aws-global) and deprecated ones are
 * left out: they are variants of a region's endpoint, not places.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_INVENTORY_DIR, readInventory } from "../../catalogue/inventory/load.node.ts";
import { itemsFileText } from "../../catalogue/inventory/refresh.ts";

const [gitDir, commit = "HEAD"] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: node scripts/maintenance/inventory-aws-endpoints.ts <botocore git dir> [commit]");
  process.exit(1);
}
const git = (...args: string[]) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });

interface EndpointsFile {
  partitions: {
    partition: string;
    regions: Record<string, { description?: string }>;
    services: Record<
      string,
      {
        partitionEndpoint?: string;
        isRegionalized?: boolean;
        endpoints: Record<string, { deprecated?: boolean; credentialScope?: { region?: string } }>;
      }
    >;
  }[];
}

const started = performance.now();
const file = JSON.parse(git("show", `${commit}:botocore/data/endpoints.json`)) as EndpointsFile;
const partitions = file.partitions.map((partition) => {
  const services: Record<string, string[] | { global: string }> = {};
  for (const [prefix, service] of Object.entries(partition.services).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (service.isRegionalized === false && service.partitionEndpoint) {
      const endpoint = service.endpoints[service.partitionEndpoint];
      const region = endpoint?.credentialScope?.region ?? service.partitionEndpoint;
      services[prefix] = { global: region };
      continue;
    }
    const regions = Object.entries(service.endpoints)
      .filter(([key, endpoint]) => Object.hasOwn(partition.regions, key) && endpoint.deprecated !== true)
      .map(([key]) => key)
      .sort();
    if (regions.length > 0) services[prefix] = regions;
  }
  return {
    partition: partition.partition,
    regions: Object.fromEntries(
      Object.entries(partition.regions)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, region]) => [id, region.description ?? id]),
    ),
    services,
  };
});
const id = "aws/endpoints";
const dir = join(DEFAULT_INVENTORY_DIR, id);
const problems: string[] = [];
const inventory = readInventory(DEFAULT_INVENTORY_DIR, id, problems);
if (!inventory) throw new Error(problems.join("\n") || `${id}: unreadable`);
const date = git("log", "-1", "--format=%H %cs", commit).trim();
/** One endpoint prefix a line, so a refresh's diff reads per service. */
function regionsFileText(origin: string): string {
  const last = (index: number, length: number) => (index === length - 1 ? "" : ",");
  const lines = ["{", ` "origin": ${JSON.stringify(origin)},`, ' "partitions": ['];
  partitions.forEach((partition, i) => {
    lines.push(
      `  {"partition": ${JSON.stringify(partition.partition)}, "regions": ${JSON.stringify(partition.regions)}, "services": {`,
    );
    const entries = Object.entries(partition.services);
    entries.forEach(([prefix, served], j) =>
      lines.push(`   ${JSON.stringify(prefix)}: ${JSON.stringify(served)}${last(j, entries.length)}`),
    );
    lines.push(`  }}${last(i, partitions.length)}`);
  });
  return `${[...lines, " ]", "}"].join("\n")}\n`;
}
writeFileSync(join(dir, "regions.json"), regionsFileText(`boto/botocore botocore/data/endpoints.json at ${date}`));
const items = [...new Set(partitions.flatMap((partition) => Object.keys(partition.services)))];
writeFileSync(join(dir, "items.txt"), itemsFileText(id, inventory.source, items));
for (const partition of partitions)
  console.log(
    `${partition.partition}: ${Object.keys(partition.regions).length} regions, ${Object.keys(partition.services).length} endpoint prefixes`,
  );
console.log(
  `wrote ${dir}/regions.json and items.txt (${items.length} prefixes) in ${Math.round(performance.now() - started)} ms`,
);
