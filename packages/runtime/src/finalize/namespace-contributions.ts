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

/**
 * Toolset rules of every registered namespace, in registration order, one per rule id: two
 * namespaces that both guard a boundary between them each declare the rule (under one id), so
 * that either works alone, and a server with both reports a conflict once. The first registered rule of an id is the one that runs.
 */
export function namespaceToolsetRules(registry: ToolRegistry): ToolsetRule[] {
  const seen = new Set<string>();
  return registry.namespaces
    .flatMap((ns) => ns.toolsetRules ?? [])
    .filter((rule) => {
      if (seen.has(rule.id)) return false;
      seen.add(rule.id);
      return true;
    });
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
