// Lint: typescript-eslint's recommended rules, plus Nx module boundaries that enforce the
// package graph of shared/conventions.md (client and callback-host never reach the runtime or
// server; tool packages reach only the runtime).
import nx from "@nx/eslint-plugin";
import tseslint from "typescript-eslint";

export default [
  { ignores: ["**/dist/**", "**/node_modules/**", "**/src/gen/**", "**/*.js", "**/*.mjs", "**/test/golden/**", "**/test/scenarios/**"] },
  ...tseslint.configs.recommended,
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
            { sourceTag: "type:tools", onlyDependOnLibsWithTags: ["type:runtime"] },
            { sourceTag: "type:server", onlyDependOnLibsWithTags: ["type:proto", "type:runtime", "type:tools"] },
            { sourceTag: "type:client", onlyDependOnLibsWithTags: ["type:proto"] },
            // Root test projects (test/reliability) exercise every package from outside.
            { sourceTag: "type:test", onlyDependOnLibsWithTags: ["*"] },
          ],
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
];
