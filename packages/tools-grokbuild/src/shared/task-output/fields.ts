/**
 * Input normalization and advertised output fields shared by the task-output tools
 * (get_task_output, get_terminal_command_output, wait_tasks).
 */
import { lenientOptionalInteger, lenientStringList, normalizeKey } from "@grok-tools/runtime/helpers";

/** Accepts the singular `task_id` alias and bare ids (spec §4.0). */
export function normalizeTaskOutputInput(raw: Record<string, unknown>): Record<string, unknown> {
  const input = { ...raw };
  if (!Object.hasOwn(input, "task_ids") && Object.hasOwn(input, "task_id")) input.task_ids = input.task_id;
  delete input.task_id;
  normalizeKey(input, "task_ids", lenientStringList);
  normalizeKey(input, "timeout_ms", lenientOptionalInteger);
  return input;
}

/** Output fields advertised by the task-output tools. */
export const TASK_OUTPUT_FIELDS = {
  Result: { description: "One task's status and output." },
  MultiResult: { description: "Several tasks' status and output." },
};
