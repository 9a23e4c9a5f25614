/**
 * The registry of every tool the server knows, keyed by fully-qualified id
 * (`Acme:shout`). Registration only; which tools a session enables is
 * decided at finalize.
 */
import type { AnyToolDefinition } from "../tool/define-tool.js";
import { isNamespace, namespaceProblems, type NamespaceDefinition } from "../tool/define-namespace.js";

/** A tool as registered: its definition and where it came from. */
export interface RegisteredTool {
  /** `Namespace:id`. */
  readonly fqId: string;
  readonly namespace: string;
  readonly definition: AnyToolDefinition;
}

/** Tools by fully-qualified id, in registration order. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #namespaces: NamespaceDefinition[] = [];

  /** A registry holding these namespaces. */
  static of(namespaces: readonly NamespaceDefinition[]): ToolRegistry {
    const registry = new ToolRegistry();
    for (const ns of namespaces) registry.addNamespace(ns);
    return registry;
  }

  /** Adds a namespace; throws when it is malformed or a name is taken. */
  addNamespace(ns: unknown): void {
    if (!isNamespace(ns)) {
      const problems = namespaceProblems(ns);
      throw new Error(`Not a namespace (use defineNamespace): ${problems.join("; ") || "missing brand"}`);
    }
    if (this.#namespaces.some((existing) => existing.name === ns.name)) {
      throw new Error(`Namespace "${ns.name}" is already registered`);
    }
    for (const tool of ns.tools) {
      const fqId = `${ns.name}:${tool.id}`;
      this.#tools.set(fqId, { fqId, namespace: ns.name, definition: tool });
    }
    this.#namespaces.push(ns);
  }

  get(fqId: string): RegisteredTool | undefined {
    return this.#tools.get(fqId);
  }

  has(fqId: string): boolean {
    return this.#tools.has(fqId);
  }

  /** Every registered tool, in registration order. */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  get namespaces(): readonly NamespaceDefinition[] {
    return this.#namespaces;
  }
}
