// Jest for the starter: TypeScript through ts-jest (ESM). Your own package needs only this file, with
// jest and ts-jest as dev dependencies; @grok-tools/* resolve to their installed (built) packages.
import path from "node:path";

export default {
  rootDir: import.meta.dirname,
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: path.join(import.meta.dirname, "tsconfig.test.json") }] },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  testTimeout: 30000,
};
