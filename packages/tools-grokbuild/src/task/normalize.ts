/**
 * Input normalization of GrokBuild:task (spec §4.9): `run_in_background` is a lenient boolean,
 * `capability_mode` accepts its aliases (readonly, read_only, ReadOnly, …), sentinel
 * `resume_from` values (`""`, `null`, `none`, `undefined`, any case) mean "not resuming", and
 * `cwd` loses surrounding quotes or backticks.
 */
import { lenientBool } from "@grok-tools/runtime/helpers";
import { parseCapabilityMode } from "../shared/subagents/capability-mode.js";

const RESUME_SENTINELS = new Set(["", "null", "none", "undefined"]);

/** Rewrites the raw input before validation. */
export function normalizeTaskInput(raw: Record<string, unknown>): Record<string, unknown> {
  const input = { ...raw };
  if (input.run_in_background === null) delete input.run_in_background;
  else if (Object.hasOwn(input, "run_in_background")) input.run_in_background = lenientBool(input.run_in_background);
  if (input.capability_mode === null) delete input.capability_mode;
  else if (typeof input.capability_mode === "string") input.capability_mode = parseCapabilityMode(input.capability_mode) ?? input.capability_mode;
  if (input.resume_from === null || (typeof input.resume_from === "string" && RESUME_SENTINELS.has(input.resume_from.trim().toLowerCase()))) {
    delete input.resume_from;
  }
  for (const key of ["subagent_type", "isolation", "model", "cwd"] as const) if (input[key] === null) delete input[key];
  if (typeof input.cwd === "string") {
    const stripped = input.cwd.trim().replace(/^["'`]+|["'`]+$/g, "");
    if (stripped === "") delete input.cwd;
    else input.cwd = stripped;
  }
  return input;
}
