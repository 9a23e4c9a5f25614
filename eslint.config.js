// Lint: typescript-eslint's recommended rules, plus Nx module boundaries that enforce the
// package graph of shared/conventions.md (client and callback-host never reach the runtime or
// server; the process supervisor reaches only the runtime; tool packages reach the runtime and the supervisor).
// The plain JavaScript of scripts/ and bench/ gets ESLint's recommended rules with Node's globals.
import js from "@eslint/js";
import nx from "@nx/eslint-plugin";
import globals from "globals";
import tseslint from "typescript-eslint";

// Tool code reaches files through @grok-tools/runtime/fs (with ctx.session as the scope) and host facts
// through @grok-tools/runtime/helpers, never node:fs; tool folders never import another tool's folder:
// what two tools share (the search_replace engine both twins run, the task-output core) lives in
// src/shared/. Both rules hold in every tool package, the vendor-style ones (tools-opencode,
// tools-hashline) included. The exceptions to the first rule: each package's description loader
// (src/shared/description.ts) reads the package's own files, not the workspace; subagent-types.ts
// reads the agent definition folders the server was configured with (user configuration, not
// workspace files the model names).
const FS_EXCEPTIONS = ["packages/*/src/shared/description.ts", "packages/tools-grokbuild/src/shared/subagents/subagent-types.ts"];
const NODE_FS = ["fs", "fs/promises", "node:fs", "node:fs/promises"].map((name) => ({
  name,
  allowTypeImports: true,
  message: "Tools reach files through @grok-tools/runtime/fs and ctx.session.",
}));
const OTHER_TOOL = {
  group: ["../*/**", "!../shared/**", "!../reminders/**", "!../../shared/**", "!../../reminders/**"],
  message: "A tool folder imports no other tool folder: move what both need to src/shared/.",
};
// The same in vendor packages, where a path that climbs out of the package is the public-entry rule's to
// report (one message per import); a regex, since a gitignore-style group cannot re-include what "../*/**" excludes.
const VENDOR_OTHER_TOOL = {
  regex: String.raw`^\.\./(?!shared/|reminders/|\.\./shared/|\.\./reminders/|\.\./\.\./)[^/]+/.`,
  message: OTHER_TOOL.message,
};
const VENDOR_ENTRY_MESSAGE =
  "A vendor namespace package imports only @grok-tools/runtime's public entries (/, /fs, /helpers) and @grok-tools/tasks; improve the public runtime API instead of reaching inside.";
