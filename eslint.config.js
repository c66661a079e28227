// One linter for the whole tree, site/ included: typescript-eslint's type-checked recommended rules
// over every TypeScript file (each file typed by its own tsconfig: the project service), globals from the `globals` package, and the rules that keep the code the
// browser loads pure (catalogue/README.md, "The browser's core"). `.astro` files are linted by
// eslint-plugin-astro (its recommended rules, and the untyped ones of typescript-eslint);
// `npm run check:site` (astro check) typechecks them.
import { builtinModules } from "node:module";
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import astro from "eslint-plugin-astro";

/**
 * The browser's core: site/src/scripts/** and every module they import, type-only imports aside
 * (catalogue/README.md). tests/catalogue/browser-core.test.ts walks those imports and fails when
 * one reaches a file off this list, so a module the browser starts loading joins it, and its rules.
 */
export const BROWSER_CORE = [
  "site/src/scripts/**/*.ts",
  "site/src/lib/service-label.ts",
  "site/src/lib/shown-text.ts",
  "site/src/lib/search-compliance.ts",
  "catalogue/base/error-catalogue.ts",
  "catalogue/base/issues.ts",
  "catalogue/base/problem.ts",
  "catalogue/base/edit-distance.ts",
  "catalogue/base/nesting.ts",
  "catalogue/base/steps.ts",
  "catalogue/compliance/compliance.ts",
  "catalogue/dependencies/dependencies.ts",
  "catalogue/capabilities/capabilities.ts",
  "catalogue/capabilities/follows.ts",
  "catalogue/versions/versions.ts",
  "catalogue/equivalence/compare.ts",
  "catalogue/equivalence/exposure.ts",
  "catalogue/equivalence/exposure-places.ts",
  "catalogue/exit/catalogue.ts",
  "catalogue/exit/context.ts",
  "catalogue/exit/placement.ts",
  "catalogue/exit/jobs.ts",
  "catalogue/exit/plan.ts",
  "catalogue/exit/ranking.ts",
  "catalogue/exit/leaving.ts",
  "catalogue/exit/list-plan.ts",
  "catalogue/exit/service-plans.ts",
  "catalogue/lifecycle/lifecycle.ts",
  "catalogue/locations/places.ts",
  "catalogue/base/limits.ts",
  "catalogue/lists/list-catalogue.ts",
  "catalogue/lists/lists.ts",
  "catalogue/policies/azure-indexed.ts",
  "catalogue/policies/deployments/*.ts",
  "catalogue/policies/documents.ts",
  "catalogue/policies/errors.ts",
  "catalogue/policies/essentials.ts",
  "catalogue/policies/locations.ts",
  "catalogue/policies/selection.ts",
  "catalogue/policies/terraform.ts",
  "catalogue/quality/verified.ts",
  "catalogue/format/doc.ts",
  "catalogue/render/exit-plan.ts",
  "catalogue/format/feeds.ts",
  "catalogue/format/csv.ts",
  "catalogue/format/html.ts",
  "catalogue/render/identifiers.ts",
  "catalogue/format/markdown.ts",
  "catalogue/render/pages.ts",
  "catalogue/render/relative.ts",
  "catalogue/render/calendar.ts",
  // The check's answer as a page, with the outcome its findings decide (the site renders it).
  "catalogue/templates/answer/render.ts",
  "catalogue/templates/answer/findings.ts",
  // What a version's phases say (phaseStory), which the check's render and findings read.
  "catalogue/templates/rules/versions.ts",
  "catalogue/render/theme.ts",
  "catalogue/search/engine.ts",
  "catalogue/search/data.ts",
  "catalogue/search/kinds.ts",
  "catalogue/search/match.ts",
  "catalogue/search/other-products.ts",
  "catalogue/search/places.ts",
  "catalogue/search/spelling.ts",
  "catalogue/search/words.ts",
  "catalogue/search/search.ts",
  "catalogue/base/urls.ts",
];

