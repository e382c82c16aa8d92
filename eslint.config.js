// The linter of the web app's JavaScript: the pages' ES modules (web/static/js) and the service
// worker (web/service_worker.js). `npm ci && npx eslint` runs it; .ci/run runs it beside ruff, mypy
// and lint-imports.
import js from "@eslint/js";
import globals from "globals";

export default [
  // The trees that .gitignore keeps out hold no JavaScript of ours (a build/ holds copies of it);
  // node_modules/ is left out by ESLint itself.
  { ignores: [".venv/", "build/", "dist/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    // Beyond the recommended rules: the mistakes that slip through in plain JavaScript.
    rules: {
      // `value == null` (null or undefined) is the one loose comparison this code means.
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "error",
      "no-throw-literal": "error",
      "array-callback-return": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constructor-return": "error",
      // A name read before its `const`/`let` in the same scope throws; read from a function that
      // runs later (a handler, a helper declared below its caller) it is fine.
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
    },
  },
  {
    files: ["src/cubilete/web/static/js/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["src/cubilete/web/service_worker.js"],
    languageOptions: {
      sourceType: "script",
      // __SHELL__ is a placeholder, not a name: web/shell.py writes the list of the shell's
      // addresses in its place before serving the worker.
      globals: { ...globals.serviceworker, __SHELL__: "readonly" },
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
