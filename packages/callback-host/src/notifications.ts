/**
 * Typed notifications (spec §7.6): the `notification_json` variants the tools server sends,
 * tagged by `type`. Unknown variants still arrive, typed as {@link OtherNotification}.
 */

/** `{"secs":n,"nanos":n}` (a Rust Duration). */
export interface DurationJson {
  secs: number;
  nanos: number;
}
/** `{"secs_since_epoch":n,"nanos_since_epoch":n}` (a Rust SystemTime). */
export interface SystemTimeJson {
  secs_since_epoch: number;
  nanos_since_epoch: number;
}

interface BashBase {
  tool_call_id: string;
  command: string;
  /** Base64. */
  output: string;
  total_bytes: number;
  truncated: boolean;
  cwd: string;
}

/** A subagent child finished. */
export interface SubagentCompletedNotification {
  type: "SubagentCompleted";
  subagent_id: string;
  subagent_type: string;
  description: string;
  status: "completed" | "failed" | "cancelled";
  error?: string | null;
  duration_ms: number;
  owner_session_id?: string | null;
}
/** A background command finished (the task snapshot). */
export interface TaskCompletedNotification {
  type: "TaskCompleted";
  task_id: string;
  command: string;
  display_command?: string | null;
  cwd: string;
  start_time: SystemTimeJson;
  end_time?: SystemTimeJson | null;
  output: string;
  output_file: string;
  truncated: boolean;
  output_total_bytes: number;
  exit_code?: number | null;
  signal?: string | null;
  completed: boolean;
  kind: "bash" | "monitor";
  block_waited: boolean;
  explicitly_killed: boolean;
  owner_session_id?: string | null;
  description?: string | null;
  is_backgrounded: boolean;
}
/** A tool wrote a file. */
export interface FileWrittenNotification {
  type: "FileWritten";
  tool_call_id: string;
  absolute_path: string;
  content: string;
  previous_content?: string | null;
  is_new_file: boolean;
}
export interface PlanModeEnteredNotification {
  type: "PlanModeEntered";
  tool_call_id: string;
}
export interface PlanModeExitedNotification {
  type: "PlanModeExited";
  tool_call_id: string;
  plan_content?: string | null;
  plan_file_path: string;
}
export interface UserQuestionAskedNotification {
  type: "UserQuestionAsked";
  tool_call_id: string;
  questions_json: string;
}
export interface BashOutputChunkNotification extends BashBase {
  type: "BashOutputChunk";
}
export interface BashExecutionCompleteNotification extends BashBase {
  type: "BashExecutionComplete";
  exit_code?: number | null;
  signal?: string | null;
}
export interface BashExecutionTimeoutNotification extends BashBase {
  type: "BashExecutionTimeout";
  elapsed: DurationJson;
  timeout: DurationJson;
}
export interface BashExecutionBackgroundedNotification extends BashBase {
  type: "BashExecutionBackgrounded";
  output_file: string;
  task_id: string;
  monitor_description?: string | null;
  description?: string | null;
}
export interface BashExecutionFailedNotification {
  type: "BashExecutionFailed";
  tool_call_id: string;
  command: string;
  cwd: string;
  error: string;
}
export interface MonitorEventNotification {
  type: "MonitorEvent";
  task_id: string;
  description: string;
  event_text: string;
  raw_text: string;
  owner_session_id?: string | null;
}
/** A variant this package does not know (newer servers, vendor notifications). */
export interface OtherNotification {
  type: string;
  [field: string]: unknown;
}

/** Every known variant. */
export type KnownNotification =
  | SubagentCompletedNotification
  | TaskCompletedNotification
  | FileWrittenNotification
  | PlanModeEnteredNotification
  | PlanModeExitedNotification
  | UserQuestionAskedNotification
  | BashOutputChunkNotification
  | BashExecutionCompleteNotification
  | BashExecutionTimeoutNotification
  | BashExecutionBackgroundedNotification
  | BashExecutionFailedNotification
  | MonitorEventNotification;

/** A parsed notification: a known variant (narrow on `type`) or another one. */
export type HostNotification = KnownNotification | OtherNotification;

const KNOWN_TYPES: ReadonlySet<string> = new Set([
  "SubagentCompleted",
  "TaskCompleted",
  "FileWritten",
  "PlanModeEntered",
  "PlanModeExited",
  "UserQuestionAsked",
  "BashOutputChunk",
  "BashExecutionComplete",
  "BashExecutionTimeout",
  "BashExecutionBackgrounded",
  "BashExecutionFailed",
  "MonitorEvent",
]);

/** Whether a notification is one of the variants typed here. */
export function isKnownNotification(n: HostNotification): n is KnownNotification {
  return KNOWN_TYPES.has(n.type);
}

/** Parses `notification_json`: an object with a string `type`, else throws with the reason. */
export function parseNotification(json: string): HostNotification {
  const value: unknown = JSON.parse(json);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("notification_json must be a JSON object");
  if (typeof (value as { type?: unknown }).type !== "string") throw new Error('notification_json has no string "type" tag');
  return value as HostNotification;
}
