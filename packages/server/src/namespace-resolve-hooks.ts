/**
 * Module resolution hooks (installed with node:module register() before vendor namespaces load):
 * - a namespace package is resolved from the folder the server was started in, with full ESM rules
 *   (package `exports` with `import` conditions, which require.resolve cannot follow);
 * - the packages a namespace shares with the server as peers (`@grok-tools/runtime`) are resolved
 *   from the server's side. A vendor package linked for development (`npm install ../my-ns` makes a
 *   symlink, and Node resolves from the link's real path) has no runtime of its own there, and one
 *   with a dev copy would otherwise load a second runtime.
 *   When the server runs from its bundle, those peers' entries are modules re-exporting the bundle's
 *   instances (`bundledPeerModules`); a subpath without one (`/package.json`) resolves as above.
 * Everything else resolves as usual.
 */

/** Data passed by register(). */
export interface NamespaceResolveHookData {
  /** A file URL inside the server package; shared peers resolve as if imported from it. */
  serverParentUrl: string;
  /** Bare package names resolved from the server (their subpaths too). */
  sharedPeers: string[];
  /** Set when the server runs from its bundle: a shared peer's entry specifier -> the file URL of its re-exporting module. */
  bundledPeerModules?: Record<string, string>;
}

/** Prefix of the specifiers loadNamespaces imports: `grok-tools-namespace:<json {name, from}>`. */
export const NAMESPACE_SPECIFIER_PREFIX = "grok-tools-namespace:";

let data: NamespaceResolveHookData | undefined;

/** Called once by register() with its `data`. */
export function initialize(init: NamespaceResolveHookData): void {
  data = init;
}

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes?: Record<string, string>;
}

type NextResolve = (specifier: string, context?: Partial<ResolveContext>) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve) {
  if (specifier.startsWith(NAMESPACE_SPECIFIER_PREFIX)) {
    const { name, from } = JSON.parse(decodeURIComponent(specifier.slice(NAMESPACE_SPECIFIER_PREFIX.length))) as { name: string; from: string };
    return nextResolve(name, { ...context, parentURL: from });
  }
  const bundled = data?.bundledPeerModules?.[specifier];
  if (bundled !== undefined) return { url: bundled, format: "module", shortCircuit: true };
  if (data && data.sharedPeers.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    return nextResolve(specifier, { ...context, parentURL: data.serverParentUrl });
  }
  return nextResolve(specifier, context);
}
