/**
 * Runs every golden scenario under test/golden/<tool>/<case>/ as one jest test (`UPDATE_GOLDEN=1`
 * rewrites the expected files; review the diff against spec §4.14).
 */
import path from "node:path";
import { loadGoldenCases, runGoldenCase } from "@grok-tools/runtime/testing";
import openCode from "../src/index.js";

const GOLDEN_DIR = path.join(import.meta.dirname, "golden");
const cases = await loadGoldenCases(GOLDEN_DIR);

describe("OpenCode golden scenarios", () => {
  test("every OpenCode tool has cases", () => {
    const tools = new Set(cases.map((c) => c.name.split("/")[0]));
    expect([...tools].sort()).toEqual(["bash", "edit", "glob", "grep", "read", "todowrite", "write"]);
  });

  for (const goldenCase of cases) {
    test(goldenCase.name, async () => {
      const { actual, expected } = await runGoldenCase(goldenCase, { namespaces: [openCode] });
      expect(actual).toEqual(expected);
    });
  }
});
