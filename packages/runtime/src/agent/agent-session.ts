/**
 * The deprecated agent RPCs of one session (spec §10): the agent definition behind
 * GetSystemPrompt / GetAgentInfo, FinalizeAgent, and the completion state its required tool sets.
 */
import type { Logger } from "../core/logger.js";
import type { FinalizeOutcome } from "../finalize/finalize-types.js";
import { renderTemplate } from "../finalize/template-renderer.js";
import type { ToolsetConfiguration } from "../toolset-config/toolset-configuration.js";
import type { AgentDefinition } from "./agent-definition.js";

/** GetAgentInfo, in runtime terms. */
export interface AgentInfo {
  name: string;
  description: string;
  tools: string[];
  disallowedTools: string[];
  permissionMode: string;
  outputFormat: string;
  completionRequirement?: { tool: string; reminder: string };
  toolConfig: AgentDefinition["toolConfig"];
}

/** GetCompletionState. */
export interface CompletionState {
  hasRequirement: boolean;
  requiredTool: string;
  completed: boolean;
}

export class AgentSession {
  readonly #configuration: ToolsetConfiguration;
  readonly #log: Logger;
  #definition: AgentDefinition | undefined;
  #finalized = false;
  #completed = false;

  constructor(configuration: ToolsetConfiguration, log: Logger) {
    this.#configuration = configuration;
    this.#log = log;
  }

  /** The installed agent definition, if any. */
  get definition(): AgentDefinition | undefined {
    return this.#definition;
  }

  /** Whether FinalizeAgent ran. */
  get finalized(): boolean {
    return this.#finalized;
  }

  /**
   * Installs an agent definition (before finalize): its tools, minus disallowed ones, become the
   * pending config. Unknown names are reported and skipped.
   */
  set(agent: AgentDefinition): { unknownTools: string[] } {
    const configuration = this.#configuration;
    configuration.assertNotFinalized("setAgent");
    this.#definition = agent;
    this.#completed = false;
    const pending = configuration.pending;
    const disallowed = new Set(agent.disallowedTools.map((name) => pending.resolve(name)?.fqId ?? name));
    const unknownTools: string[] = [];
    for (const name of agent.tools) {
      const registered = pending.resolve(name);
      if (!registered) unknownTools.push(name);
      else if (!disallowed.has(registered.fqId)) pending.enable(registered.fqId);
    }
    if (unknownTools.length > 0) this.#log.warn({ unknownTools }, "agent definition names tools that are not registered");
    return { unknownTools };
  }

  /** GetSystemPrompt: the agent's prompt rendered with the toolset's names ("" without an agent). */
  getSystemPrompt(variant = "full"): { systemPrompt: string; promptMode: string } {
    const agent = this.#definition;
    if (!agent) return { systemPrompt: "", promptMode: "" };
    const template = variant === "compact" && agent.compactPromptTemplate !== undefined ? agent.compactPromptTemplate : agent.promptTemplate;
    return { systemPrompt: renderTemplate(template, this.#configuration.templateContext()), promptMode: agent.promptMode };
  }

  /** GetAgentInfo, or undefined without an agent. */
  getAgentInfo(): AgentInfo | undefined {
    const agent = this.#definition;
    if (!agent) return undefined;
    return {
      name: agent.name,
      description: agent.description,
      tools: [...agent.tools],
      disallowedTools: [...agent.disallowedTools],
      permissionMode: agent.permissionMode,
      outputFormat: agent.outputFormat,
      ...(agent.completionRequirement ? { completionRequirement: { ...agent.completionRequirement } } : {}),
      toolConfig: structuredClone(agent.toolConfig),
    };
  }

  /** GetCompletionState: whether the required tool succeeded since the last reset. */
  getCompletionState(): CompletionState {
    const required = this.#definition?.completionRequirement?.tool;
    return { hasRequirement: required !== undefined, requiredTool: required ?? "", completed: required !== undefined && this.#completed };
  }

  /** ResetCompletionState: start of a new model turn. */
  resetCompletionState(): void {
    this.#completed = false;
  }

  /**
   * FinalizeAgent: finalizes the toolset from the pending config (when not finalized yet) and
   * renders the system prompt. Afterwards overrides are rejected.
   */
  async finalizeAgent(): Promise<{ success: boolean; systemPrompt: string; message: string; outcome?: FinalizeOutcome }> {
    if (!this.#configuration.toolset) {
      const outcome = await this.#configuration.finalize({ tools: [] });
      if (!outcome.ok) return { success: false, systemPrompt: "", message: outcome.message, outcome };
    }
    this.#finalized = true;
    return { success: true, systemPrompt: this.getSystemPrompt().systemPrompt, message: "" };
  }

  /** A successful call: completes the agent's requirement when it names this tool. */
  recordSuccess(clientName: string, fqId: string): void {
    const required = this.#definition?.completionRequirement?.tool;
    if (required !== undefined && (required === clientName || required === fqId || required === fqId.slice(fqId.indexOf(":") + 1))) this.#completed = true;
  }
}
