/**
 * The registry of one server: the built-in namespaces, then the vendor ones given to
 * createToolsServer({ namespaces }). A vendor namespace that is not a defineNamespace() result, or
 * whose name is taken, stops the server before it listens, with the namespace named and the reason.
 */
import { ToolRegistry, isNamespace, namespaceProblems } from "@grok-tools/runtime/host";
import type { NamespaceDefinition } from "@grok-tools/runtime";

/** A vendor namespace the server cannot register. */
export class NamespaceRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NamespaceRegistrationError";
  }
}

/** The registry of `builtin` and `vendor` namespaces, or a {@link NamespaceRegistrationError}. */
export function buildRegistry(builtin: readonly NamespaceDefinition[], vendor: readonly NamespaceDefinition[]): ToolRegistry {
  const builtinNames = new Set(builtin.map((ns) => ns.name));
  const seen = new Map<string, number>();
  vendor.forEach((ns: unknown, index) => {
    const label = `namespaces[${index}]`;
    if (!isNamespace(ns)) {
      const problems = namespaceProblems(ns);
      throw new NamespaceRegistrationError(`${label} is not a namespace made with defineNamespace()${problems.length ? `: ${problems.join("; ")}` : ""}`);
    }
    const problems = namespaceProblems(ns);
    if (problems.length > 0) throw new NamespaceRegistrationError(`${label} (namespace "${ns.name}") is invalid: ${problems.join("; ")}`);
    if (builtinNames.has(ns.name))
      throw new NamespaceRegistrationError(`${label} (namespace "${ns.name}") has the name of a built-in namespace; give it a name of its own`);
    const earlier = seen.get(ns.name);
    if (earlier !== undefined)
      throw new NamespaceRegistrationError(`${label} (namespace "${ns.name}") has the same name as namespaces[${earlier}]; register each namespace once`);
    seen.set(ns.name, index);
  });
  return ToolRegistry.of([...builtin, ...vendor]);
}
