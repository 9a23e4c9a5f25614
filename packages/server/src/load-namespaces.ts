/**
 * Loads vendor namespaces by package name (`--namespace @acme/grok-tools-acme`) with
 * `import()`, and refuses anything that is not a defineNamespace() result.
 */
import { isNamespace, namespaceProblems, type NamespaceDefinition } from "@grok-tools/runtime";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

/** Imports each package (resolved from `fromDir`) and returns its default-exported namespace. */
export async function loadNamespaces(specifiers: readonly string[], fromDir: string): Promise<NamespaceDefinition[]> {
  const namespaces: NamespaceDefinition[] = [];
  const require = createRequire(path.join(fromDir, "noop.js"));
  for (const specifier of specifiers) {
    let resolved: string;
    try {
      resolved = specifier.startsWith(".") || path.isAbsolute(specifier) ? pathToFileURL(path.resolve(fromDir, specifier)).href : pathToFileURL(require.resolve(specifier)).href;
    } catch {
      resolved = specifier;
    }
    let module: Record<string, unknown>;
    try {
      module = (await import(resolved)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`Cannot load namespace package "${specifier}": ${(error as Error).message}`);
    }
    const candidate = module.default ?? module.namespace;
    if (!isNamespace(candidate)) {
      const problems = namespaceProblems(candidate);
      throw new Error(`Package "${specifier}" does not default-export a namespace made with defineNamespace()${problems.length ? `: ${problems.join("; ")}` : ""}`);
    }
    namespaces.push(candidate);
  }
  return namespaces;
}
