/**
 * The subagent host: how a tool asks the session's host to run one child agent to completion
 * (spec §7.4). The server plugs in its dialed GrokToolsCallbackService client; tool code only
 * sees this interface, so it never depends on the server or on gRPC.
 */
import { defineService } from "./service.js";

/** One resolved child run, as the host receives it (`SpawnSubagentRequest` without the proto). */
export interface SubagentSpawnRequest {
  /** The child id (= subagent_id). */
  id: string;
  prompt: string;
  description: string;
  subagentType: string;
  parentSessionId: string;
  parentPromptId?: string;
  resumeFrom?: string;
  cwd?: string;
  /** Complete rendered system prompt of the child. */
  systemPrompt: string;
  /** Client-facing names of the tools the child may use. */
  toolNames: string[];
  initialUserMessage?: string;
}

/** How a child run ended (`SubagentResultMsg` without the deprecated fields). */
export interface SubagentRunResult {
  success: boolean;
  output: string;
  error?: string;
  cancelled: boolean;
  toolCalls: number;
  turns: number;
  durationMs: number;
  tokensUsed: number;
  outputTokensUsed?: number;
  totalTokensUsed?: number;
}

/** A host able to run children; `spawn` lasts the whole child run and `signal` cancels it. */
export interface SubagentHost {
  spawn(request: SubagentSpawnRequest, signal: AbortSignal): Promise<SubagentRunResult>;
}

/** The session's connection to a subagent host, plus where the session sits in the subagent tree. */
export class SubagentHostSlot {
  #host: SubagentHost | undefined;
  /** The session id children report as `parent_session_id` (the callback's session id). */
  parentSessionId: string | undefined;
  /** 0 for a top-level session, 1 for a child's own session, and so on. */
  depth = 0;

  /** The connected host, or undefined when subagent support is not initialized. */
  get host(): SubagentHost | undefined {
    return this.#host;
  }

  /** Connects (or, with undefined, disconnects) the host. */
  connect(host: SubagentHost | undefined, parentSessionId?: string): void {
    this.#host = host;
    if (parentSessionId !== undefined) this.parentSessionId = parentSessionId;
  }
}

/** The session service holding the subagent host (connected by the server at finalize). */
export const subagentHostService = defineService<SubagentHostSlot>({
  name: "runtime.SubagentHost",
  create: () => new SubagentHostSlot(),
});
