/**
 * Rendered descriptions of the task tools against the reference's expected texts, with
 * production-style renames (the names come from the live toolset).
 */
import { startHarness } from "./helpers.js";

it("renders get_task_output, wait_tasks and kill_task descriptions from the live toolset", async () => {
  const h = await startHarness([
    { id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsNameOverrides: { is_background: "background" } },
    { id: "GrokBuild:read_file" },
    { id: "GrokBuild:kill_task", nameOverride: "kill_command_or_subagent" },
    { id: "GrokBuild:get_task_output", nameOverride: "get_command_or_subagent_output" },
    { id: "GrokBuild:wait_tasks", nameOverride: "wait_commands_or_subagents" },
  ]);
  try {
    const d = (name: string) => h.session.toolset!.byClientName(name)!.description;
    expect(d("get_command_or_subagent_output")).toBe(
      "Get output and status from a background task.\n\nUsage notes:\n- Pass task_ids with one or more ids from background=true commands; for a single task use a one-element array. Multiple ids with a positive timeout_ms wait until all complete\n- Omit timeout_ms or pass 0 for a non-blocking status snapshot; set a positive timeout_ms to wait up to that many milliseconds, capped at 600000 (~10 min)\n- Returns current output, status, and exit code if completed\n- If output is large, use read_file on the output_file path",
    );
    expect(d("wait_commands_or_subagents")).toBe(
      "Wait for multiple background tasks or subagents to complete.\n\nPrefer get_command_or_subagent_output with task_ids and a positive timeout_ms. This tool is kept for compatibility.\n\nUsage notes:\n- task_ids: list of task IDs from background=true commands\n- mode: 'wait_all' or 'wait_any'\n- timeout_ms: optional max wait, default 30s, capped at 600000 (~10 min)",
    );
    expect(d("kill_command_or_subagent")).toBe(
      "Terminate a running background task.\n\nUsage notes:\n- Pass its task_id.\n- Sends SIGTERM/SIGKILL to a bash task.\n- Returns success if the task was killed or had already exited.",
    );
    const bash = d("run_terminal_command");
    expect(bash).toContain(
      "  - You can specify an optional timeout in milliseconds (up to 300000ms). If not specified, foreground commands will timeout after 120000ms.",
    );
    expect(bash).toContain(
      "`timeout: 0` in `background: true` mode disables the wrapper timeout entirely; the child's lifetime is owned by the model via kill_command_or_subagent.",
    );
    expect(bash).toContain("  - If the output exceeds 40000 characters, the middle is truncated");
    expect(bash).toContain(
      "You can use the background parameter to run the command in the background (e.g., dev servers, long builds): it returns a task id immediately and keeps running in the background. Check on it later with the get_command_or_subagent_output tool. You do not need to use '&' at the end of the command when using this parameter.",
    );
    const schema = h.session.toolset!.byClientName("run_terminal_command")!.inputSchema as { properties: Record<string, { description: string }> };
    expect(Object.keys(schema.properties)).toEqual(["command", "timeout", "description", "background"]);
    expect(schema.properties.background!.description).toBe(
      "Set to true for long-running commands that should run in the background (e.g., dev servers, long builds). Returns a task id immediately while the command keeps running in the background; check on it later with the get_command_or_subagent_output tool.",
    );
    const started = await h.call("run_terminal_command", { command: "true", description: "d", background: true });
    expect(started.ok && started.promptText).toMatch(/\nUse get_command_or_subagent_output tool with task_ids=\["[0-9a-f-]{36}"\] to retrieve the output\.$/);
  } finally {
    await h.close();
  }
});

it("renders the terminal-only twins", async () => {
  const h = await startHarness([
    { id: "GrokBuild:run_terminal_cmd" },
    { id: "GrokBuild:kill_terminal_command" },
    { id: "GrokBuild:get_terminal_command_output" },
  ]);
  try {
    const d = (name: string) => h.session.toolset!.byClientName(name)!.description;
    expect(d("get_terminal_command_output")).toBe(
      "Get output and status from a background terminal command.\n\nUsage notes:\n- Pass task_ids with one or more ids from is_background=true commands; for a single task use a one-element array. Multiple ids with a positive timeout_ms wait until all complete\n- Omit timeout_ms or pass 0 for a non-blocking status snapshot; set a positive timeout_ms to wait up to that many milliseconds, capped at 600000 (~10 min)\n- Returns current output, status, and exit code if completed",
    );
    expect(d("kill_terminal_command")).toBe(
      "Terminate a running background terminal command.\n\nUsage notes:\n- Pass its task_id.\n- Sends SIGTERM/SIGKILL to a background command.\n- Returns success if the command was killed or had already exited.",
    );
  } finally {
    await h.close();
  }
});
