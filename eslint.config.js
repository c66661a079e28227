// One linter for the repo: typescript-eslint's recommended rules over every TypeScript file.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist", ".cache/", ".data/", ".astro/", ".fragments/", "test-artifacts/", "site/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        URL: "readonly",
        performance: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        NodeJS: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        URLSearchParams: "readonly",
        structuredClone: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        document: "readonly",
        window: "readonly",
        localStorage: "readonly",
        HTMLElement: "readonly",
        customElements: "readonly",
      },
    },
    rules: {
      // Unused arguments named with a leading underscore document a required signature.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // A unit a reader can hold at once: no function over 80 lines of code.
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Tests: a describe block is a list of cases, not a unit to split.
    files: ["tests/**"],
    rules: { "max-lines-per-function": "off" },
  },
);
