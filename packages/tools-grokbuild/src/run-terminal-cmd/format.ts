/**
 * Prompt texts of `run_terminal_cmd`: the DEFAULT format (`exit: N …`), the CONCISE format
 * (`Exit code: N …` in a fenced block) and the background-start envelope (spec §4.1).
 */
import { formatBytes, softWrapLines, stripAnsi } from "../shared/shell/index.js";
import type { BackgroundTaskStartedValue } from "./schema.js";

/** What the formatters need of a foreground result. */
export interface ForegroundFacts {
  output: string;
  exitCode: number;
  signal: string | null;
  truncated: boolean;
  totalBytes: number;
  outputFile: string;
  currentDir: string;
}

/** Signals that mean "killed by the harness" and render as `killed (reason)`. */
export function isKillReason(signal: string): boolean {
  return signal === "timeout" || signal === "max_runtime" || signal === "cancelled" || signal === "killed" || /^signal -?\d+$/.test(signal);
}

function annotations(facts: ForegroundFacts, showing: "first/last" | "last"): string {
  let text = "";
  if (facts.truncated) {
    text += ` [truncated: showing ${showing} ${formatBytes(Buffer.byteLength(facts.output))} of ${formatBytes(facts.totalBytes)} - full output at: ${facts.outputFile}]`;
  }
  if (facts.signal !== null && !isKillReason(facts.signal)) text += ` [signal=${facts.signal}]`;
  return text;
}

/** ANSI-stripped, soft-wrapped output (`BashOutput::make_output_for_prompt`). */
export function outputForPrompt(output: string): string {
  return softWrapLines(stripAnsi(output));
}

/** `exit: {code}{annotations}\n{output}` or `exit: killed ({reason}){annotations}\n{output}`. */
export function formatDefaultPrompt(facts: ForegroundFacts): string {
  const header = facts.signal !== null && isKillReason(facts.signal) ? `exit: killed (${facts.signal})` : `exit: ${facts.exitCode}`;
  return `${header}${annotations(facts, "first/last")}\n${outputForPrompt(facts.output)}`;
}

/** The GrokBuildConcise foreground format. */
export function formatConcisePrompt(facts: ForegroundFacts): string {
  const header = facts.signal !== null && isKillReason(facts.signal) ? `Exit code: killed (${facts.signal})` : `Exit code: ${facts.exitCode}`;
  return `${header}${annotations(facts, "last")}\n\nCommand output:\n\n\`\`\`\n${stripAnsi(facts.output)}\n\`\`\`\n\nCommand completed.\n\nThe previous shell command ended, so on the next invocation of this tool, you will be using a new shell session.\n\nOn the next terminal tool call, the directory of the shell will be ${facts.currentDir}.`;
}

/** The `<task-id>…` envelope of a background start. */
export function formatBackgroundStarted(bg: BackgroundTaskStartedValue): string {
  return `<task-id>${bg.task_id}</task-id>\n<task-type>${bg.task_type}</task-type>\n<output-file>${bg.output_file}</output-file>\n<status>${bg.status}</status>\n<summary>${bg.summary}</summary>\n${bg.retrieval_hint}`;
}
