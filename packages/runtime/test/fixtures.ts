/**
 * Small test-only tools and namespaces for the runtime contract tests. Namespaces reuse the
 * reference's names (GrokBuild, GrokBuildHashline, GrokBuildConcise) and declare presets, a
 * bundle rule and the reminder switch the way the real GrokBuild namespaces do, so that the
 * runtime's folding of namespace declarations is tested here and the real declarations in tools-grokbuild.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  Type,
  ToolError,
  ErrorCode,
  defineNamespace,
  defineReminder,
  defineResource,
  defineTool,
  defineToolsetRule,
  type AnyToolDefinition,
  type RequirementFailure,
} from "../src/index.js";
import { ToolRegistry, Session, type SessionOptions } from "../src/host.js";
import { isPlainObject } from "../src/helpers.js";

const TextOutput = Type.Object({ type: Type.Literal("Text"), text: Type.String() });

/** Counter state of the `counter` tool (state / `test.Counter`). */
export const counterResource = defineResource<{ count: number }>({
  id: "test.Counter",
  category: "state",
  initial: () => ({ count: 0 }),
  decode: (json) => (isPlainObject(json) && typeof json.count === "number" ? { count: json.count } : undefined),
});

export interface ExecParams {
  enabled_background: boolean;
  auto_background_on_timeout: boolean;
  timeout_secs: number | null;
}

const ExecInput = Type.Object({
  command: Type.String({ description: "The command to run." }),
  is_background: Type.Optional(Type.Boolean({ description: "Run in the background; poll with ${{ tools.by_kind.background_task_action }}." })),
});

/** A bash-like tool: lenient params, a constraint, requirements, a bg-dependent schema. */
export const execTool = defineTool({
  id: "run_terminal_cmd",
  kind: "execute",
  contractVersions: ["current", "legacy-0.4.10"],
  description: "Run a command. Read files with ${{ tools.by_kind.read }}. Output is capped at {max_output_bytes} bytes.",
  input: ExecInput,
  inputSchemaFor: ({ params }) =>
    (params as ExecParams).enabled_background ? ExecInput : Type.Object({ command: Type.String({ description: "The command to run." }) }),
  output: TextOutput,
  params: {
    resourceId: "grok_build.Bash",
    schema: Type.Object({
      enabled_background: Type.Boolean(),
      auto_background_on_timeout: Type.Boolean(),
      timeout_secs: Type.Union([Type.Number(), Type.Null()]),
    }),
    defaults: { enabled_background: true, auto_background_on_timeout: false, timeout_secs: null } as ExecParams,
    ignoreUnknownFields: true,
    check: (p: ExecParams): RequirementFailure[] =>
      p.auto_background_on_timeout && !p.enabled_background
        ? [
            {
              message: "auto_background_on_timeout requires enabled_background to be true",
              fieldPath: "params.auto_background_on_timeout",
              expected: "false (when enabled_background is false)",
              badValue: true,
            },
          ]
        : [],
  },
  requires: ({ params, toolset }) => {
    if (!(params as ExecParams).enabled_background) return [];
    const missing = [
      toolset.hasKind("background_task_action") ? undefined : "GrokBuild:get_task_output",
      toolset.hasKind("kill_task_action") ? undefined : "GrokBuild:kill_task",
    ].filter((m): m is string => m !== undefined);
    if (missing.length === 0) return [];
    return [
      {
        message: `enabled_background=true requires ${missing.join(" and ")} so background bash tasks can be observed and cancelled`,
        fieldPath: "params.enabled_background",
        expected: "set enabled_background=false or include get_task_output and kill_task",
        badValue: true,
      },
    ];
  },
  async execute(input, ctx) {
    const params = ctx.params as ExecParams;
    const bg = ctx.names.param("execute", "is_background");
    if (input.command.endsWith("&")) {
      throw ToolError.invalidInput(`Remove the background '&' from your command and set ${bg}=true instead.`);
    }
    return {
      output: { type: "Text" as const, text: input.command },
      promptText: `ran ${input.command} (bg=${String(input.is_background ?? false)}, timeout=${String(params.timeout_secs)}, version=${ctx.contractVersion})`,
    };
  },
});

/** A read tool with an optional integer and a nested object. */
export const readTool = defineTool({
  id: "read_file",
  kind: "read",
  contractVersions: ["current", "legacy-0.4.10"],
  description: "Read a file. Reads up to {max_lines_read} lines.${%- if tools.by_kind.edit %} Edit with ${{ tools.by_kind.edit }}.${%- endif %}",
  input: Type.Object({
    target_file: Type.String({ description: "The file to read." }),
    offset: Type.Optional(Type.Integer({ description: "Line to start at." })),
    options: Type.Optional(Type.Object({ encoding: Type.String({ description: "Encoding; see ${{ tools.by_kind.read }}." }) })),
  }),
  output: Type.Object({ type: Type.Literal("ReadFile"), content: Type.String(), raw: Type.Optional(Type.String()) }),
  outputFields: { raw: { description: "Raw bytes as text", potentiallyLarge: true } },
  async execute(input, ctx) {
    return {
      output: { type: "ReadFile" as const, content: `content of ${input.target_file}`, raw: "RAW" },
      promptText: `read ${input.target_file} offset=${String(input.offset ?? 1)} (${ctx.names.ownParam("offset")})`,
      promptTextConcise: `read ${input.target_file}`,
      truncated: input.target_file === "big",
    };
  },
});

