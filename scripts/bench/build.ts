/**
 * `npm run bench:build`: times the whole build, per step, on the real catalogue (1×) and on a
 * synthetic catalogue ten times its size made from it (each service copied nine more times under
 * new slugs, each copy with its own equivalence groups). Writes the table to .cache/bench-build.md.
 * Target: 10× within 12× of the 1× time.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { DEFAULT_DATA_DIR } from "../../catalogue/load.ts";
import { build } from "../build.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const FACTOR = 10;

/** A copy of the data with every service present FACTOR times. */
function syntheticData(factor: number): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-bench-data-"));
  cpSync(DEFAULT_DATA_DIR, dir, { recursive: true });
  const copySlug = (slug: string, n: number) => (n === 0 ? slug : `${slug}-x${n}`);
  for (const file of readdirSync(join(dir, "services"))) {
    const path = join(dir, "services", file);
    const services = parse(readFileSync(path, "utf8")) as {
      slug: string;
      name: string;
      lifecycle?: { successorSlug?: string };
    }[];
    const grown = [];
    for (let n = 0; n < factor; n++) {
      for (const service of services) {
        grown.push({
          ...service,
          slug: copySlug(service.slug, n),
          name: n === 0 ? service.name : `${service.name} (copy ${n})`,
          ...(service.lifecycle?.successorSlug
            ? { lifecycle: { ...service.lifecycle, successorSlug: copySlug(service.lifecycle.successorSlug, n) } }
            : {}),
        });
      }
    }
    writeFileSync(path, stringify(grown));
  }
  const groupsPath = join(dir, "equivalents.yaml");
  const groups = parse(readFileSync(groupsPath, "utf8")) as { id: string; name: string; services: string[] }[];
  // Copy n of every group links the n-th copies of its services, so a service has as many
  // equivalents as in the real catalogue.
  const grownGroups = Array.from({ length: factor }, (_, n) =>
    groups.map((group) => ({
      ...group,
      id: copySlug(group.id, n),
      services: group.services.map((slug) => copySlug(slug, n)),
    })),
  ).flat();
  writeFileSync(groupsPath, stringify(grownGroups));
  return dir;
}

async function timeBuild(label: string, dataDir?: string) {
  const outDir = mkdtempSync(join(tmpdir(), "csc-bench-dist-"));
  const steps: Record<string, number> = {};
  const started = performance.now();
  let total: number;
  try {
    await build({
      dataDir,
      outDir,
      urls: { apiUrl: "http://localhost:8080", textUrl: "http://localhost:8081" },
      log: (line) => console.log(`${label}: ${line}`),
      onStep: (step, ms) => (steps[step] = ms),
    });
    total = performance.now() - started;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return { total, steps };
}

const one = await timeBuild("1×");
const syntheticDir = syntheticData(FACTOR);
const ten = await timeBuild(`${FACTOR}×`, syntheticDir);
rmSync(syntheticDir, { recursive: true, force: true });

const stepNames = Object.keys(one.steps);
const ratio = ten.total / one.total;
const table = [
  `| step | 1× (ms) | ${FACTOR}× (ms) | ratio |`,
  "|---|---:|---:|---:|",
  ...stepNames.map(
    (step) =>
      `| ${step} | ${one.steps[step]!.toFixed(0)} | ${ten.steps[step]!.toFixed(0)} | ${(ten.steps[step]! / one.steps[step]!).toFixed(1)}× |`,
  ),
  `| **total** | **${one.total.toFixed(0)}** | **${ten.total.toFixed(0)}** | **${ratio.toFixed(1)}×** |`,
  "",
  `Targets: 1× under 60 s (${one.total < 60_000 ? "met" : "missed"}); ${FACTOR}× within 12× of 1× (${ratio <= 12 ? "met" : "missed"}).`,
].join("\n");
mkdirSync(join(root, ".cache"), { recursive: true });
writeFileSync(join(root, ".cache", "bench-build.md"), `${table}\n`);
console.log(`\n${table}`);
