/**
 * Checks a tool's structured output against its declared TypeBox output schema (decision D6:
 * every output validates against `ToolInfo.output_schema_json`). Used by tests and by sessions
 * running with `validateOutputs`.
 */
import Value from "typebox/value";
import type { AnyToolDefinition } from "../tool/define-tool.js";

/** One mismatch between an output and its schema. */
export interface OutputSchemaProblem {
  /** JSON pointer of the offending value ("" for the root). */
  path: string;
  message: string;
}

/** The problems of `output` against `def.output` (empty when it validates). */
export function validateToolOutput(def: Pick<AnyToolDefinition, "output">, output: unknown): OutputSchemaProblem[] {
  if (Value.Check(def.output, output)) return [];
  const problems = Value.Errors(def.output, output).map((e) => ({ path: e.instancePath, message: e.message }));
  return problems.length > 0 ? problems : [{ path: "", message: "output does not match the tool's output schema" }];
}

/** Throws a plain Error describing the problems when `output` does not validate (for tests). */
export function assertToolOutput(def: Pick<AnyToolDefinition, "output" | "id">, output: unknown): void {
  const problems = validateToolOutput(def, output);
  if (problems.length > 0) {
    throw new Error(
      `output of ${def.id} does not match its schema: ${problems
        .slice(0, 5)
        .map((p) => `${p.path || "/"} ${p.message}`)
        .join("; ")}`,
    );
  }
}
