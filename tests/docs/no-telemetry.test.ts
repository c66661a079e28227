/**
 * Nothing reports home: Astro's telemetry is off for every build, dev server and check; install
 * scripts run only for dependencies package.json approves (npm's allowScripts, made strict by
 * .npmrc); Scarf's install-time analytics are denied and switched off.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};
const lock = JSON.parse(read("package-lock.json")) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe("no telemetry", () => {
  it("turns Astro's telemetry off before Astro runs: build, dev server and check", () => {
    for (const [path, call] of [
      ["scripts/build-site.ts", 'await import("astro")'],
      ["scripts/dev.ts", 'await import("astro")'],
    ] as const) {
      const source = read(path);
      const disabled = source.indexOf('process.env.ASTRO_TELEMETRY_DISABLED = "1"');
      expect(disabled, path).toBeGreaterThan(-1);
      expect(disabled, path).toBeLessThan(source.indexOf(call));
    }
    for (const [name, script] of Object.entries(pkg.scripts).filter(([, script]) => /\bastro\s/.test(script)))
      expect(script, name).toMatch(/^ASTRO_TELEMETRY_DISABLED=1 /);
  });

  it("names every dependency with an install script in allowScripts, and fails the install on any other", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ""));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(pkg.allowScripts?.[name], name).toBeTypeOf("boolean");
    const npmrc = read(".npmrc")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    expect(npmrc).toContain("strict-allow-scripts=true");
    expect(npmrc).not.toContain("dangerously-allow-all-scripts=true");
  });

  it("denies Scarf's install script and switches its analytics off", () => {
    expect(pkg.allowScripts?.["@scarf/scarf"]).toBe(false);
    expect(pkg.scarfSettings?.enabled).toBe(false);
  });
});