/** A background-output tool with `{max_wait_ms}` in a property and a template naming bash's param. */
export const bgOutputTool = defineTool({
  id: "get_task_output",
  kind: "background_task_action",
  readOnly: true,
  contractVersions: ["current", "legacy-0.4.10"],
  descriptionRenderFallback: "raw",
  description: "Get the output of a task started with ${{ tools.by_kind.execute }} and ${{ params.execute.is_background }}=true.",
  input: Type.Object({
    task_ids: Type.Array(Type.String(), { description: "Task ids." }),
    timeout_ms: Type.Optional(Type.Integer({ description: "Wait up to {max_wait_ms}." })),
  }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.task_ids.join(",") }, promptText: `tasks ${input.task_ids.join(",")}` };
  },
});

/** A kill tool whose override fallback is the raw text. */
export const killTool = defineTool({
  id: "kill_task",
  kind: "kill_task_action",
  contractVersions: ["current", "legacy-0.4.10"],
  descriptionRenderFallback: "raw",
  description: "Kill a task.",
  input: Type.Object({ task_id: Type.String() }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.task_id }, promptText: `killed ${input.task_id}` };
  },
});

export interface EditParams {
  skip_read_before_edit: boolean;
  mode: "fast" | "safe";
  limit: number | null;
}

/** An edit tool with strict params (unknown fields rejected), an enum and a requirement. */
export const editTool = defineTool({
  id: "search_replace",
  kind: "edit",
  contractVersions: ["current", "legacy-0.4.10"],
  description: "Edit a file. Use ${{ params.edit.replace_all }} to replace all.",
  input: Type.Object({
    file_path: Type.String({ description: "The file." }),
    old_string: Type.String(),
    new_string: Type.String(),
    replace_all: Type.Optional(Type.Boolean({ description: "Replace every match of ${{ params.edit.old_string }}." })),
  }),
  output: TextOutput,
  params: {
    resourceId: "grok_build.SearchReplace",
    schema: Type.Object(
      {
        skip_read_before_edit: Type.Boolean(),
        mode: Type.Union([Type.Literal("fast"), Type.Literal("safe")]),
        limit: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    defaults: { skip_read_before_edit: false, mode: "fast", limit: null } as EditParams,
  },
  requires: ({ params, toolset }) =>
    (params as EditParams).skip_read_before_edit || toolset.hasKind("read")
      ? []
      : [
          {
            message: "skip_read_before_edit=false requires a Read tool in the toolset so files can be read before editing",
            fieldPath: "params.skip_read_before_edit",
            expected: "set skip_read_before_edit=true or include a Read tool such as GrokBuild:read_file",
            badValue: false,
          },
        ],
  async execute(input, ctx) {
    if (input.old_string === "missing") {
      throw new ToolError(
        ErrorCode.NO_MATCHES,
        `The string to replace was not found in the file, use the ${ctx.names.tool("read") ?? ""} tool to see the correct string.`,
      );
    }
    return {
      output: { type: "Text" as const, text: `${input.file_path}` },
      promptText: `edited ${input.file_path} replace_all=${String(input.replace_all ?? false)}`,
    };
  },
});

/** A grep tool (managed, current only). */
export const grepTool = defineTool({
  id: "grep",
  kind: "search",
  contractVersions: ["current"],
  description: "Search.",
  input: Type.Object({ pattern: Type.String() }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.pattern }, promptText: `grep ${input.pattern}` };
  },
});

/** A todo tool (plan kind) that declares its state. */
export const todoTool = defineTool({
  id: "todo_write",
  kind: "plan",
  description: "Write todos.",
  input: Type.Object({ todos: Type.Array(Type.String()) }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.todos.join(",") }, promptText: `todos: ${input.todos.length}` };
  },
});

/** A tool with state: counts its calls in `test.Counter`. Also returns a bad output on demand. */
export const counterTool = defineTool({
  id: "counter",
  kind: "other",
  description: "Count.",
  input: Type.Object({ bad: Type.Optional(Type.Boolean()), delay_ms: Type.Optional(Type.Integer()) }),
  output: TextOutput,
  resources: [counterResource],
  async execute(input, ctx) {
    if (input.delay_ms) await new Promise((resolve) => setTimeout(resolve, input.delay_ms));
    const next = ctx.session.resources.update(counterResource, (c) => ({ count: c.count + 1 }));
    if (input.bad) return { output: { type: "Text" as const, text: 42 } as never, promptText: "bad" };
    return { output: { type: "Text" as const, text: String(next.count) }, promptText: `count ${next.count}` };
  },
});

