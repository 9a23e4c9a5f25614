/**
 * defineNamespace: a named, versioned set of tools, the unit a vendor package publishes, with
 * the behaviour it brings to every session that registers it: reminders, behaviour presets,
 * toolset rules and description-template flags.
 */
import { isToolDefinition, type AnyToolDefinition } from "./define-tool.js";
import type { ReminderDefinition } from "./reminder.js";
import type { ToolsetRule } from "./toolset-rule.js";
import type { Lifecycle, NamespacePreset } from "./preset.js";

const NAMESPACE_BRAND = Symbol.for("@grok-tools/runtime.Namespace");

/** The namespace API this runtime understands. */
export const NAMESPACE_API_VERSION = 1;

/** A namespace declaration. */
export interface NamespaceSpec {
  /** PascalCase, `[A-Za-z0-9_-]+` (`Acme`); tool ids are qualified with it (`Acme:shout`). */
  name: string;
  /** The namespace contract version; must be {@link NAMESPACE_API_VERSION}. */
  apiVersion: number;
  tools: readonly AnyToolDefinition[];
  /**
   * Reminders every session of a server that registers this namespace considers after a
   * successful call (each runs when its `isActive` holds for the finalized toolset; an id runs once).
   */
  reminders?: readonly ReminderDefinition[];
  /** Behaviour presets: preset name → the versions it picks for this namespace's tools. */
  presets?: Readonly<Record<string, NamespacePreset>>;
  /** Lifecycles of this namespace's tool versions: tool id → version → lifecycle (default active). */
  versionLifecycles?: Readonly<Record<string, Readonly<Record<string, Lifecycle>>>>;
  /** Finalize-time rules over the requested toolset, checked in every session of the server. */
  toolsetRules?: readonly ToolsetRule[];
  /** Variables every description template sees (host flags such as `is_windows`). */
  flags?: Readonly<Record<string, unknown>>;
  /**
   * When true, a finalize that configures any tool of this namespace keeps system reminders off
   * (and SetSystemReminders cannot turn them on): for namespaces whose tools answer tersely.
   */
  disablesSystemReminders?: boolean;
}

/** A checked namespace. */
export type NamespaceDefinition = Readonly<NamespaceSpec> & { readonly [NAMESPACE_BRAND]: true };

/** Declares a namespace; throws a plain Error on a malformed declaration (a programming error). */
export function defineNamespace(spec: NamespaceSpec): NamespaceDefinition {
  const problems = namespaceProblems(spec);
  if (problems.length > 0) throw new Error(`Invalid namespace "${String(spec.name)}": ${problems.join("; ")}`);
  return Object.freeze({
    ...spec,
    tools: Object.freeze([...spec.tools]),
    ...(spec.reminders ? { reminders: Object.freeze([...spec.reminders]) } : {}),
    ...(spec.toolsetRules ? { toolsetRules: Object.freeze([...spec.toolsetRules]) } : {}),
    [NAMESPACE_BRAND]: true as const,
  });
}

/** True for a namespace from any copy of the runtime. */
export function isNamespace(value: unknown): value is NamespaceDefinition {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NAMESPACE_BRAND] === true;
}

/** What is wrong with a would-be namespace (empty when nothing is). */
export function namespaceProblems(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return ["not an object"];
  const spec = value as Partial<NamespaceSpec>;
  const problems: string[] = [];
  if (typeof spec.name !== "string" || !/^[A-Za-z0-9_-]+$/.test(spec.name)) problems.push("name must match [A-Za-z0-9_-]+");
  if (spec.apiVersion !== NAMESPACE_API_VERSION) problems.push(`apiVersion must be ${NAMESPACE_API_VERSION}`);
  if (!Array.isArray(spec.tools)) return [...problems, "tools must be an array"];
  const seen = new Set<string>();
  spec.tools.forEach((tool: unknown, index: number) => {
    if (!isToolDefinition(tool)) return void problems.push(`tools[${index}] is not a defineTool() result`);
    if (!/^[A-Za-z0-9_-]+$/.test(tool.id)) problems.push(`tools[${index}].id "${tool.id}" must match [A-Za-z0-9_-]+`);
    if (seen.has(tool.id)) problems.push(`tool id "${tool.id}" appears twice`);
    seen.add(tool.id);
  });
  const listOf = (field: "reminders" | "toolsetRules", method: "collect" | "check") => {
    const list: unknown = spec[field];
    if (list === undefined) return;
    if (!Array.isArray(list)) return void problems.push(`${field} must be an array`);
    list.forEach((item: unknown, index: number) => {
      const entry = item as { id?: unknown; [key: string]: unknown } | null;
      if (typeof entry !== "object" || entry === null || typeof entry.id !== "string" || typeof entry[method] !== "function") {
        problems.push(`${field}[${index}] must have a string id and a ${method} function`);
      }
    });
  };
  listOf("reminders", "collect");
  listOf("toolsetRules", "check");
  if (spec.presets !== undefined) {
    if (typeof spec.presets !== "object" || spec.presets === null) problems.push("presets must be an object");
    else {
      for (const [name, preset] of Object.entries(spec.presets)) {
        if (typeof preset !== "object" || preset === null || typeof preset.tools !== "object" || preset.tools === null)
          problems.push(`presets.${name}.tools must be an object`);
      }
    }
  }
  if (spec.flags !== undefined && (typeof spec.flags !== "object" || spec.flags === null)) problems.push("flags must be an object");
  return problems;
}
