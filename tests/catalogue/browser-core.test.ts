/**
 * The code the browser loads is what eslint.config.js keeps pure (its BROWSER_CORE list: no
 * node:*, no Node globals, no zod). Lint checks each listed file; this checks the list is whole:
 * every module the site's client scripts reach through value imports is under those rules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SCRIPTS = join(ROOT, "site/src/scripts");

/** The modules a file loads: its imports and re-exports, less those that import types only. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly)
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
  }
  return specifiers;
}

/** Every local file reached from the client scripts, and the packages they load. */
function browserClosure(): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = readdirSync(SCRIPTS, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(SCRIPTS, name));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of valueImports(file)) {
      if (!specifier.startsWith(".")) packages.add(specifier);
      else queue.push(resolve(dirname(file), specifier));
    }
  }
  return { files, packages };
}

describe("the code the browser loads", () => {
  const { files, packages } = browserClosure();

  it("is all on eslint.config.js's BROWSER_CORE list, so the purity rules hold for every file of it", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const unguarded: string[] = [];
    for (const file of files) {
      const rules = (await eslint.calculateConfigForFile(file)).rules ?? {};
      if (!rules["@typescript-eslint/no-restricted-imports"] || !rules["no-restricted-globals"])
        unguarded.push(relative(ROOT, file));
    }
    expect(unguarded).toEqual([]);
    // The walk follows what it should: the list builder reaches the policy generators.
    expect([...files].map((file) => relative(ROOT, file))).toContain("catalogue/policies/documents.ts");
  });

  it("loads no Node module and no zod", () => {
    expect([...packages].filter((name) => name.startsWith("node:") || name === "zod")).toEqual([]);
  });
});