const VENDOR_ONLY_PUBLIC_ENTRIES = {
  group: [
    "@grok-tools/**",
    "!@grok-tools/runtime",
    "!@grok-tools/runtime/fs",
    "!@grok-tools/runtime/helpers",
    "!@grok-tools/tasks",
    "../../../**",
    "**/runtime/src/**",
  ],
  message: VENDOR_ENTRY_MESSAGE,
};
const VENDOR_TEST_ENTRIES = {
  group: [
    "@grok-tools/**",
    "!@grok-tools/runtime",
    "!@grok-tools/runtime/fs",
    "!@grok-tools/runtime/helpers",
    "!@grok-tools/runtime/host",
    "!@grok-tools/runtime/testing",
    "!@grok-tools/tasks",
    "../../../**",
    "**/runtime/src/**",
  ],
  message: VENDOR_ENTRY_MESSAGE,
};
// The tool packages: first-party, and vendor-style (which also get the public-entry rule below).
const toolFolders = (packages) => packages.map((name) => `packages/${name}/src/*/**/*.ts`);
const sharedFolders = (packages) => packages.flatMap((name) => [`packages/${name}/src/shared/**/*.ts`, `packages/${name}/src/reminders/**/*.ts`]);
const TOOL_FOLDERS = toolFolders(["tools-grokbuild", "tools-codex"]);
const SHARED_FOLDERS = sharedFolders(["tools-grokbuild", "tools-codex"]);
const VENDOR_TOOL_FOLDERS = toolFolders(["tools-opencode", "tools-hashline"]);
const VENDOR_SHARED_FOLDERS = sharedFolders(["tools-opencode", "tools-hashline"]);
const NOT_TOOL_FOLDERS = ["packages/*/src/shared/**", "packages/*/src/reminders/**", "**/*.test.ts"];

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
          // The stress scripts' check recorder lives beside scripts/run-suite.mjs, which reads what it writes.
          allow: ["^(\\.\\./)+scripts/suite-report\\.mjs$"],
          depConstraints: [
            { sourceTag: "type:proto", onlyDependOnLibsWithTags: [] },
            { sourceTag: "type:runtime", onlyDependOnLibsWithTags: [] },
            { sourceTag: "type:tasks", onlyDependOnLibsWithTags: ["type:runtime"] },
            { sourceTag: "type:tools", onlyDependOnLibsWithTags: ["type:runtime", "type:tasks"] },
            // Vendor-style namespace packages (tools-opencode, tools-hashline, vendor-example): the runtime and the supervisor only.
            { sourceTag: "type:vendor", onlyDependOnLibsWithTags: ["type:runtime", "type:tasks"] },
            { sourceTag: "type:server", onlyDependOnLibsWithTags: ["type:proto", "type:runtime", "type:tasks", "type:tools", "type:vendor"] },
            // examples/vendor-namespace: its tests start the real server and call it with the client (its src is limited below).
            { sourceTag: "type:example", onlyDependOnLibsWithTags: ["type:runtime", "type:tasks", "type:server", "type:client", "type:proto"] },
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
  {
    files: TOOL_FOLDERS,
    ignores: NOT_TOOL_FOLDERS,
    rules: { "no-restricted-imports": ["error", { paths: NODE_FS, patterns: [OTHER_TOOL] }] },
  },
  {
    files: SHARED_FOLDERS,
    ignores: ["**/*.test.ts", ...FS_EXCEPTIONS],
    rules: { "no-restricted-imports": ["error", { paths: NODE_FS }] },
  },

  // OpenCode and GrokBuildHashline are built the way an outside vendor builds a namespace (issue #17): their
  // sources import only the runtime's public entries (and, for commands, @grok-tools/tasks); never another
  // tool package, the server, a runtime-internal path, or a file outside the package. Their tests may also
  // use the runtime's /host and /testing entries. The tool-folder and node:fs rules above apply to them
  // too; ESLint keeps only the last options of a rule per file, so each block below states all of them.
  {
    files: ["packages/tools-opencode/src/**/*.ts", "packages/tools-hashline/src/**/*.ts", "examples/vendor-namespace/src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [VENDOR_ONLY_PUBLIC_ENTRIES] }] },
  },
  {
    files: VENDOR_TOOL_FOLDERS,
    ignores: NOT_TOOL_FOLDERS,
    rules: { "no-restricted-imports": ["error", { paths: NODE_FS, patterns: [VENDOR_ONLY_PUBLIC_ENTRIES, VENDOR_OTHER_TOOL] }] },
  },
  {
    files: VENDOR_SHARED_FOLDERS,
    ignores: ["**/*.test.ts", ...FS_EXCEPTIONS],
    rules: { "no-restricted-imports": ["error", { paths: NODE_FS, patterns: [VENDOR_ONLY_PUBLIC_ENTRIES] }] },
  },
  {
    files: ["packages/tools-opencode/{src,test}/**/*.test.ts", "packages/tools-hashline/{src,test}/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [VENDOR_TEST_ENTRIES] }] },
  },
  // The vendor example is built from the runtime's root entry alone, as the README promises.
  {
    files: ["packages/vendor-example/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["@grok-tools/**", "!@grok-tools/runtime", "../**"], message: "The vendor example uses only @grok-tools/runtime's root entry." }],
        },
      ],
    },
  },
];
