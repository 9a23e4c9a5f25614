// The reliability suite's fast part (npm test): the real server, spawned, called through the real
// client and raw grpc-js. The long part lives in stress/*.stress.ts (npm run stress).
import { jestConfig } from "../../jest.preset.js";

export default jestConfig(import.meta.dirname, { testMatch: ["<rootDir>/**/*.test.ts"], testTimeout: 60000 });
