/**
 * Runs every golden scenario under test/golden/<tool_id>/<case>/ as one jest test
 * (`UPDATE_GOLDEN=1` rewrites the expected files; review the diff against the reference).
 */
import path from "node:path";
import { loadGoldenCases, runGoldenCase } from "@grok-tools/runtime/testing";
import { grokBuild, grokBuildConcise } from "../src/index.js";

const GOLDEN_DIR = path.join(import.meta.dirname, "golden");
const cases = await loadGoldenCases(GOLDEN_DIR);

describe("golden scenarios", () => {
  test("the golden folder holds cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const goldenCase of cases) {
    test(goldenCase.name, async () => {
      const { actual, expected } = await runGoldenCase(goldenCase, { namespaces: [grokBuild, grokBuildConcise] });
      expect(actual).toEqual(expected);
    });
  }
});
