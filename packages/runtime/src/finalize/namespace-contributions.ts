/**
 * What the registered namespaces bring to finalize besides their tools: reminders, toolset rules,
 * description-template flags and the namespaces that keep reminders off. Folded in registration order.
 */
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ReminderDefinition } from "../tool/reminder.js";
import type { ToolsetRule } from "../tool/toolset-rule.js";
import { namespaceOf } from "../tool/tool-id.js";

/** Reminders of every registered namespace, in registration order. */
export function namespaceReminders(registry: ToolRegistry): ReminderDefinition[] {
  return registry.namespaces.flatMap((ns) => ns.reminders ?? []);
}

/** Toolset rules of every registered namespace, in registration order. */
export function namespaceToolsetRules(registry: ToolRegistry): ToolsetRule[] {
  return registry.namespaces.flatMap((ns) => ns.toolsetRules ?? []);
}

/** The template flags of every registered namespace (a later namespace's value of a flag wins). */
export function namespaceFlags(registry: ToolRegistry): Record<string, unknown> {
  return Object.assign({}, ...registry.namespaces.map((ns) => ns.flags ?? {})) as Record<string, unknown>;
}

/** The first namespace among these tool ids' that keeps system reminders off, if any. */
export function remindersForcedOffBy(registry: ToolRegistry, toolIds: readonly string[]): string | undefined {
  const silencing = new Set(registry.namespaces.filter((ns) => ns.disablesSystemReminders === true).map((ns) => ns.name));
  if (silencing.size === 0) return undefined;
  for (const id of toolIds) {
    const ns = namespaceOf(id);
    if (silencing.has(ns)) return ns;
  }
  return undefined;
}
