/**
 * Schemas of GrokBuild:task (spec §4.9): the `TaskToolInput`, the params (`grok_build.Task`:
 * limits, budget, agent definition folders, type toggles) and the output (`Text` for a started
 * or backgrounded child, `SubagentCompleted` for a finished foreground one).
 */
import { Type, type Static } from "@grok-tools/runtime";

/** `TaskToolInput`. */
export const TaskInput = Type.Object({
  prompt: Type.String({ description: "The task for the agent to perform" }),
  description: Type.String({ description: "A short (3-5 word) description of the task" }),
  subagent_type: Type.Optional(Type.String({ description: "The type of specialized agent to use for this task (default: general-purpose)" })),
  run_in_background: Type.Optional(
    Type.Boolean({ description: "Set to false to wait for the agent's result in this call. Defaults to true: the agent runs in the background." }),
  ),
  capability_mode: Type.Optional(
    Type.Union([Type.Literal("read-only"), Type.Literal("read-write"), Type.Literal("execute"), Type.Literal("all")], {
      description: "Limits the kinds of tools the agent may use; defaults to the agent type's own setting",
    }),
  ),
  isolation: Type.Optional(Type.Union([Type.Literal("none"), Type.Literal("worktree")], { description: "Isolation mode for the agent (default: none)" })),
  resume_from: Type.Optional(Type.String({ description: "The subagent_id of a completed agent to continue its conversation with a new prompt" })),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent (an existing directory; default: the current working directory)" })),
  model: Type.Optional(Type.String({ description: "Model for the agent (default: the parent's model)" })),
});
export type TaskInput = Static<typeof TaskInput>;

/** The task tool's params. */
export const TaskParams = Type.Object({
  /** Nesting limit: a session at this depth cannot spawn (default 1: subagents spawn none). */
  max_depth: Type.Integer({ minimum: 0 }),
  /** Children running at once per parent session; null = `GROK_MAX_CONCURRENT_SUBAGENTS` or 32. */
  max_concurrent: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** Over the limit: `queue` (wait for room) or `fail`; null = `GROK_SUBAGENT_LIMIT_BEHAVIOR` or queue. */
  limit_behavior: Type.Union([Type.Literal("queue"), Type.Literal("fail"), Type.Null()]),
  /** How long a foreground child may run before it moves to the background. */
  foreground_budget_ms: Type.Integer({ minimum: 0 }),
  /** Folders (relative to the workspace) holding user-defined agent definition files. */
  agent_dirs: Type.Array(Type.String()),
  /** Types that may not be spawned (`[subagents.toggle]`). */
  disabled_types: Type.Array(Type.String()),
  /** When non-empty, the only types this agent may spawn. */
  allowed_types: Type.Array(Type.String()),
});
export type TaskParams = Static<typeof TaskParams>;

/** Default params. */
export const TASK_PARAMS_DEFAULTS: TaskParams = {
  max_depth: 1,
  max_concurrent: null,
  limit_behavior: null,
  foreground_budget_ms: 45_000,
  agent_dirs: [".grok/agents"],
  disabled_types: [],
  allowed_types: [],
};

/** `{"type":"Text","text":…}` or the finished child (`SubagentCompleted`). */
export const TaskOutput = Type.Union([
  Type.Object({ type: Type.Literal("Text"), text: Type.String() }),
  Type.Object({
    type: Type.Literal("SubagentCompleted"),
    output: Type.String(),
    subagent_id: Type.String(),
    subagent_type: Type.String(),
    tool_calls: Type.Integer(),
    turns: Type.Integer(),
    duration_ms: Type.Integer(),
    worktree_path: Type.Union([Type.String(), Type.Null()]),
    resume_from_hint: Type.String(),
  }),
]);
export type TaskOutput = Static<typeof TaskOutput>;
