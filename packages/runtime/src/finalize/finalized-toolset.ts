/**
 * A session's locked toolset: lookups by client name and the kind-wide name maps that
 * descriptions and runtime messages use (spec §2.7).
 */
import type { ToolsetView } from "../tool/define-tool.js";
import type { ToolsetEntry } from "../tool/toolset-view.js";
import type { ToolKind } from "../tool/tool-kind.js";
import type { FinalizedTool } from "./finalize-types.js";

/** Finalized tools in config order, with name maps. */
export class FinalizedToolset implements ToolsetView {
  readonly tools: readonly FinalizedTool[];
  readonly #byClientName = new Map<string, FinalizedTool>();
  readonly #toolByKind = new Map<ToolKind, string>();
  readonly #paramsByKind = new Map<ToolKind, Record<string, string>>();

  constructor(tools: readonly FinalizedTool[]) {
    this.tools = tools;
    for (const tool of tools) {
      this.#byClientName.set(tool.clientName, tool);
      const kind = tool.definition.kind;
      if (!this.#toolByKind.has(kind)) this.#toolByKind.set(kind, tool.clientName);
    }
    this.#paramsByKind = buildKindParamMaps(tools);
  }

  get toolIds(): readonly string[] {
    return this.tools.map((t) => t.fqId);
  }

  byClientName(name: string): FinalizedTool | undefined {
    return this.#byClientName.get(name);
  }

  byFqId(fqId: string): FinalizedTool | undefined {
    return this.tools.find((t) => t.fqId === fqId);
  }

  hasKind(kind: ToolKind): boolean {
    return this.#toolByKind.has(kind);
  }

  hasTool(fqId: string): boolean {
    return this.tools.some((t) => t.fqId === fqId);
  }

  paramsOf(fqId: string): unknown {
    return this.byFqId(fqId)?.params;
  }

  clientNameOfKind(kind: ToolKind): string | undefined {
    return this.#toolByKind.get(kind);
  }

  entries(): readonly ToolsetEntry[] {
    return this.tools.map((t) => ({ fqId: t.fqId, clientName: t.clientName, kind: t.definition.kind }));
  }

  /** Client name of a parameter across all tools of a kind; the canonical name when unmapped. */
  paramNameOfKind(kind: ToolKind, canonical: string): string {
    return this.#paramsByKind.get(kind)?.[canonical] ?? canonical;
  }

  /** `{ kind: { canonical: client } }` for templates. */
  kindParamMaps(): Record<string, Record<string, string>> {
    return Object.fromEntries(this.#paramsByKind);
  }

  /** `{ kind: clientName }` for templates. */
  kindToolNames(): Record<string, string> {
    return Object.fromEntries(this.#toolByKind);
  }

  /** Client names, for "did you mean" suggestions. */
  clientNames(): string[] {
    return [...this.#byClientName.keys()];
  }
}

/**
 * Kind-wide param maps: identity entries are seeded only where no entry exists yet, then each
 * tool's overrides apply, so a later tool's identity never hides an earlier override (spec §13.17).
 */
export function buildKindParamMaps(
  tools: readonly Pick<FinalizedTool, "definition" | "paramNames" | "canonicalInputSchema">[],
): Map<ToolKind, Record<string, string>> {
  const maps = new Map<ToolKind, Record<string, string>>();
  for (const tool of tools) {
    const kind = tool.definition.kind;
    const map = maps.get(kind) ?? {};
    const properties = (tool.canonicalInputSchema as { properties?: Record<string, unknown> }).properties ?? {};
    for (const name of Object.keys(properties)) if (!Object.hasOwn(map, name)) map[name] = name;
    for (const [canonical, client] of Object.entries(tool.paramNames)) if (client !== canonical) map[canonical] = client;
    maps.set(kind, map);
  }
  return maps;
}
