/**
 * Capability modes of a child (spec §7.3): which tool kinds each mode keeps, the accepted
 * spellings, and the filter over a toolset (tools of other kinds dropped; background and kill
 * tools pruned when nothing left can create background work).
 */
import type { ToolKind } from "@grok-tools/runtime";

/** The canonical modes. */
export type CapabilityMode = "read-only" | "read-write" | "execute" | "all";

const READ_ONLY: readonly ToolKind[] = [
  "read",
  "list_dir",
  "list",
  "search",
  "lsp",
  "plan",
  "memory_search",
  "memory_get",
  "web_search",
  "web_fetch",
  "background_task_action",
  "wait_tasks_action",
  "kill_task_action",
  "task",
  "enter_plan",
  "exit_plan",
  "ask_user",
  "skill",
];
const READ_WRITE: readonly ToolKind[] = [...READ_ONLY, "edit", "write", "delete", "move", "image_gen", "video_gen", "image_to_video", "reference_to_video"];
const EXECUTE: readonly ToolKind[] = [...READ_WRITE, "execute", "monitor"];

const KINDS_BY_MODE: Record<Exclude<CapabilityMode, "all">, ReadonlySet<ToolKind>> = {
  "read-only": new Set(READ_ONLY),
  "read-write": new Set(READ_WRITE),
  execute: new Set(EXECUTE),
};

/** `read-only`, `readonly`, `read_only`, `ReadOnly`, … → the canonical mode; undefined otherwise. */
export function parseCapabilityMode(raw: unknown): CapabilityMode | undefined {
  if (typeof raw !== "string") return undefined;
  const key = raw
    .trim()
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[_\s]+/g, "-");
  if (key === "read-only" || key === "readonly") return "read-only";
  if (key === "read-write" || key === "readwrite") return "read-write";
  if (key === "execute" || key === "exec") return "execute";
  if (key === "all") return "all";
  return undefined;
}

/** Whether a tool of `kind` survives `mode`. */
export function keptByMode(mode: CapabilityMode, kind: ToolKind): boolean {
  return mode === "all" || KINDS_BY_MODE[mode].has(kind);
}

const LIFECYCLE_KINDS: ReadonlySet<ToolKind> = new Set(["background_task_action", "wait_tasks_action", "kill_task_action"]);

/** Drops background/wait/kill tools when no kept tool can start background work (bash or task). */
export function pruneLifecycleTools<T extends { kind: ToolKind }>(tools: readonly T[]): T[] {
  const producesBackground = tools.some((t) => t.kind === "execute" || t.kind === "task");
  return producesBackground ? [...tools] : tools.filter((t) => !LIFECYCLE_KINDS.has(t.kind));
}