/** Plan-mode pair: each requires the other. */
export const enterPlanTool = defineTool({
  id: "enter_plan_mode",
  kind: "enter_plan",
  description: "Enter plan mode.",
  input: Type.Object({}),
  output: TextOutput,
  requires: ({ toolset }) =>
    toolset.hasTool("GrokBuild:exit_plan_mode")
      ? []
      : [
          {
            message: "enter_plan_mode requires GrokBuild:exit_plan_mode so plan mode can always be exited",
            fieldPath: "tools",
            expected: "include GrokBuild:exit_plan_mode",
          },
        ],
  async execute() {
    return { output: { type: "Text" as const, text: "" }, promptText: "" };
  },
});

export const exitPlanTool = defineTool({
  id: "exit_plan_mode",
  kind: "exit_plan",
  description: "Exit plan mode.",
  input: Type.Object({}),
  output: TextOutput,
  requires: ({ toolset }) =>
    toolset.hasTool("GrokBuild:enter_plan_mode")
      ? []
      : [
          {
            message: "exit_plan_mode requires GrokBuild:enter_plan_mode so plan mode can be entered before exiting",
            fieldPath: "tools",
            expected: "include GrokBuild:enter_plan_mode",
          },
        ],
  async execute() {
    return { output: { type: "Text" as const, text: "" }, promptText: "" };
  },
});

const LEGACY = "legacy-0.4.10";
const legacyTools = ["run_terminal_cmd", "read_file", "search_replace", "get_task_output", "kill_task", "list_dir"];
const managedTools = ["run_terminal_cmd", "read_file", "search_replace", "list_dir", "grep", "kill_task", "get_task_output"];

/** The standard and hashline bundles never mix. */
export const bundleRule = defineToolsetRule({
  id: "file_toolset_conflict",
  check: ({ toolIds }) =>
    toolIds.some((id) => ["GrokBuild:read_file", "GrokBuild:search_replace", "GrokBuild:grep"].includes(id)) &&
    toolIds.some((id) => id.startsWith("GrokBuildHashline:"))
      ? [
          {
            toolId: "(file-toolset)",
            message:
              "mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.",
          },
        ]
      : [],
});

/** State of a namespace reminder that never speaks (`state` / `test.Notes`): registered at finalize like any reminder's. */
export const notesResource = defineResource<{ seen: number }>({
  id: "test.Notes",
  category: "state",
  initial: () => ({ seen: 0 }),
  decode: (json) => (isPlainObject(json) && typeof json.seen === "number" ? { seen: json.seen } : undefined),
});
const notesReminder = defineReminder({ id: "notes", resources: [notesResource], isActive: () => false, collect: () => [] });

export const grokBuild = defineNamespace({
  name: "GrokBuild",
  apiVersion: 1,
  tools: [execTool, readTool, editTool, grepTool, killTool, todoTool, bgOutputTool, counterTool, enterPlanTool, exitPlanTool],
  presets: {
    [LEGACY]: { tools: Object.fromEntries(legacyTools.map((id) => [id, LEGACY])) },
    "release-0.1.157": { tools: Object.fromEntries(managedTools.map((id) => [id, "current"])) },
  },
  toolsetRules: [bundleRule],
  reminders: [notesReminder],
});

const hashlineRead = defineTool({
  id: "hashline_read",
  kind: "read",
  description: "Hashline read.",
  input: Type.Object({ path: Type.String() }),
  output: TextOutput,
  async execute(input) {
    return { output: { type: "Text" as const, text: input.path }, promptText: input.path };
  },
});

export const hashline = defineNamespace({ name: "GrokBuildHashline", apiVersion: 1, tools: [hashlineRead] });

const conciseRead = defineTool({ ...readTool, id: "read_file" });
export const concise = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: [conciseRead as AnyToolDefinition], disablesSystemReminders: true });

/** The usual bash bundle (bash + output + kill). */
export const BASH_BUNDLE = [{ id: "GrokBuild:run_terminal_cmd" }, { id: "GrokBuild:get_task_output" }, { id: "GrokBuild:kill_task" }];

/** A temp workspace and state dir, removed by `cleanup`. */
export async function tempDirs(): Promise<{ workspace: string; stateDir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "grok-runtime-test-"));
  return {
    workspace: root,
    stateDir: path.join(root, ".state"),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A session over the test namespaces. */
export function makeSession(dirs: { workspace: string; stateDir: string }, extra: Partial<SessionOptions> = {}): Session {
  return new Session({
    registry: ToolRegistry.of([grokBuild, hashline, concise]),
    workspace: dirs.workspace,
    stateDir: dirs.stateDir,
    validateOutputs: true,
    ...extra,
  });
}
