/**
 * TodoNudge (spec §6.3; the reference has only its config): after enough tool calls without
 * a plan-kind call, remind the model of the todo tool. Counters live in the serializable
 * state `grok_build.TodoNudge` so they travel in GetToolState and survive restarts.
 */
import { defineReminder, defineResource } from "@grok-tools/runtime";
import { isPlainObject } from "@grok-tools/runtime/helpers";

/** Calls since the last plan-kind call before a nudge (reference `turns_since_todo_write`). */
export const TODO_NUDGE_CALLS_SINCE_TODO_WRITE = 3;
/** Calls between two nudges (reference `turns_between_reminders`). */
export const TODO_NUDGE_CALLS_BETWEEN_NUDGES = 5;

/** Counters of the nudge; `calls_since_nudge` is null until the first nudge. */
export interface TodoNudgeState {
  calls_since_todo_write: number;
  calls_since_nudge: number | null;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** The nudge counters (`state` / `grok_build.TodoNudge`). */
export const todoNudgeStateResource = defineResource<TodoNudgeState>({
  id: "grok_build.TodoNudge",
  category: "state",
  initial: () => ({ calls_since_todo_write: 0, calls_since_nudge: null }),
  decode: (json) => {
    if (!isPlainObject(json)) return undefined;
    const sinceTodo = json.calls_since_todo_write;
    const sinceNudge = json.calls_since_nudge ?? null;
    if (!isCount(sinceTodo) || (sinceNudge !== null && !isCount(sinceNudge))) return undefined;
    return { calls_since_todo_write: sinceTodo, calls_since_nudge: sinceNudge };
  },
});

/** The nudge text (our wording: the reference ships no text); names the plan tool. */
export const TODO_NUDGE_TEMPLATE =
  "The ${{ tools.by_kind.plan }} tool hasn't been used recently. If you're working on a multi-step task, " +
  "use ${{ tools.by_kind.plan }} to record and update your progress, and clean up the list if it no longer " +
  "matches what you are doing. Ignore this reminder if it does not apply to the current work.";

/**
 * Counts every successful call while reminders are on; a plan-kind call resets the
 * since-write counter. Nudges when at least 3 calls passed since the last plan call and it
 * never nudged or at least 5 calls passed since the last nudge. Active only with a plan tool.
 */
export const todoNudgeReminder = defineReminder({
  id: "todo_nudge",
  resources: [todoNudgeStateResource],
  isActive: (toolset) => toolset.hasKind("plan"),
  collect(ctx) {
    const resources = ctx.session.resources;
    const isPlan = ctx.tool.kind === "plan";
    const next = resources.update(todoNudgeStateResource, (current) => ({
      calls_since_todo_write: isPlan ? 0 : current.calls_since_todo_write + 1,
      calls_since_nudge: current.calls_since_nudge === null ? null : current.calls_since_nudge + 1,
    }));
    if (isPlan || next.calls_since_todo_write < TODO_NUDGE_CALLS_SINCE_TODO_WRITE) return [];
    if (next.calls_since_nudge !== null && next.calls_since_nudge < TODO_NUDGE_CALLS_BETWEEN_NUDGES) return [];
    resources.set(todoNudgeStateResource, { ...next, calls_since_nudge: 0 });
    return [ctx.render(TODO_NUDGE_TEMPLATE)];
  },
});
