/**
 * scripts/check-floors.ts (`npm run check:floors`): an import that runs up a floor, one between two
 * folders of one floor (the half of any folder loop that is not a way down) and a folder on no floor
 * each fail it, read by dpdm from files on disk as the check reads the repository.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CATALOGUE,
  floorViolations,
  importTree,
  REPOSITORY,
  SIDECAR_TOP,
  topViolations,
  type House,
} from "../../scripts/check-floors.ts";

const HOUSE: House = { root: "catalogue", floors: [["base"], ["schema", "format"], ["outputs"]] };
let dirs: string[] = [];

/** A tree of files, each importing the files it names, written to a fresh folder. */
function tree(files: Record<string, readonly string[]>): string {
  const dir = mkdtempSync(join(tmpdir(), "floors-"));
  dirs.push(dir);
  for (const [file, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    const lines = imports.map((target, i) => `import * as m${i} from "${relativeTo(file, target)}";\nvoid m${i};`);
    writeFileSync(join(dir, file), `${lines.join("\n")}\nexport const here = ${JSON.stringify(file)};\n`);
  }
  return dir;
}

function relativeTo(from: string, to: string): string {
  const up = from
    .split("/")
    .slice(0, -1)
    .map(() => "..");
  return [...up, to].join("/");
}

afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("folder floors", () => {
  it("passes imports that run down", async () => {
    const dir = tree({
      "catalogue/base/errors.ts": [],
      "catalogue/schema/shape.ts": ["catalogue/base/errors.ts"],
      "catalogue/outputs/pages.ts": ["catalogue/schema/shape.ts", "catalogue/base/errors.ts"],
    });
    expect(floorViolations(HOUSE, await importTree(dir, ["catalogue"]))).toEqual([]);
  });

  it("fails an import that runs up", async () => {
    const dir = tree({
      "catalogue/base/errors.ts": ["catalogue/outputs/pages.ts"],
      "catalogue/outputs/pages.ts": [],
    });
    expect(floorViolations(HOUSE, await importTree(dir, ["catalogue"]))).toEqual([
      "catalogue/base/errors.ts imports catalogue/outputs/pages.ts: up from catalogue/base (floor 1) to catalogue/outputs (floor 3)",
    ]);
  });

  it("fails a folder loop, even one no file loop makes", async () => {
    const dir = tree({
      "catalogue/schema/a.ts": ["catalogue/format/b.ts"],
      "catalogue/format/b.ts": [],
      "catalogue/format/c.ts": ["catalogue/schema/d.ts"],
      "catalogue/schema/d.ts": [],
    });
    const problems = floorViolations(HOUSE, await importTree(dir, ["catalogue"]));
    expect(problems).toHaveLength(2);
    expect(problems.every((problem) => problem.includes("share floor 2"))).toBe(true);
  });

  it("fails a folder on no floor", async () => {
    const dir = tree({ "catalogue/stray/x.ts": ["catalogue/base/errors.ts"], "catalogue/base/errors.ts": [] });
    expect(floorViolations(HOUSE, await importTree(dir, ["catalogue"]))).toEqual([
      "catalogue/stray/x.ts: catalogue/stray is on no floor (scripts/check-floors.ts)",
    ]);
  });

  it("skips a folder of generated code, which stands on no floor", async () => {
    const dir = tree({
      "catalogue/generated/types.ts": ["catalogue/outputs/pages.ts"],
      "catalogue/outputs/pages.ts": [],
      "site/api.ts": ["catalogue/generated/types.ts"],
    });
    const house = { ...HOUSE, apart: ["generated"] };
    expect(floorViolations(house, await importTree(dir, ["catalogue", "site"]))).toEqual([]);
    expect(CATALOGUE.apart).toEqual(["generated"]);
  });

  it("are the floors catalogue/README.md lists, in its order", () => {
    const readme = readFileSync(new URL("../../catalogue/README.md", import.meta.url), "utf8");
    const section = readme.split("\n## Floors\n")[1]!.split("\n## ")[0]!;
    const listed = [...section.matchAll(/^\d+\. (.+)$/gm)].map(([, line]) =>
      [...line!.matchAll(/`([a-z-]+)\/`/g)].map(([, folder]) => folder),
    );
    expect(listed).toEqual(CATALOGUE.floors);
  });

  it("places every folder of the repository's houses once", () => {
    for (const house of [REPOSITORY, CATALOGUE]) {
      const folders = house.floors.flat();
      expect(new Set(folders).size).toBe(folders.length);
    }
  });

  it("keeps the hosts' builders at sidecar/'s top: imported by server.ts only, never by each other", async () => {
    const dir = tree({
      "sidecar/host-options.ts": [],
      "sidecar/app.ts": ["sidecar/host-options.ts"],
      "sidecar/text/app.ts": ["sidecar/app.ts", "sidecar/host-options.ts"],
      "sidecar/text/routes.ts": ["sidecar/server.ts"],
      "sidecar/server.ts": ["sidecar/app.ts", "sidecar/text/app.ts"],
    });
    expect(topViolations(SIDECAR_TOP, await importTree(dir, ["sidecar"]))).toEqual([
      "sidecar/text/app.ts imports sidecar/app.ts: up to sidecar's top (sidecar/app.ts, sidecar/text/app.ts)",
      "sidecar/text/routes.ts imports sidecar/server.ts: up to sidecar's top (sidecar/server.ts)",
    ]);
  });

  it("finds no import up to sidecar's top in the repository", async () => {
    expect(topViolations(SIDECAR_TOP, await importTree(process.cwd(), ["sidecar"]))).toEqual([]);
  });
});
