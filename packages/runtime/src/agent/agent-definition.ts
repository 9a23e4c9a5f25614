/**
 * Agent definitions for the deprecated agent RPCs (GetSystemPrompt, GetAgentInfo, completion
 * state, FinalizeAgent): parsed from JSON or from Markdown with a YAML front matter whose body
 * is the prompt template. Parsing only; the session applies the definition.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { isPlainObject } from "../core/plain-object.js";

/** yaml is required on the first parse, not at start-up (issue #18: most sessions never parse YAML). */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

/** Retry settings of one tool (proto `AgentToolRetryConfig`). */
export interface AgentToolRetryConfig {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The tool the model must call before a turn counts as complete, and the nudge to say so. */
export interface AgentCompletionRequirement {
  tool: string;
  reminder: string;
}

/** A parsed agent definition. */
export interface AgentDefinition {
  name: string;
  description: string;
  /** Tools to enable (fq ids or unqualified ids), in order; empty = none chosen by the agent. */
  tools: string[];
  disallowedTools: string[];
  permissionMode: string;
  outputFormat: string;
  /** `full` replaces the host's prompt; `extend` appends to it. */
  promptMode: "full" | "extend";
  completionRequirement?: AgentCompletionRequirement;
  toolConfig: Record<string, { retry?: AgentToolRetryConfig }>;
  /** The system prompt template (`${{ tools.by_kind.read }}` etc. resolve at render time). */
  promptTemplate: string;
  /** A shorter prompt for the `compact` variant; the full one when absent. */
  compactPromptTemplate?: string;
}

/** A definition file that cannot be used; the message says what to fix. */
export class AgentDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentDefinitionError";
  }
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads and parses a definition file: `.json` as JSON, anything else as Markdown. */
export async function loadAgentDefinition(file: string): Promise<AgentDefinition> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new AgentDefinitionError(`cannot read agent definition ${file}: ${(error as Error).message}`);
  }
  return parseAgentDefinition(text, path.extname(file).toLowerCase() === ".json" ? "json" : "markdown", file);
}

/** Parses a definition from text. */
export function parseAgentDefinition(text: string, format: "json" | "markdown", source = "agent definition"): AgentDefinition {
  if (format === "json") {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new AgentDefinitionError(`${source}: invalid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(raw)) throw new AgentDefinitionError(`${source}: must be a JSON object`);
    return fromObject(raw, undefined, source);
  }
  const match = FRONT_MATTER.exec(text);
  if (!match) return fromObject({}, text.trim(), source);
  let front: unknown;
  try {
    front = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new AgentDefinitionError(`${source}: invalid front matter: ${(error as Error).message}`);
  }
  if (front !== null && front !== undefined && !isPlainObject(front)) throw new AgentDefinitionError(`${source}: front matter must be a mapping`);
  return fromObject(front ?? {}, text.slice(match[0].length).trim(), source);
}

function pick(raw: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (Object.hasOwn(raw, key) && raw[key] !== null && raw[key] !== undefined) return raw[key];
  return undefined;
}

function text(raw: Record<string, unknown>, source: string, field: string, ...keys: string[]): string | undefined {
  const value = pick(raw, ...keys);
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new AgentDefinitionError(`${source}: ${field} must be a string`);
  return value;
}

function nameList(raw: Record<string, unknown>, source: string, field: string, ...keys: string[]): string[] {
  const value = pick(raw, ...keys);
  if (value === undefined) return [];
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.map((v) => v.trim()).filter((s) => s !== "");
  throw new AgentDefinitionError(`${source}: ${field} must be a list of tool names`);
}

function count(value: unknown, source: string, field: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new AgentDefinitionError(`${source}: ${field} must be a non-negative integer`);
  return value;
}

function fromObject(raw: Record<string, unknown>, body: string | undefined, source: string): AgentDefinition {
  const promptMode = text(raw, source, "prompt_mode", "prompt_mode", "promptMode") ?? "full";
  if (promptMode !== "full" && promptMode !== "extend") throw new AgentDefinitionError(`${source}: prompt_mode must be "full" or "extend"`);
  const definition: AgentDefinition = {
    name: text(raw, source, "name", "name") ?? "",
    description: text(raw, source, "description", "description") ?? "",
    tools: nameList(raw, source, "tools", "tools"),
    disallowedTools: nameList(raw, source, "disallowed_tools", "disallowed_tools", "disallowedTools", "disallowed-tools"),
    permissionMode: text(raw, source, "permission_mode", "permission_mode", "permissionMode") ?? "",
    outputFormat: text(raw, source, "output_format", "output_format", "outputFormat") ?? "",
    promptMode,
    toolConfig: {},
    promptTemplate: body ?? text(raw, source, "prompt", "prompt", "prompt_template", "promptTemplate", "system_prompt", "systemPrompt") ?? "",
  };
  const compact = text(raw, source, "compact_prompt", "compact_prompt", "compactPrompt", "compact_prompt_template");
  if (compact !== undefined) definition.compactPromptTemplate = compact;
  const requirement = pick(raw, "completion_requirement", "completionRequirement");
  if (requirement !== undefined) {
    if (!isPlainObject(requirement) || typeof requirement.tool !== "string" || requirement.tool === "") {
      throw new AgentDefinitionError(`${source}: completion_requirement must have a tool name`);
    }
    const reminder = requirement.reminder ?? "";
    if (typeof reminder !== "string") throw new AgentDefinitionError(`${source}: completion_requirement.reminder must be a string`);
    definition.completionRequirement = { tool: requirement.tool, reminder };
  }
  const toolConfig = pick(raw, "tool_config", "toolConfig");
  if (toolConfig !== undefined) {
    if (!isPlainObject(toolConfig)) throw new AgentDefinitionError(`${source}: tool_config must be a mapping of tool names`);
    for (const [tool, config] of Object.entries(toolConfig)) {
      if (!isPlainObject(config)) throw new AgentDefinitionError(`${source}: tool_config.${tool} must be a mapping`);
      const retry = config.retry;
      if (retry === undefined || retry === null) {
        definition.toolConfig[tool] = {};
        continue;
      }
      if (!isPlainObject(retry)) throw new AgentDefinitionError(`${source}: tool_config.${tool}.retry must be a mapping`);
      const field = `tool_config.${tool}.retry`;
      definition.toolConfig[tool] = {
        retry: {
          maxRetries: count(retry.max_retries ?? retry.maxRetries, source, `${field}.max_retries`, 0),
          baseDelayMs: count(retry.base_delay_ms ?? retry.baseDelayMs, source, `${field}.base_delay_ms`, 0),
          maxDelayMs: count(retry.max_delay_ms ?? retry.maxDelayMs, source, `${field}.max_delay_ms`, 0),
        },
      };
    }
  }
  return definition;
}
