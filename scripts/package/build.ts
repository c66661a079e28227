/**
 * `npm run build:package` (and `npm pack` in cli/, its prepack): writes cli/dist/, what the
 * cloud-catalogue package holds (cli/README.md):
 *   bin/        scripts/cli.ts bundled by esbuild for the Node versions cli/package.json declares
 *               (one file per command, loaded when it runs; serve stays in the repository), and
 *               read-deployment.js, the child process check reads its input in
 *   snapshot/   catalogue-source.json, the catalogue a check reads: the validated source a build
 *               ships (dist/api/catalogue-source.json when fresh, else catalogue/data read and
 *               checked); yaml.json, the inventories' YAML already parsed (yaml-snapshot.ts)
 *   catalogue/  the inventory and reference files the check reads, at their repository paths,
 *               with the licence files beside them
 * Each bundled module's import.meta.url is its repository path under cli/dist/, so a module finds
 * its files where the repository keeps them. The files are those the check reads: recorded while
 * this build checks a sample of every input format, so a file the check starts reading is packed.
 *   --source FILE   the catalogue source to pack (a build's api/catalogue-source.json)
 *   --out DIR       write there instead of cli/dist (tests)
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { chmod, readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { build, type Plugin } from "esbuild";
import { parse as parseYaml } from "yaml";
import { assembleCatalogue, type CatalogueSource } from "../../catalogue/load/assemble.ts";
import { readCatalogueSource } from "../../catalogue/load/load.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../../build/inputs.ts";
import { CANONICAL_URLS } from "../../sidecar/config.ts";
import { yamlKey } from "./yaml-snapshot.ts";
import { SAMPLES } from "./samples.ts";

const CLI_DIR = join(ROOT_DIR, "cli");

/** The manifest's facts the bundle needs, and the Node versions it is built for. */
function manifest(): { name: string; version: string; node: string } {
  const cli = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as {
    name: string;
    version: string;
    engines: { node: string };
  };
  const root = JSON.parse(readFileSync(join(ROOT_DIR, "package.json"), "utf8")) as { version: string };
  if (cli.version !== root.version)
    throw new Error(`cli/package.json's version ${cli.version} is not the repository's ${root.version}: make them one`);
  const node = /^>=(\d+)/.exec(cli.engines.node)?.[1];
  if (!node) throw new Error(`cli/package.json's engines.node is ">=N", not ${cli.engines.node}`);
  return { name: cli.name, version: cli.version, node };
}

/** The catalogue to pack: the one given, else dist/'s when fresh for the sources, else catalogue/data's. */
async function catalogueSource(given: string | undefined, log: (line: string) => void): Promise<CatalogueSource> {
  const built = join(DIST_DIR, "api", "catalogue-source.json");
  const path =
    given ??
    (existsSync(built) && (await buildIsFresh(DIST_DIR, await buildInputsHash(CANONICAL_URLS))) ? built : undefined);
  if (path) {
    log(`package: the catalogue from ${relative(process.cwd(), path)}`);
    return JSON.parse(readFileSync(path, "utf8")) as CatalogueSource;
  }
  log("package: the catalogue from catalogue/data (dist/ is not fresh)");
  return readCatalogueSource();
}

/**
 * The snapshot the package holds: the source less each service's `sources` (a third of its bytes,
 * and most of what assembling it costs at every start): the pages that back a service's facts, which
 * no check reads; tests/build/cli-package.test.ts checks every vendor fixture gives the same answer.
 */
export function leanSource(source: CatalogueSource): CatalogueSource {
  return {
    ...source,
    services: source.services.map(({ providerId, entry }) => {
      const { sources: _sources, ...rest } = entry;
      return { providerId, entry: rest };
    }),
  };
}

/**
 * The repository's files the check reads, recorded while it checks every sample: node:fs's
 * synchronous readers wrapped for the while (syncBuiltinESMExports hands the wrappers to the
 * modules' named imports too). The check reads its data synchronously; a reader that starts
 * reading with fs/promises would need recording here too.
 */
function filesTheCheckReads(source: CatalogueSource): string[] {
  const fs = createRequire(import.meta.url)("node:fs") as Record<string, unknown>;
  const read = new Set<string>();
  const names = ["readFileSync", "existsSync", "readdirSync", "statSync", "lstatSync"] as const;
  const originals = names.map((name) => fs[name] as (...args: unknown[]) => unknown);
  names.forEach((name, at) => {
    fs[name] = (...args: unknown[]) => {
      const path = args[0] instanceof URL ? args[0].pathname : args[0];
      if (typeof path === "string") read.add(path);
      return originals[at]!(...args);
    };
  });
  syncBuiltinESMExports();
  try {
    const catalogue = assembleCatalogue(source);
    for (const sample of SAMPLES)
      checkTemplate(
        catalogue,
        sample.files ? new TerraformFiles(sample.files) : sample.template,
        sample.ids,
        undefined,
        sample.locations,
      );
  } finally {
    names.forEach((name, at) => (fs[name] = originals[at]));
    syncBuiltinESMExports();
  }
  const files = [...read]
    .map((path) => relative(ROOT_DIR, path))
    .filter((path) => !path.startsWith("..") && !path.split(sep).includes("node_modules") && !path.endsWith(".ts"))
    .filter((path) => existsSync(join(ROOT_DIR, path)) && statSync(join(ROOT_DIR, path)).isFile());
  // The licence and provenance beside each file packed: vendored data travels with its terms.
  const beside = [...new Set(files.map(dirname))].flatMap((dir) =>
    readdirSync(join(ROOT_DIR, dir))
      .filter((name) => /^(LICENSE|NOTICE|COPYING)/i.test(name) || name === "source.yaml")
      .map((name) => join(dir, name)),
  );
  return [...new Set([...files, ...beside])].sort();
}

