// Shared Jest settings for every package: ESM TypeScript through ts-jest, and
// workspace packages mapped to their sources so unit tests need no prior build.
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(fileURLToPath(import.meta.url));

// Every tool output produced under test is checked against the tool's output schema (sessions
// read this switch; servers started by tests inherit it).
process.env.GROK_TOOLS_VALIDATE_OUTPUTS ??= "1";

export function jestConfig(packageDir, overrides = {}) {
  return {
    rootDir: packageDir,
    testEnvironment: "node",
    extensionsToTreatAsEsm: [".ts"],
    transform: {
      "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: path.join(root, "tsconfig.jest.json") }],
    },
    moduleNameMapper: {
      "^@grok-tools/([a-z-]+)$": path.join(root, "packages/$1/src/index.ts"),
      "^(\\.{1,2}/.*)\\.js$": "$1",
    },
    testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
    testTimeout: 30000,
    // A test that fails half-way can leave a child process or socket behind; never let that hang CI.
    // Leaks are checked by dedicated tests (process counts, open handles), not by Jest's exit.
    forceExit: true,
    ...overrides,
  };
}
