/**
 * Test helpers for the shell tools: a finalized session over a temp workspace, a call
 * wrapper, and a process census that finds processes carrying a test marker.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool, type ToolNotification } from "@grok-tools/runtime";
import { runTerminalCmd, runTerminalCmdConcise } from "../../src/run-terminal-cmd/index.js";
import { getTaskOutput } from "../../src/get-task-output/index.js";
import { getTerminalCommandOutput } from "../../src/get-terminal-command-output/index.js";
import { waitTasks } from "../../src/wait-tasks/index.js";
import { killTask } from "../../src/kill-task/index.js";
import { killTerminalCommand } from "../../src/kill-terminal-command/index.js";
import { grokBuildBehaviour, grokBuildConciseBehaviour } from "../../src/namespace.js";

/** A stand-in read-kind tool, so descriptions that name the read tool can be checked. */
const fakeRead = defineTool({
  id: "read_file",
  kind: "read",
  description: "Reads a file.",
  input: Type.Object({ target_file: Type.String() }),
  output: Type.Object({ type: Type.Literal("Text") }),
  execute: async () => ({ output: { type: "Text" as const }, promptText: "" }),
});

// Only this tools (plus the stand-in), so these tests do not depend on the rest of the namespace.
const grokBuild = defineNamespace({
  name: "GrokBuild",
  apiVersion: 1,
  tools: [runTerminalCmd, fakeRead, killTask, killTerminalCommand, getTaskOutput, getTerminalCommandOutput, waitTasks],
  ...grokBuildBehaviour,
});
const grokBuildConcise = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: [runTerminalCmdConcise], ...grokBuildConciseBehaviour });

/** A session with the shell tools, its temp folders and collected notifications. */
export interface ShellHarness {
  session: Session;
  workspace: string;
  notifications: ToolNotification[];
  call(
    tool: string,
    input: Record<string, unknown>,
    options?: {
      callId?: string;
      signal?: AbortSignal;
      timeoutMs?: number;
      outputFormat?: "default" | "concise";
      workingDirectory?: string;
      background?: boolean;
    },
  ): ReturnType<Session["execute"]>;
  close(): Promise<void>;
}

/** The standard toolset: GrokBuild bash plus every task tool. */
export const STANDARD_TOOLS = [
  { id: "GrokBuild:run_terminal_cmd" },
  { id: "GrokBuild:kill_task" },
  { id: "GrokBuild:kill_terminal_command" },
  { id: "GrokBuild:get_task_output" },
  { id: "GrokBuild:get_terminal_command_output" },
  { id: "GrokBuild:wait_tasks" },
];

/** Starts a finalized session (throws when finalize fails). */
export async function startHarness(
  tools: Array<Record<string, unknown>> = STANDARD_TOOLS,
  extra: { behaviorPreset?: string; truncation?: Record<string, unknown> } = {},
): Promise<ShellHarness> {
  const workspace = await mkdtemp(path.join(os.tmpdir(), "gt-shell-ws-"));
  const stateDir = await mkdtemp(path.join(os.tmpdir(), "gt-shell-state-"));
  const notifications: ToolNotification[] = [];
  const session = new Session({
    registry: ToolRegistry.of([grokBuild, grokBuildConcise]),
    workspace,
    stateDir,
    onNotification: (_id, n) => notifications.push(n),
  });
  const outcome = await session.finalize({ tools: tools as never, ...(extra as object) });
  if (!outcome.ok) throw new Error(`finalize failed: ${outcome.message}`);
  let n = 0;
  return {
    session,
    workspace,
    notifications,
    call: (tool, input, options = {}) =>
      session.execute({ toolName: tool, inputJson: JSON.stringify(input), callId: options.callId ?? `call-${++n}`, ...options }),
    close: async () => {
      await session.close();
      await rm(workspace, { recursive: true, force: true });
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 20 ms until it holds or `ms` pass (busy machines start and reap processes late); says whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/** Pids of live processes whose command line or environment contains `needle`. */
export async function processesWith(needle: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8");
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      if (/\) Z /.test(stat)) continue;
      if (cmdline.includes(needle)) found.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}
