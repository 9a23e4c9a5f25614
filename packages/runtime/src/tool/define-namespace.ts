/**
 * defineNamespace: a named, versioned set of tools, the unit a vendor package publishes.
 */
import { isToolDefinition, type AnyToolDefinition } from "./define-tool.js";

const NAMESPACE_BRAND = Symbol.for("@grok-tools/runtime.Namespace");

/** The namespace API this runtime understands. */
export const NAMESPACE_API_VERSION = 1;

/** A namespace declaration. */
export interface NamespaceSpec {
  /** PascalCase, `[A-Za-z0-9_-]+` (`GrokBuild`). */
  name: string;
  /** The namespace contract version; must be {@link NAMESPACE_API_VERSION}. */
  apiVersion: number;
  tools: readonly AnyToolDefinition[];
}

/** A checked namespace. */
export type NamespaceDefinition = Readonly<NamespaceSpec> & { readonly [NAMESPACE_BRAND]: true };

/** Declares a namespace; throws a plain Error on a malformed declaration (a programming error). */
export function defineNamespace(spec: NamespaceSpec): NamespaceDefinition {
  const problems = namespaceProblems(spec);
  if (problems.length > 0) throw new Error(`Invalid namespace "${String(spec.name)}": ${problems.join("; ")}`);
  return Object.freeze({ ...spec, tools: Object.freeze([...spec.tools]), [NAMESPACE_BRAND]: true as const });
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
  return problems;
}