/** Each packed YAML file's value as JSON, by its text's key (what yaml-snapshot.ts answers from). */
function parsedYaml(root: string, files: readonly string[]): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const file of files.filter((path) => /\.ya?ml$/.test(path))) {
    const text = readFileSync(join(root, file), "utf8");
    const value: unknown = parseYaml(text);
    const json = JSON.stringify(value);
    // Only what JSON keeps whole (no NaN, Infinity, -0, undefined): anything else is parsed at run time.
    if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) parsed[yamlKey(text)] = json;
  }
  return parsed;
}

/**
 * esbuild's plugin for the repository's modules: import.meta.url becomes the module's path under
 * the package; `yaml` becomes yaml-snapshot.ts; what only the repository runs (serve, the
 * repository's own catalogue) is left out, never loaded by the package.
 */
function packagePlugin(): Plugin {
  const shim = join(ROOT_DIR, "scripts", "package", "yaml-snapshot.ts");
  const repositoryOnly = new Set(
    ["scripts/serve-mirror.ts", "scripts/check/repository.ts", "sidecar/server.ts"].map((path) => join(ROOT_DIR, path)),
  );
  return {
    name: "cloud-catalogue-package",
    setup(builder) {
      builder.onResolve({ filter: /\.ts$/ }, (args) =>
        args.kind === "dynamic-import" && repositoryOnly.has(join(dirname(args.importer), args.path))
          ? { path: args.path, external: true }
          : undefined,
      );
      builder.onResolve({ filter: /^yaml$/ }, (args) =>
        args.importer === shim || args.importer.includes(`${sep}node_modules${sep}`) ? undefined : { path: shim },
      );
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = await readFile(args.path, "utf8");
        const path = relative(ROOT_DIR, args.path).split(sep).join("/");
        return { contents: text.replaceAll("import.meta.url", `__moduleUrl(${JSON.stringify(path)})`), loader: "ts" };
      });
    },
  };
}

export async function buildPackage(options: { out?: string; source?: string; log?: (line: string) => void } = {}) {
  const log = options.log ?? ((line: string) => console.error(line));
  const started = performance.now();
  const out = options.out ?? join(CLI_DIR, "dist");
  const { name, version, node } = manifest();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "snapshot"), { recursive: true });

  const source = await catalogueSource(options.source, log);
  writeFileSync(join(out, "snapshot", "catalogue-source.json"), JSON.stringify(leanSource(source)));
  const files = filesTheCheckReads(source);
  for (const file of files) cpSync(join(ROOT_DIR, file), join(out, file));
  writeFileSync(join(out, "snapshot", "yaml.json"), JSON.stringify(parsedYaml(ROOT_DIR, files)));

  await build({
    // The check reads its input in a child process of its own (scripts/check/bounded-read.ts).
    entryPoints: {
      "cloud-catalogue": join(ROOT_DIR, "scripts", "cli.ts"),
      "read-deployment": join(ROOT_DIR, "scripts", "check", "read-child.ts"),
    },
    outdir: join(out, "bin"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    // ESM builds first: jsonc-parser's main (UMD) requires its parts by names a bundle does not keep.
    mainFields: ["module", "main"],
    target: `node${node}`,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
    define: { CLOUD_CATALOGUE_PACKAGE: JSON.stringify({ version }) },
    // What every file of the bundle needs: require for the packages that ask for it, and each module's URL.
    banner: {
      js: [
        'import { createRequire as __createRequire } from "node:module";',
        "const require = __createRequire(import.meta.url);",
        "const __moduleUrl = (path) => new URL(`../${path}`, import.meta.url).href;",
      ].join(" "),
    },
    plugins: [packagePlugin()],
  });
  await chmod(join(out, "bin", "cloud-catalogue.js"), 0o755);
  const size = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  log(
    `package: ${name} ${version} in ${relative(process.cwd(), out) || "."} (${(size(out) / 1024 / 1024).toFixed(1)} MiB: ${files.length} data files, bin ${(size(join(out, "bin")) / 1024).toFixed(0)} KiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" }, source: { type: "string" } } });
  await buildPackage({
    ...(values.out ? { out: values.out } : {}),
    ...(values.source ? { source: values.source } : {}),
  });
}
