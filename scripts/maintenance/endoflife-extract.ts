/**
 * `node scripts/maintenance/endoflife-extract.ts <endoflife.date git dir>`: writes
 * catalogue/reference/endoflife-date.json, the release cycles of endoflife.date's cloud products whose
 * vendor is one of the catalogue's providers (products/<id>.md front matter: each cycle's release
 * date, end of active support, end of life, end of extended support and upgrade target), each
 * product with the commit and date of the file read. tests/catalogue/endoflife-date.test.ts compares
 * the catalogue's version data with it, so a clone alone checks the data; run this again on a newer
 * copy (git clone https://github.com/endoflife-date/endoflife.date) and the test says what moved.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** The products compared: endoflife.date's cloud services of the catalogue's providers. */
export const ENDOFLIFE_PRODUCTS = [
  "aws-lambda",
  "amazon-eks",
  "amazon-rds-postgresql",
  "amazon-rds-mysql",
  "amazon-aurora-postgresql",
  "amazon-elasticache-redis",
  "amazon-rds-mariadb",
  "amazon-msk",
  "amazon-opensearch",
  "amazon-documentdb",
  "amazon-neptune",
  "amazon-glue",
  "amazon-mq-activemq",
  "amazon-mq-rabbitmq",
  "azure-kubernetes-service",
  "azure-database-for-postgresql",
  "azure-database-for-mysql",
  "google-kubernetes-engine",
  "alibaba-ack",
] as const;

const FIELDS = ["releaseDate", "eoas", "eol", "eoes", "upgradeVersion"] as const;
const OUT = fileURLToPath(new URL("../../catalogue/reference/endoflife-date.json", import.meta.url));

/** A front-matter value as the extract keeps it: a day, a boolean or a version string. */
const value = (raw: unknown): string | boolean | undefined =>
  raw instanceof Date
    ? raw.toISOString().slice(0, 10)
    : typeof raw === "boolean" || typeof raw === "string"
      ? raw
      : undefined;

function main(gitDir: string): void {
  const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8" });
  const products = Object.fromEntries(
    ENDOFLIFE_PRODUCTS.map((product) => {
      const path = `products/${product}.md`;
      const [commit, date] = git("log", "-1", "--format=%H %cs", "HEAD", "--", path).trim().split(" ");
      const front = parse(git("show", `HEAD:${path}`).split(/^---$/m)[1]!) as { releases: Record<string, unknown>[] };
      const releases = front.releases.map((release) => ({
        cycle: String(release.releaseCycle),
        ...Object.fromEntries(
          FIELDS.flatMap((field) => (value(release[field]) === undefined ? [] : [[field, value(release[field])]])),
        ),
      }));
      return [product, { commit, date, releases }];
    }),
  );
  const extract = {
    origin: "https://github.com/endoflife-date/endoflife.date (products/<id>.md front matter)",
    licence: "MIT, (c) 2020 endoflife.date contributors (LICENSE-endoflife-date)",
    products,
  };
  writeFileSync(OUT, `${JSON.stringify(extract, null, 1)}\n`);
  const cycles = Object.values(products).reduce((sum, product) => sum + product.releases.length, 0);
  console.log(`endoflife-extract: ${ENDOFLIFE_PRODUCTS.length} products, ${cycles} release cycles → ${OUT}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const gitDir = process.argv[2];
  if (!gitDir) {
    console.error("usage: node scripts/maintenance/endoflife-extract.ts <endoflife.date git dir (a clone's .git)>");
    process.exit(2);
  }
  main(gitDir);
}
