// Lint: typescript-eslint's recommended rules, plus Nx module boundaries that enforce the
// package graph of shared/conventions.md (client and callback-host never reach the runtime or
// server; the process supervisor reaches only the runtime; tool packages reach the runtime and the supervisor).
// The plain JavaScript of scripts/ and bench/ gets ESLint's recommended rules with Node's globals.
import js from "@eslint/js";
import nx from "@nx/eslint-plugin";
import globals from "globals";
import tseslint from "typescript-eslint";

export default [
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/src/gen/**", "**/*.js", "**/*.mjs", "**/*.cjs", "**/test/golden/**", "**/test/scenarios/**"]
      // ...except the scripts and benchmarks, which are code we maintain.
      .concat(["!scripts/*.mjs", "!scripts/*.cjs", "!**/bench/*.mjs"]),
  },
  ...tseslint.configs.recommended,
  {
    files: ["scripts/*.mjs", "scripts/*.cjs", "**/bench/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["scripts/*.cjs"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
  {
    files: ["**/*.ts"],
    plugins: { "@nx": nx },
    rules: {
      "@nx/enforce-module-boundaries": [
        "error",
        {
          enforceBuildableLibDependency: false,
          // Tests import their own package by name, as a user would.
          allowCircularSelfDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: "type:proto", onlyDependOnLibsWithTags: [] },
            { sourceTag: "type:runtime", onlyDependOnLibsWithTags: [] },
            { sourceTag: "type:tasks", onlyDependOnLibsWithTags: ["type:runtime"] },
            { sourceTag: "type:tools", onlyDependOnLibsWithTags: ["type:runtime", "type:tasks"] },
            { sourceTag: "type:server", onlyDependOnLibsWithTags: ["type:proto", "type:runtime", "type:tasks", "type:tools"] },
            { sourceTag: "type:client", onlyDependOnLibsWithTags: ["type:proto"] },
          ],
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
];
