/**
 * Golden cases: test/golden/<tool>/<case>/ holds request.json, input/ and the expected results.
 * `UPDATE_GOLDEN=1` writes them from a run; review the diff before committing.
 */
import path from "node:path";
import { loadGoldenCases, runGoldenCase } from "@grok-tools/runtime/testing";
import acme from "../src/index.js";

const cases = await loadGoldenCases(path.join(import.meta.dirname, "golden"));

test("the golden folder holds cases", () => expect(cases.length).toBeGreaterThan(0));

for (const goldenCase of cases) {
  test(goldenCase.name, async () => {
    const { actual, expected } = await runGoldenCase(goldenCase, { namespaces: [acme] });
    expect(actual).toEqual(expected);
  });
}
