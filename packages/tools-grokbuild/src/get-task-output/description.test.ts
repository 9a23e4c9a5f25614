/**
 * The three task-lifecycle descriptions (get_task_output here, kill_task and wait_tasks beside it) are built in
 * code from the live toolset (shared/task-output/description.ts). This test renders the variants the goldens do
 * not reach (subagents, a monitor) and the listing before finalize, and pins all three together.
 */
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry, describeTool, type ToolConfigInput } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool } from "@grok-tools/runtime";
import { grokBuild } from "../namespace.js";

const monitor = defineTool({
  id: "monitor",
  kind: "monitor",
  description: "Watches something.",
  input: Type.Object({ what: Type.String() }),
  output: Type.Object({ type: Type.Literal("Text") }),
  execute: async () => ({ output: { type: "Text" as const }, promptText: "" }),
});

async function descriptions(tools: ToolConfigInput[], flags: Record<string, unknown> = { is_windows: false }): Promise<Record<string, string>> {
  // Registered after GrokBuild, the stand-in namespace's flags win: is_windows is the test's, not the host's.
  const other = defineNamespace({ name: "Other", apiVersion: 1, tools: [monitor], flags });
  const session = new Session({ registry: ToolRegistry.of([grokBuild, other]), workspace: os.tmpdir(), stateDir: path.join(os.tmpdir(), "task-desc-state") });
  const outcome = await session.finalize({ tools });
  await session.close();
  if (!outcome.ok) throw new Error(outcome.message);
  return Object.fromEntries(outcome.tools.map((t) => [t.clientName, t.description]));
}

const TASK_TOOLS: ToolConfigInput[] = [{ id: "GrokBuild:get_task_output" }, { id: "GrokBuild:kill_task" }, { id: "GrokBuild:wait_tasks" }];

test("bash and subagents: both sources (the template's `${%-` takes the space after `from`, as the builder's did)", async () => {
  const d = await descriptions([{ id: "GrokBuild:run_terminal_cmd" }, { id: "GrokBuild:task" }, ...TASK_TOOLS]);
  expect(d.get_task_output).toBe(
    "Get output and status from a background task or subagent.\n\nUsage notes:\n- Pass task_ids with one or more ids fromis_background=true commands or run_in_background=true subagents; for a single task use a one-element array. Multiple ids with a positive timeout_ms wait until all complete\n- Omit timeout_ms or pass 0 for a non-blocking status snapshot; set a positive timeout_ms to wait up to that many milliseconds, capped at 600000 (~10 min)\n- Returns current output, status, and exit code if completed",
  );
  expect(d.kill_task).toBe(
    "Terminate a running background task or subagent.\n\nUsage notes:\n- Pass its task_id.\n- Sends SIGTERM/SIGKILL to a bash task; sends Cancel+Shutdown to a subagent.\n- Returns success if the task was killed or had already exited.",
  );
  expect(d.wait_tasks).toBe(
    "Wait for multiple background tasks or subagents to complete.\n\nPrefer get_task_output with task_ids and a positive timeout_ms. This tool is kept for compatibility.\n\nUsage notes:\n- task_ids: list of task IDs fromis_background=true commands or run_in_background=true subagents\n- mode: 'wait_all' or 'wait_any'\n- timeout_ms: optional max wait, default 30s, capped at 600000 (~10 min)",
  );
});

test("subagents only, with renamed tools and parameters", async () => {
  const d = await descriptions([
    { id: "GrokBuild:task", paramsNameOverrides: { run_in_background: "rib" } },
    { id: "GrokBuild:read_file", nameOverride: "reader" },
    { id: "GrokBuild:get_task_output", nameOverride: "output_of", paramsNameOverrides: { task_ids: "ids", timeout_ms: "wait" } },
    { id: "GrokBuild:kill_task", paramsNameOverrides: { task_id: "tid" } },
    { id: "GrokBuild:wait_tasks" },
  ]);
  expect(d.output_of).toBe(
    "Get output and status from a background task or subagent.\n\nUsage notes:\n- Pass ids with one or more ids from rib=true subagents; for a single task use a one-element array. Multiple ids with a positive wait wait until all complete\n- Omit wait or pass 0 for a non-blocking status snapshot; set a positive wait to wait up to that many milliseconds, capped at 600000 (~10 min)\n- Returns current output, status, and exit code if completed\n- If output is large, use reader on the output_file path",
  );
  expect(d.kill_task).toBe(
    "Terminate a running background task or subagent.\n\nUsage notes:\n- Pass its tid.\n- Sends Cancel+Shutdown to a subagent.\n- Returns success if the task was killed or had already exited.",
  );
  expect(d.wait_tasks).toBe(
    "Wait for multiple background tasks or subagents to complete.\n\nPrefer output_of with task_ids and a positive timeout_ms. This tool is kept for compatibility.\n\nUsage notes:\n- task_ids: list of task IDs from rib=true subagents\n- mode: 'wait_all' or 'wait_any'\n- timeout_ms: optional max wait, default 30s, capped at 600000 (~10 min)",
  );
});

test("a monitor, one background parameter name for both sources", async () => {
  const tools: ToolConfigInput[] = [
    { id: "GrokBuild:run_terminal_cmd", paramsNameOverrides: { is_background: "bg" } },
    { id: "GrokBuild:task", paramsNameOverrides: { run_in_background: "bg" } },
    { id: "Other:monitor" },
    ...TASK_TOOLS,
  ];
  const d = await descriptions(tools);
  expect(d.get_task_output).toBe(
    "Get output and status from a background task, monitor, or subagent.\n\nUsage notes:\n- Pass task_ids with one or more ids frombg=true commands or subagents (a monitor's task_id is returned by monitor); for a single task use a one-element array. Multiple ids with a positive timeout_ms wait until all complete\n- Omit timeout_ms or pass 0 for a non-blocking status snapshot; set a positive timeout_ms to wait up to that many milliseconds, capped at 600000 (~10 min)\n- Returns current output, status, and exit code if completed",
  );
  expect(d.kill_task).toBe(
    "Terminate a running background task, monitor, or subagent.\n\nUsage notes:\n- Pass its task_id (a monitor's task_id is returned by monitor).\n- Sends SIGTERM/SIGKILL to a bash task or monitor; sends Cancel+Shutdown to a subagent.\n- Returns success if the task was killed or had already exited.",
  );
  expect(d.wait_tasks).toBe(
    "Wait for multiple background tasks or subagents to complete.\n\nPrefer get_task_output with task_ids and a positive timeout_ms. This tool is kept for compatibility.\n\nUsage notes:\n- task_ids: list of task IDs frombg=true commands or subagents\n- mode: 'wait_all' or 'wait_any'\n- timeout_ms: optional max wait, default 30s, capped at 600000 (~10 min)",
  );
});

test("before finalize, each lists the text of the empty toolset (no clause of another tool)", async () => {
  const session = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: os.tmpdir(), stateDir: path.join(os.tmpdir(), "task-desc-state") });
  try {
    const listed = (id: string) => describeTool(session, id)?.description;
    expect(listed("GrokBuild:kill_task")).toBe(
      "Terminate a running background task.\n\nUsage notes:\n- Pass its .\n- .\n- Returns success if the task was killed or had already exited.",
    );
    for (const id of ["GrokBuild:get_task_output", "GrokBuild:wait_tasks"]) {
      expect(listed(id)).toContain("background tasks");
      expect(listed(id)).not.toMatch(/monitor|subagents? or|\$\{/);
    }
  } finally {
    await session.close();
  }
});
