/**
 * The system prompt a child receives (spec §7.4): our subagent base template, then the type's
 * definition body, both rendered with the child's real client tool names.
 */
import type { ToolKind } from "@grok-tools/runtime";
import type { SubagentType } from "./subagent-types.js";

/** One tool the child gets. */
export interface ChildTool {
  clientName: string;
  kind: ToolKind;
}

/** `${{ tools.by_kind.<kind> }}` markers in a definition body → the child's tool of that kind (or the kind). */
function renderToolNames(text: string, tools: readonly ChildTool[]): string {
  return text.replace(/\$\{\{\s*tools\.by_kind\.([a-z_]+)\s*\}\}/g, (_m, kind: string) => tools.find((t) => t.kind === kind)?.clientName ?? kind);
}

/** The complete system prompt of a child of `type` with `tools`, working in `cwd`. */
export function renderSubagentSystemPrompt(type: SubagentType, tools: readonly ChildTool[], cwd: string): string {
  const names = tools.length > 0 ? tools.map((t) => t.clientName).join(", ") : "(none)";
  const base = [
    `You are a subagent of type "${type.name}"${type.description ? `: ${type.description}` : ""}`,
    "A parent agent started you to carry out one task. You work on your own: nobody answers questions while you run.",
    `Working directory: ${cwd}`,
    `Tools you can use: ${names}`,
    "When you are done, reply with a concise report of what you did and what you found. The parent sees only your final reply, so put everything it needs in it.",
  ].join("\n");
  const body = renderToolNames(type.body, tools).trim();
  return body === "" ? base : `${base}\n\n${body}`;
}
