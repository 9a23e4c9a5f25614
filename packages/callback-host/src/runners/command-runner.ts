/**
 * The command runner: runs a configured program per child, so that any agent CLI can be the
 * child. The program gets the request as one JSON object on stdin (prompt, system prompt, tool
 * names, cwd, and for a resumed child the earlier turns) and prints one JSON result on stdout.
 * Cancellation sends SIGTERM to the program's process group, then SIGKILL.
 */
import { spawn } from "node:child_process";
import type { DeepPartial, SpawnSubagentRequest, SubagentResultMsg } from "@grok-tools/proto";
import type { SpawnSubagentHandler } from "../callback-host.js";

/** Time between SIGTERM and SIGKILL when a child is cancelled. */
export const COMMAND_KILL_GRACE_MS = 2_000;
/** Most stdout kept from a child program (its JSON result). */
export const MAX_COMMAND_OUTPUT_BYTES = 16 * 1024 * 1024;

/** One turn of a child's conversation, replayed when it is resumed. */
export interface TranscriptTurn {
  role: "user" | "assistant";
  content: string;
}

/** What the program reads on stdin. */
export interface CommandRunnerInput {
  id: string;
  /**
   * The session the child uses when it connects back to the tools server that spawned it (send it
   * as `x-grok-session-id`, e.g. `createToolsClient({ sessionId })`): the child id. The server knows
   * that session as this child, one level deeper than its parent, so the depth limit holds.
   */
  session_id: string;
  prompt: string;
  description: string;
  subagent_type: string;
  parent_session_id: string;
  system_prompt: string;
  tool_names: string[];
  cwd: string | null;
  resume_from: string | null;
  initial_user_message: string | null;
  /** Earlier non-system turns of the resumed child (empty for a fresh one). */
  transcript: TranscriptTurn[];
}

/** What the program prints on stdout (every field optional but `output`). */
export interface CommandRunnerOutput {
  success?: boolean;
  output: string;
  error?: string;
  tool_calls?: number;
  turns?: number;
  tokens_used?: number;
}

/** Options of {@link commandRunner}. */
export interface CommandRunnerOptions {
  /** The program, run by `/bin/sh -c` (so arguments and pipes work). */
  command: string;
  /** Extra environment of the program (on top of the host's). */
  env?: Record<string, string>;
}

/** Creates a runner that executes `command` once per child. */
export function commandRunner(options: CommandRunnerOptions): SpawnSubagentHandler {
  // Transcripts of completed children by id, so that resume_from can replay them.
  const transcripts = new Map<string, TranscriptTurn[]>();
  return async (request, { signal }) => {
    const earlier = request.resumeFrom ? (transcripts.get(request.resumeFrom) ?? []) : [];
    const input: CommandRunnerInput = {
      id: request.id,
      session_id: request.id,
      prompt: request.prompt,
      description: request.description,
      subagent_type: request.subagentType,
      parent_session_id: request.parentSessionId,
      system_prompt: request.systemPrompt ?? "",
      tool_names: request.toolNames,
      cwd: request.cwd ?? null,
      resume_from: request.resumeFrom ?? null,
      initial_user_message: request.initialUserMessage ?? null,
      transcript: earlier,
    };
    const started = Date.now();
    const { code, stdout, stderr, cancelled } = await runProgram(options, input, request, signal);
    const durationMs = Date.now() - started;
    if (cancelled) return { success: false, cancelled: true, error: "Subagent was cancelled", durationMs };
    let parsed: CommandRunnerOutput | undefined;
    try {
      parsed = JSON.parse(stdout.trim()) as CommandRunnerOutput;
    } catch {
      parsed = undefined;
    }
    if (code !== 0 || !parsed || typeof parsed.output !== "string") {
      const why = code !== 0 ? `exited with code ${code}` : "did not print a JSON result with an output string";
      const tail = stderr.trim().split("\n").slice(-5).join("\n");
      return { success: false, error: `the child program ${why}${tail ? `: ${tail}` : ""}`, durationMs };
    }
    const result: DeepPartial<SubagentResultMsg> = {
      success: parsed.success ?? true,
      output: parsed.output,
      ...(parsed.error !== undefined ? { error: parsed.error } : {}),
      toolCalls: parsed.tool_calls ?? 0,
      turns: parsed.turns ?? 0,
      tokensUsed: parsed.tokens_used ?? 0,
      durationMs,
    };
    if (result.success) transcripts.set(request.id, [...earlier, { role: "user", content: request.prompt }, { role: "assistant", content: parsed.output }]);
    return result;
  };
}

function runProgram(
  options: CommandRunnerOptions,
  input: CommandRunnerInput,
  request: SpawnSubagentRequest,
  signal: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string; cancelled: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", options.command], {
      cwd: request.cwd || process.cwd(),
      env: { ...process.env, ...options.env, GROK_SUBAGENT_ID: request.id },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_COMMAND_OUTPUT_BYTES) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-64 * 1024);
    });
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => {
      cancelled = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), COMMAND_KILL_GRACE_MS);
      killTimer.unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(new Error(`cannot start the child program: ${error.message}`));
    });
    child.on("close", (code) => {
      signal.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      resolve({ code, stdout, stderr, cancelled });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(input));
  });
}
