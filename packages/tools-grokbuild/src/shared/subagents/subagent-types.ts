/**
 * The subagent types a parent may spawn (spec §4.9, §7.4): the three built-ins and the
 * user-defined ones read from agent definition files (Markdown with a YAML front matter, or
 * JSON) in the task tool's `agent_dirs`. Reading and parsing only; validation texts are the tool's.
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { ToolKind } from "@grok-tools/runtime";
import type { CapabilityMode } from "./capability-mode.js";

/** yaml is required on the first agent file, not at start-up (issue #18: most sessions define no agent types). */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

/** One spawnable type. */
export interface SubagentType {
  name: string;
  description: string;
  /** Tool kinds the child gets (before the capability filter); `all` = every configured tool. */
  kinds: readonly ToolKind[] | "all";
  /** Client names or fq ids the definition lists explicitly (user-defined types). */
  toolNames: readonly string[];
  defaultCapability: CapabilityMode;
  /** The definition body appended to the base system prompt. */
  body: string;
  /** `builtin` or the file it came from. */
  source: string;
}

const LIST_KINDS: readonly ToolKind[] = ["list", "list_dir"];

/** Built-in types (`TT/task.rs`), in the order they are listed to the model. */
export const BUILTIN_SUBAGENT_TYPES: readonly SubagentType[] = [
  {
    name: "general-purpose",
    description: "General purpose agent for multi-step tasks.",
    kinds: [
      "execute",
      "read",
      "edit",
      "write",
      ...LIST_KINDS,
      "search",
      "web_search",
      "plan",
      "background_task_action",
      "wait_tasks_action",
      "kill_task_action",
    ],
    toolNames: [],
    defaultCapability: "all",
    body: "Work through the task step by step. Research, change what is needed, verify the result, and report what you did and what you found.",
    source: "builtin",
  },
  {
    name: "explore",
    description: "Fast, read-only agent specialized for codebase exploration.",
    kinds: ["read", ...LIST_KINDS, "search"],
    toolNames: [],
    defaultCapability: "read-only",
    body: "Explore the codebase to answer the question. Do not change anything. Report the relevant files, symbols and findings concisely, with paths.",
    source: "builtin",
  },
  {
    name: "plan",
    description: "Software architect for planning implementation strategies.",
    kinds: ["read", ...LIST_KINDS, "search", "web_search", "plan"],
    toolNames: [],
    defaultCapability: "read-only",
    body: "Study the code and design an implementation plan: the steps, the files to change, the risks and how to verify the result. Do not change anything.",
    source: "builtin",
  },
];

/** Where agent definition files are looked for by default (relative to the workspace). */
export const DEFAULT_AGENT_DIRS: readonly string[] = [".grok/agents"];

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function stringList(value: unknown): string[] {
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  if (Array.isArray(value))
    return value
      .filter((v): v is string => typeof v === "string")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  return [];
}

function parseDefinition(
  text: string,
  file: string,
  knownKinds: ReadonlySet<string>,
  parseMode: (raw: unknown) => CapabilityMode | undefined,
): SubagentType | undefined {
  let raw: Record<string, unknown>;
  let body: string;
  if (file.endsWith(".json")) {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    raw = parsed as Record<string, unknown>;
    body = typeof raw.prompt === "string" ? raw.prompt : typeof raw.system_prompt === "string" ? raw.system_prompt : "";
  } else {
    const match = FRONT_MATTER.exec(text);
    const front: unknown = match ? parseYaml(match[1] ?? "") : {};
    raw = typeof front === "object" && front !== null && !Array.isArray(front) ? (front as Record<string, unknown>) : {};
    body = (match ? text.slice(match[0].length) : text).trim();
  }
  const name = typeof raw.name === "string" && raw.name.trim() !== "" ? raw.name.trim() : path.basename(file).replace(/\.(md|json)$/i, "");
  const tools = stringList(raw.tools);
  const kinds = tools.filter((t) => knownKinds.has(t)) as ToolKind[];
  const names = tools.filter((t) => !knownKinds.has(t));
  return {
    name,
    description: typeof raw.description === "string" ? raw.description.trim() : "",
    kinds: tools.length === 0 ? "all" : kinds,
    toolNames: names,
    defaultCapability: parseMode(raw.capability_mode ?? raw.capabilityMode) ?? "all",
    body,
    source: file,
  };
}

/**
 * Built-in types followed by the user-defined ones found in `dirs` (resolved against the
 * workspace; `*.md` and `*.json`, in name order). A user file named like a built-in replaces it.
 * Files that do not parse are logged and skipped, so one bad file never hides the others.
 */
export async function loadSubagentTypes(
  workspace: string,
  dirs: readonly string[],
  knownKinds: ReadonlySet<string>,
  parseMode: (raw: unknown) => CapabilityMode | undefined,
  warn: (message: string, error: unknown) => void,
): Promise<SubagentType[]> {
  const types = new Map<string, SubagentType>(BUILTIN_SUBAGENT_TYPES.map((t) => [t.name, t]));
  for (const dir of dirs) {
    const folder = path.resolve(workspace, dir);
    let names: string[];
    try {
      names = (await readdir(folder)).filter((n) => /\.(md|json)$/i.test(n)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(folder, name);
      try {
        const definition = parseDefinition(await readFile(file, "utf8"), file, knownKinds, parseMode);
        if (definition) types.set(definition.name, definition);
      } catch (error) {
        warn(`agent definition ${file} skipped`, error);
      }
    }
  }
  return [...types.values()];
}
