// The subagent end-to-end suite: grok-tools-server and grok-tools-callback-host as real processes,
// with the example child (examples/subagent-child) run by the host's command runner.
import { jestConfig } from "../../jest.preset.js";

export default jestConfig(import.meta.dirname, { testMatch: ["<rootDir>/**/*.test.ts"], testTimeout: 120000 });
