/**
 * Adds package-lock.json entries for platform-specific optional packages that the registry this
 * project is developed against does not serve (e.g. @pagefind/darwin-arm64): npm then leaves them
 * out of the lock, and `npm ci` refuses the lock as out of sync (npm/cli#4828, #8320). Each entry
 * gets the os/cpu its name says, so npm skips it on other platforms without fetching it.
 * Run after any change to dependencies: `npm install && node scripts/maintenance/lockfile-platforms.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const LOCK = fileURLToPath(new URL("../../package-lock.json", import.meta.url));

interface Entry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  optionalDependencies?: Record<string, string>;
}

/** os and cpu from a platform package's name, e.g. compiler-binding-darwin-arm64. */
function platformOf(name: string): { os?: string[]; cpu?: string[] } {
  const os = [
    ["darwin", "darwin"],
    ["win32", "win32"],
    ["windows", "win32"],
    ["freebsd", "freebsd"],
    ["android", "android"],
    ["linux", "linux"],
  ].find(([token]) => new RegExp(`(^|[-/])${token}(-|$)`).test(name))?.[1];
  const cpu = ["arm64", "x64", "ia32", "arm", "wasm32"].find((token) => new RegExp(`-${token}(-|$)`).test(name));
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

const lock = JSON.parse(readFileSync(LOCK, "utf8")) as { packages: Record<string, Entry> };
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    const present = lock.packages[nested] ?? lock.packages[hoisted];
    if (present && (present.version === version || !/^\d/.test(version))) continue;
    const target = present ? nested : hoisted;
    lock.packages[target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} platform entries`);