/** Node's own globals, those a browser lacks (process, Buffer, require, __dirname…). */
const NODE_ONLY_GLOBALS = Object.keys(globals.node).filter((name) => !(name in globals["shared-node-browser"]));

export default tseslint.config(
  { ignores: ["node_modules/", "dist", "cli/dist/", ".cache/", ".data/", ".astro/", ".fragments/", "test-artifacts/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An async function without await still turns a throw into a rejection: the Promise-returning
      // interfaces (stores, hooks, handlers) rely on that, so their implementations stay async.
      "@typescript-eslint/require-await": "off",
      // Unused arguments named with a leading underscore document a required signature.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // A unit a reader can hold at once: no function over 80 lines of code.
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // A file a reviewer reads in one sitting (decisions.md#codebase): 600 lines, every line counted.
      "max-lines": ["error", { max: 600, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Generated code (scripts/write-openapi.ts --types writes it from the contract table), never edited by hand.
    files: ["catalogue/generated/**"],
    rules: { "max-lines": "off" },
  },
  {
    // The site's client scripts run in the browser. An event listener or timer may be async: nothing
    // waits for it, and a rejection reaches the console, on which the browser suites fail.
    files: ["site/src/scripts/**"],
    languageOptions: { globals: globals.browser },
    rules: { "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }] },
  },
  {
    // What the browser loads: no Node module (Vite would replace it with an empty stub), no Node
    // global, and no zod (every schema would ship with it); types from anywhere are fine. Node-only
    // code lives beside it in *.node.ts and the modules that read files (load/, changes.ts…).
    files: BROWSER_CORE,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            ...builtinModules.map((name) => ({ name, message: "The browser may load this file: no Node modules." })),
            { name: "zod", allowTypeImports: true, message: "The browser may load this file: zod ships whole." },
          ],
          patterns: [
            { group: ["node:*"], message: "The browser may load this file: no Node modules." },
            {
              group: ["**/*.node.ts", "**/load/*", "**/schema/*"],
              allowTypeImports: true,
              message: "Node-only (or zod) module: import its types only, or move what the browser needs.",
            },
          ],
        },
      ],
      // `import { type A } from "x"` stays `import {} from "x"` under verbatimModuleSyntax: the
      // module (and what it imports) would load for nothing. Write `import type`.
      "@typescript-eslint/no-import-type-side-effects": "error",
      "no-restricted-globals": [
        "error",
        ...NODE_ONLY_GLOBALS.map((name) => ({ name, message: "The browser may load this file: no Node globals." })),
      ],
    },
  },
  ...astro.configs.recommended,
  {
    // Typed rules need a TypeScript program of the file: astro check (check:site) has one for .astro
    // files and their scripts, typescript-eslint's project service does not.
    files: ["**/*.astro", "**/*.astro/*.ts", "**/*.astro/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Markup is escaped by Astro; set:html is the one way around it, so each use says why it is safe.
    files: ["**/*.astro"],
    rules: { "astro/no-set-html-directive": "error" },
  },
  {
    // Plain JavaScript (this file, astro.config.mjs…) is not typed: no type-aware rules there.
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The domain core depends on nothing above it: the MCP server, the sidecar and the site import
    // catalogue/, never the other way round (catalogue/README.md). The base rule, not typescript-
    // eslint's, so the browser core's own no-restricted-imports above still applies beside it.
    files: ["catalogue/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/mcp/**", "**/sidecar/**", "**/site/**"],
              message: "catalogue/ imports nothing from mcp/, sidecar/ or site/: move what it needs down here.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests: a describe block is a list of cases, not a unit to split. They read answers as parsed
    // JSON (any) and assert on them: the assertions are the type check, so the no-unsafe-* rules,
    // which would ask for a cast before every expect, stay for the code under test.
    files: ["tests/**"],
    rules: {
      "max-lines-per-function": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // `response.json() as T` says what the test expects of the answer, as json<T>() would; and
      // a test stringifies parsed examples and headers as a client does, then asserts on them.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
);
