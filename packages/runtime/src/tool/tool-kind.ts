/**
 * Tool kinds (the `tools.by_kind` keys of description templates), which of them
 * are read-only, and the proto category each belongs to (spec §2.3, §2.4).
 */
export const TOOL_KINDS = [
  "read",
  "edit",
  "delete",
  "list_dir",
  "write",
  "move",
  "search",
  "lsp",
  "execute",
  "plan",
  "web_search",
  "web_fetch",
  "background_task_action",
  "wait_tasks_action",
  "kill_task_action",
  "list",
  "skill",
  "memory_search",
  "memory_get",
  "task",
  "enter_plan",
  "exit_plan",
  "ask_user",
  "image_gen",
  "video_gen",
  "image_to_video",
  "reference_to_video",
  "deploy_app",
  "search_tool",
  "use_tool",
  "monitor",
  "goal_update",
  "workflow",
  "other",
] as const;

/** A tool kind, such as `read` or `execute`. */
export type ToolKind = (typeof TOOL_KINDS)[number];

const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>([
  "read",
  "search",
  "lsp",
  "list_dir",
  "list",
  "memory_search",
  "memory_get",
  "web_search",
  "web_fetch",
  "enter_plan",
  "exit_plan",
  "ask_user",
]);

/** Whether tools of this kind are read-only unless they say otherwise. */
export function isReadOnlyKind(kind: ToolKind): boolean {
  return READ_ONLY_KINDS.has(kind);
}

/** The proto `ToolCategory` names, without their prefix. */
export type ToolCategoryName = "FILE" | "SEARCH" | "SHELL" | "WORKFLOW" | "EXTERNAL" | "CUSTOM";

const CATEGORY_BY_KIND: Record<ToolKind, ToolCategoryName> = {
  read: "FILE",
  edit: "FILE",
  write: "FILE",
  delete: "FILE",
  move: "FILE",
  list_dir: "FILE",
  list: "FILE",
  search: "SEARCH",
  lsp: "SEARCH",
  memory_search: "SEARCH",
  memory_get: "SEARCH",
  search_tool: "SEARCH",
  execute: "SHELL",
  background_task_action: "SHELL",
  wait_tasks_action: "SHELL",
  kill_task_action: "SHELL",
  monitor: "SHELL",
  plan: "WORKFLOW",
  task: "WORKFLOW",
  enter_plan: "WORKFLOW",
  exit_plan: "WORKFLOW",
  ask_user: "WORKFLOW",
  skill: "WORKFLOW",
  goal_update: "WORKFLOW",
  workflow: "WORKFLOW",
  use_tool: "WORKFLOW",
  web_search: "EXTERNAL",
  web_fetch: "EXTERNAL",
  image_gen: "EXTERNAL",
  video_gen: "EXTERNAL",
  image_to_video: "EXTERNAL",
  reference_to_video: "EXTERNAL",
  deploy_app: "EXTERNAL",
  other: "CUSTOM",
};

/** The proto category of a kind (spec §2.4). */
export function categoryOfKind(kind: ToolKind): ToolCategoryName {
  return CATEGORY_BY_KIND[kind];
}

/** Presentation label of a kind, for UIs (spec §2.3). */
export function kindLabel(kind: ToolKind): string {
  switch (kind) {
    case "read":
      return "Read";
    case "edit":
      return "Edit";
    case "execute":
      return "Run Command";
    case "list":
    case "list_dir":
      return "List Files";
    case "search":
      return "Search";
    case "plan":
      return "Plan";
    case "task":
      return "Subagent";
    case "background_task_action":
      return "Background Task";
    default:
      return kind
        .split("_")
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join(" ");
  }
}
