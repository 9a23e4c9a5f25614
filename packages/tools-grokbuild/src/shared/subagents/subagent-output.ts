/**
 * What the model sees of a child (spec §4.7, §4.9): the `[subagent:…]` command, statuses, the
 * completed output with its `<subagent_meta>` and resume footer, the running body, and the
 * `TaskOutputResult` row the task-output tools show.
 */
import { truncateUtf8 } from "@grok-tools/runtime/helpers";
import type { SubagentSnapshot } from "@grok-tools/tasks";

/** The footer that tells the model how to continue a child's conversation. */
export function resumeFooter(id: string, type: string): string {
  return `<subagent_result>\nsubagent_id: ${id}\nsubagent_type: ${type}\nTo continue this subagent's conversation, use resume_from="${id}".\n</subagent_result>`;
}

/** `[subagent:{type}] {description}`. */
export function subagentCommand(s: Pick<SubagentSnapshot, "subagentType" | "description">): string {
  return `[subagent:${s.subagentType}] ${s.description}`;
}

/** The output body of a child for get_task_output (the running hint is added by the caller). */
export function subagentOutputBody(s: SubagentSnapshot, now: Date = new Date()): string {
  switch (s.status) {
    case "initializing":
    case "running": {
      const elapsed = ((now.getTime() - s.startTime.getTime()) / 1000).toFixed(1);
      return `Subagent is still running.\nType: ${s.subagentType}\nDescription: ${s.description}\nElapsed: ${elapsed}s`;
    }
    case "completed": {
      const r = s.result!;
      const meta = `<subagent_meta>id=${s.id}, type=${s.subagentType}, tool_calls=${r.toolCalls}, turns=${r.turns}, duration_ms=${r.durationMs}</subagent_meta>`;
      return `${r.output}\n\n${meta}\n\n${resumeFooter(s.id, s.subagentType)}`;
    }
    case "failed":
      return s.error ?? "Unknown subagent error";
    case "cancelled":
      return s.error ?? "Subagent was cancelled";
  }
}

/** The exit code shown for a child: 0 completed, 1 failed, none otherwise. */
export function subagentExitCode(s: SubagentSnapshot): number | null {
  return s.status === "completed" ? 0 : s.status === "failed" ? 1 : null;
}

/** Keeps the first `previewBytes` of an over-budget output, saying how much there was. */
export function fitSubagentOutput(output: string, maxBytes: number, previewBytes: number): { output: string; truncated: boolean; totalBytes: number } {
  const totalBytes = Buffer.byteLength(output);
  if (totalBytes <= maxBytes) return { output, truncated: false, totalBytes };
  return { output: `${truncateUtf8(output, previewBytes).text}\n\n[Output truncated - ${totalBytes} bytes total]`, truncated: true, totalBytes };
}
