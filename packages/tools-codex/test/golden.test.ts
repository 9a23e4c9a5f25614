/**
 * Runs every golden case under test/golden/<tool_id>/<case>/ (read_file, list_dir, grep_files) as one
 * jest test with the runtime's runner (`UPDATE_GOLDEN=1` rewrites the expected files; check them
 * against the reference). apply_patch has its own scenario suite in test/scenarios.
 */
import { describe, expect, test } from "@jest/globals";
import path from "node:path";
import { loadGoldenCases, runGoldenCase } from "@grok-tools/runtime/testing";
import { codex } from "../src/index.js";

const GOLDEN_DIR = path.join(import.meta.dirname, "golden");
const cases = await loadGoldenCases(GOLDEN_DIR);

describe("golden cases", () => {
  test("the golden folder holds cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const goldenCase of cases) {
    test(goldenCase.name, async () => {
      const { actual, expected } = await runGoldenCase(goldenCase, { namespaces: [codex] });
      expect(actual).toEqual(expected);
    });
  }
});
