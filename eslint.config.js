// ESLint over the pages' JavaScript (src/tilewall/web) and its unit tests (tests/web):
// the recommended rules, and the ones that catch what a reader would trip on.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "bench/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["src/tilewall/web/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["src/tilewall/web/receiver/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    // the Python code's limits, over every page (console, receiver, share, the service
    // worker): no function over ~80 lines, no file over ~400 (blank lines and comments not
    // counted: a comment that says why is never the reason to split)
    files: ["src/tilewall/web/**/*.js"],
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ["tests/web/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
      "no-shadow": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-coercion": ["error", { allow: ["!!"] }],
      "no-throw-literal": "error",
      "no-self-compare": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-use-before-define": ["error", { functions: false, classes: true, variables: false }],
      "no-promise-executor-return": "error",
      "no-constructor-return": "error",
      "no-duplicate-imports": "error",
      curly: ["error", "multi-line"],
      // `catch {}` around storage and media calls that may refuse: the refusal changes nothing
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
];
