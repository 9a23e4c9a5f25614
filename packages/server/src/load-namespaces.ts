/**
 * Loads vendor namespaces by package name (`--namespace @acme/grok-tools-acme`) or path with
 * `import()`, and refuses anything that is not a defineNamespace() result. Package names resolve
 * from `fromDir` as ESM does; the namespace's peer `@grok-tools/runtime` resolves from the server
 * (see namespace-resolve-hooks.ts), so a linked package works and one runtime is loaded.
 */
import { isNamespace, namespaceProblems } from "@grok-tools/runtime/host";
import { type NamespaceDefinition } from "@grok-tools/runtime";
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { NAMESPACE_SPECIFIER_PREFIX, type NamespaceResolveHookData } from "./namespace-resolve-hooks.js";

/** Packages a namespace peer-depends on that the server provides: one copy, the server's. */
export const SHARED_PEER_PACKAGES: readonly string[] = ["@grok-tools/runtime", "@grok-tools/tasks"];

let hooksRegistered = false;
let bundledPeerModules: Record<string, string> | undefined;

/**
 * Called by the command's bundle (scripts/bundle-server.mjs) before the command starts: there the
 * server's runtime is inlined in the bundle, not the installed package, so a namespace's import of a
 * shared peer entry (`@grok-tools/runtime/host`) must get a module re-exporting the bundle's
 * instances (`urls`: entry specifier -> that module's file URL), or it would load a second runtime.
 */
export function useBundledSharedPeers(urls: Record<string, string>): void {
  bundledPeerModules = { ...urls };
}

function registerResolveHooks(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  const hookData: NamespaceResolveHookData = {
    serverParentUrl: import.meta.url,
    sharedPeers: [...SHARED_PEER_PACKAGES],
    ...(bundledPeerModules ? { bundledPeerModules } : {}),
  };
  register(new URL("./namespace-resolve-hooks.js", import.meta.url), { data: hookData });
}

/** Options of {@link loadNamespaces}. */
export interface LoadNamespacesOptions {
  /** Namespace names the server already has (its built-in ones): a package declaring one is refused. */
  taken?: readonly string[];
}

/**
 * Imports each package (resolved from `fromDir`) and returns its default-exported namespace. A
 * package that cannot be imported (not installed, a dependency missing, a bad module), that does
 * not export a defineNamespace() result, or whose namespace name is taken (built in, or declared by
 * an earlier package) is refused with an Error naming the package and the reason.
 */
export async function loadNamespaces(specifiers: readonly string[], fromDir: string, options: LoadNamespacesOptions = {}): Promise<NamespaceDefinition[]> {
  const namespaces: NamespaceDefinition[] = [];
  const declaredBy = new Map<string, string>();
  const taken = new Set(options.taken ?? []);
  if (specifiers.length === 0) return namespaces;
  registerResolveHooks();
  const from = pathToFileURL(path.join(path.resolve(fromDir), "noop.js")).href;
  for (const specifier of specifiers) {
    const isPath = specifier.startsWith(".") || path.isAbsolute(specifier);
    const target = isPath
      ? pathToFileURL(path.resolve(fromDir, specifier)).href
      : `${NAMESPACE_SPECIFIER_PREFIX}${encodeURIComponent(JSON.stringify({ name: specifier, from }))}`;
    let module: Record<string, unknown>;
    try {
      module = (await import(target)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`Cannot load namespace package "${specifier}": ${loadFailure(error, specifier, fromDir)}`);
    }
    const candidate = module.default ?? module.namespace;
    if (!isNamespace(candidate)) {
      const problems = namespaceProblems(candidate);
      throw new Error(
        `Package "${specifier}" does not default-export a namespace made with defineNamespace()${problems.length ? `: ${problems.join("; ")}` : ""}`,
      );
    }
    if (taken.has(candidate.name)) {
      throw new Error(
        `Package "${specifier}" declares namespace "${candidate.name}", which the server already provides. Give the namespace a name of its own.`,
      );
    }
    const earlier = declaredBy.get(candidate.name);
    if (earlier !== undefined) {
      throw new Error(
        `Package "${specifier}" declares namespace "${candidate.name}", which package "${earlier}" already declares. Load only one of them, or rename one namespace.`,
      );
    }
    declaredBy.set(candidate.name, specifier);
    namespaces.push(candidate);
  }
  return namespaces;
}

/** Node's reason; for the namespace package itself, where it was looked for and what to do. */
function loadFailure(error: unknown, specifier: string, fromDir: string): string {
  const e = error as NodeJS.ErrnoException;
  const missing = /Cannot find package '([^']+)'/.exec(e?.message ?? "")?.[1];
  if (e?.code === "ERR_MODULE_NOT_FOUND" && missing === specifier) {
    return `it is not installed in ${path.resolve(fromDir)} or a parent folder. Install it there (npm install ${specifier}), or pass its path.`;
  }
  return (e?.message ?? String(error)).replace(/^Error: /, "");
}
