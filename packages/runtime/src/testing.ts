/**
 * @grok-tools/runtime/testing: the golden runner. A golden case is a folder with a request, a
 * workspace before and after, and the expected response; tool packages pin their model-visible
 * text with it.
 */
export {
  STATE_DIR_PLACEHOLDER,
  WORKSPACE_PLACEHOLDER,
  loadGoldenCases,
  readTree,
  runGoldenCase,
  runGoldenSuite,
  type GoldenArtifacts,
  type GoldenCase,
  type GoldenComparison,
  type GoldenRunOptions,
} from "./testing/golden.js";
