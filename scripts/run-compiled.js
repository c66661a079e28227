/**
 * `node scripts/run-compiled.js <entry.ts> [arguments]`: runs a TypeScript entry compiled by
 * esbuild into one JavaScript module, so the process never loads Node's own type stripper. That
 * stripper (amaro, swc built to WebAssembly) stays in a process once loaded: its 3.7 MB source, its
 * compiled code and linear memory, and the malloc arena its compilation leaves on V8's helper
 * thread — 17 MiB of RSS for one small file, more for the server's ~150 (issue 20). `npm start`
 * runs scripts/start.ts through it; the build it spawns and the test suites still run TypeScript
 * directly.
 *
 * Packages stay imports, resolved from node_modules as before, so the module is written inside
 * the project (.cache/compiled) and removed once its top level has run, or by the next start when
 * its process was killed first. Each file keeps its own import.meta.url, dirname, filename and
 * main, so paths resolved against a module's own location stay what they were. This file is
 * JavaScript because a TypeScript one would load the
 * stripper it avoids.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build, stop } from "esbuild";

const IMPORT_META = /\bimport\.meta\.(url|main|dirname|filename)\b/g;

const [entryArgument, ...entryArguments] = process.argv.slice(2);
if (!entryArgument) {
  console.error("usage: node scripts/run-compiled.js <entry.ts> [arguments]");
  process.exit(2);
}
const entry = resolve(entryArgument);
const outDir = join(import.meta.dirname, "..", ".cache", "compiled");
const outFile = join(outDir, `${process.pid}-${Date.now()}.mjs`);

/** An esbuild plugin: `import.meta.*` in each file compiled becomes that file's own value. */
const importMetaOfEachFile = {
  name: "import-meta-of-each-file",
  /** @param {import("esbuild").PluginBuild} builder */
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => {
      const source = readFileSync(path, "utf8");
      /** @type {Record<string, string | boolean>} */
      const values = { url: pathToFileURL(path).href, main: path === entry, dirname: dirname(path), filename: path };
      return {
        contents: source.replace(IMPORT_META, (_match, name) => JSON.stringify(values[name])),
        loader: /\.[cm]?ts$/.test(path) ? "ts" : "js",
      };
    });
  },
};

/**
 * Whether a process runs under this id (EPERM: it does, as another user).
 * @param {number} pid
 */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

mkdirSync(outDir, { recursive: true });
// Modules left by processes killed before their top level finished (a start that was building).
for (const name of readdirSync(outDir)) {
  const pid = Number.parseInt(name, 10);
  if (pid > 0 && pid !== process.pid && !running(pid)) rmSync(join(outDir, name), { force: true });
}
try {
  await build({
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node24",
    logLevel: "warning",
    plugins: [importMetaOfEachFile],
  });
} finally {
  // The esbuild service (a child process) is not needed once the module is written.
  await stop();
}
// The entry sees the command line it would have seen run directly.
process.argv = [process.argv[0] ?? process.execPath, entry, ...entryArguments];
try {
  await import(pathToFileURL(outFile).href);
} finally {
  rmSync(outFile, { force: true });
}
