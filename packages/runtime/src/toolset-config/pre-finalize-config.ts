/**
 * The pending tool configuration built by the deprecated pre-finalize RPCs (EnableTool,
 * DisableTool, SetToolOptions, SetToolOverride, ClearToolOverride; spec §10) and turned
 * into finalize entries. It holds data only; the session decides when it may change.
 *
 * Rule: a finalize request (or FinalizeAgent) that lists no tools uses these entries —
 * enabled tools in enable order, their configured options as `params_json`, their name
 * and parameter overrides. A request that lists tools ignores the pending config.
 */
import type { RegisteredTool, ToolRegistry } from "../registry/tool-registry.js";
import type { ToolConfigInput } from "../finalize/finalize-types.js";

const PRECONDITION_BRAND = Symbol.for("@grok-tools/runtime.PreconditionError");

/**
 * A call the session's state does not allow any more (a second finalize, an override after
 * finalize). The server maps it to gRPC FAILED_PRECONDITION.
 */
export class PreconditionError extends Error {
  readonly [PRECONDITION_BRAND] = true;

  constructor(message: string) {
    super(message);
    this.name = "PreconditionError";
  }

  /** True for a PreconditionError from any copy of the runtime. */
  static is(value: unknown): value is PreconditionError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[PRECONDITION_BRAND] === true;
  }
}

/** Name and parameter overrides of one tool. */
export interface ToolOverride {
  nameOverride?: string;
  /** canonical → client. */
  paramNames: Record<string, string>;
}

/** Resolves a tool name of a deprecated RPC: a fq id, or an unqualified id that only one namespace has. */
export function resolveRegisteredTool(registry: ToolRegistry, name: string): RegisteredTool | undefined {
  const exact = registry.get(name);
  if (exact) return exact;
  const matches = registry.list().filter((r) => r.definition.id === name);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Pending configuration before finalize. */
export class PreFinalizeConfig {
  readonly #registry: ToolRegistry;
  readonly #enabled: string[] = [];
  readonly #options = new Map<string, Record<string, unknown>>();
  readonly #overrides = new Map<string, ToolOverride>();

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
  }

  /** The registered tool a name refers to, or undefined. */
  resolve(name: string): RegisteredTool | undefined {
    return resolveRegisteredTool(this.#registry, name);
  }

  /** Why {@link resolve} found nothing: unknown, or an unqualified id several namespaces share. */
  notFoundMessage(name: string): string {
    const matches = this.#registry.list().filter((r) => r.definition.id === name);
    if (matches.length > 1) return `Tool name ${name} is ambiguous: ${matches.map((m) => m.fqId).join(", ")}. Use the fully-qualified id.`;
    return `Tool not found: ${name}`;
  }

  /** Enabled fq ids, in enable order. */
  get enabled(): readonly string[] {
    return this.#enabled;
  }

  isEnabled(fqId: string): boolean {
    return this.#enabled.includes(fqId);
  }

  /** Adds a tool; returns false when it was already enabled. */
  enable(fqId: string): boolean {
    if (this.#enabled.includes(fqId)) return false;
    this.#enabled.push(fqId);
    return true;
  }

  /** Removes a tool; returns false when it was not enabled. */
  disable(fqId: string): boolean {
    const index = this.#enabled.indexOf(fqId);
    if (index === -1) return false;
    this.#enabled.splice(index, 1);
    return true;
  }

  /** The options a client set for a tool (not merged with defaults). */
  configuredOptions(fqId: string): Record<string, unknown> {
    return { ...(this.#options.get(fqId) ?? {}) };
  }

  setConfiguredOptions(fqId: string, options: Record<string, unknown>): void {
    if (Object.keys(options).length === 0) this.#options.delete(fqId);
    else this.#options.set(fqId, { ...options });
  }

  override(fqId: string): ToolOverride | undefined {
    const found = this.#overrides.get(fqId);
    return found ? { ...found, paramNames: { ...found.paramNames } } : undefined;
  }

  /** Sets a tool's overrides; an empty name or map clears that part. */
  setOverride(fqId: string, nameOverride: string, paramNames: Readonly<Record<string, string>>): void {
    const next: ToolOverride = { paramNames: { ...paramNames } };
    if (nameOverride !== "") next.nameOverride = nameOverride;
    if (next.nameOverride === undefined && Object.keys(next.paramNames).length === 0) this.#overrides.delete(fqId);
    else this.#overrides.set(fqId, next);
  }

  clearOverride(fqId: string): boolean {
    return this.#overrides.delete(fqId);
  }

  /** Finalize entries for the enabled tools. */
  toEntries(): ToolConfigInput[] {
    return this.#enabled.map((id) => {
      const entry: ToolConfigInput = { id };
      const options = this.#options.get(id);
      if (options) entry.paramsJson = JSON.stringify(options);
      const override = this.#overrides.get(id);
      if (override?.nameOverride !== undefined) entry.nameOverride = override.nameOverride;
      if (override && Object.keys(override.paramNames).length > 0) entry.paramsNameOverrides = { ...override.paramNames };
      return entry;
    });
  }
}
