/**
 * CallHost: the part of a session that running one call needs. `runTool` depends on this
 * interface alone; the session implements it.
 */
import type { AnyToolDefinition } from "../tool/define-tool.js";
import type { ReminderDefinition } from "../tool/reminder.js";
import type { SessionHandle, ToolNotification } from "../tool/tool-context.js";
import type { FinalizedToolset } from "../finalize/finalized-toolset.js";

export interface CallHost extends SessionHandle {
  /** The locked toolset; undefined before finalize. */
  readonly toolset: FinalizedToolset | undefined;
  /** Version reported when a tool has none of its own. */
  readonly runtimeVersion: string;
  /** Check every successful output against the tool's output schema. */
  readonly validateOutputs: boolean;
  /** The reminder wrapper tag. */
  readonly reminderTag: string;
  /** Reminders that run after each successful call. */
  readonly activeReminders: readonly ReminderDefinition[];
  /** The effective params of a finalized tool now. */
  currentParams(def: AnyToolDefinition, fallback: unknown): unknown;
  /** The template context reminders render against. */
  templateContext(): Record<string, unknown>;
  /** Told of every successful call (completion tracking). */
  recordSuccess(clientName: string, fqId: string): void;
  notify(notification: ToolNotification): void;
}
