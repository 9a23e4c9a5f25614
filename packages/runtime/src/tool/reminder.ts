/**
 * System reminders (spec §6): cross-cutting hints collected after a successful tool call,
 * wrapped in `<system-reminder>` tags and appended to prompt_text. This module defines the
 * contract and the formatting; the session decides when reminders run.
 */
import type { ToolKind } from "./tool-kind.js";
import type { ToolsetView } from "./toolset-view.js";
import type { SessionHandle } from "./tool-context.js";
import type { ResourceKey } from "./resource.js";

/** The default reminder tag (hyphen variant), as in the reference. */
export const DEFAULT_REMINDER_TAG = "system-reminder";

/** What a reminder sees after a successful call. */
export interface ReminderContext {
  readonly session: SessionHandle;
  readonly toolset: ToolsetView;
  /** The tool that just ran. */
  readonly tool: { readonly fqId: string; readonly clientName: string; readonly kind: ToolKind };
  readonly callId: string;
  /** The structured output of the call (before field filtering). */
  readonly output: unknown;
  /** The prompt text of the call, before reminders. */
  readonly promptText: string;
  /** Renders `${{ tools.by_kind.* }}` / `${{ params.* }}` templates against this session's names. */
  render(template: string): string;
}

/** A cross-cutting reminder. */
export interface ReminderDefinition {
  /** Stable id; a reminder declared by several tools runs once. */
  readonly id: string;
  /** Serializable state the reminder keeps; registered at finalize so persisted values load. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly resources?: readonly ResourceKey<any>[];
  /** Whether the reminder applies to this toolset (checked once at finalize). Default: always. */
  isActive?(toolset: ToolsetView): boolean;
  /** Zero or more reminder texts (unwrapped). */
  collect(ctx: ReminderContext): readonly string[] | Promise<readonly string[]>;
}

/** Declares a reminder. */
export function defineReminder(spec: ReminderDefinition): ReminderDefinition {
  return Object.freeze({ ...spec });
}

/** `<tag>\n{text}\n</tag>`. */
export function wrapReminder(text: string, tag: string = DEFAULT_REMINDER_TAG): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/**
 * Appends wrapped reminders to a prompt text: wrappers joined by a blank line, after a blank
 * line, or alone when the output is empty; unchanged when there are none.
 */
export function formatWithReminders(output: string, reminders: readonly string[], tag: string = DEFAULT_REMINDER_TAG): string {
  if (reminders.length === 0) return output;
  const joined = reminders.map((r) => wrapReminder(r, tag)).join("\n\n");
  return output === "" ? joined : `${output}\n\n${joined}`;
}
