/**
 * Runs every golden scenario under test/golden/<tool>/<case>/ as one jest test (`UPDATE_GOLDEN=1`
 * rewrites the expected files; review the diff).
 */
import path from "node:path";
import { loadGoldenCases, runGoldenCase } from "@grok-tools/runtime/testing";
import grokBuildHashline from "../src/index.js";

const GOLDEN_DIR = path.join(import.meta.dirname, "golden");
const cases = await loadGoldenCases(GOLDEN_DIR);

describe("GrokBuildHashline golden scenarios", () => {
  test("every hashline tool has cases", () => {
    expect([...new Set(cases.map((c) => c.name.split("/")[0]))].sort()).toEqual(["hashline_edit", "hashline_grep", "hashline_read"]);
  });

  for (const goldenCase of cases) {
    test(goldenCase.name, async () => {
      const { actual, expected } = await runGoldenCase(goldenCase, { namespaces: [grokBuildHashline] });
      expect(actual).toEqual(expected);
    });
  }
});
