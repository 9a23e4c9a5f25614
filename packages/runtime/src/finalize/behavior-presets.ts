/**
 * Behaviour presets and per-tool contract versions (spec §3.5, reference `versions.rs`):
 * which version of a managed tool a session gets, and the exact texts when a choice is
 * invalid or deprecated. Managed tools are those that declare `contractVersions`; which presets
 * exist and what they pick is declared by the namespaces (`defineNamespace({ presets })`).
 */
import type { Lifecycle } from "../tool/preset.js";
import type { NamespaceDefinition } from "../tool/define-namespace.js";

/** The version every managed tool has, and the default preset. */
export const CURRENT_VERSION = "current";
export type { Lifecycle };

/** A behaviour preset: its lifecycle and the version it picks per fq tool id. */
export interface PresetSpec {
  lifecycle: Lifecycle;
  /** fq id → version; managed tools not listed get `current`. */
  toolDefaults: Readonly<Record<string, string>>;
}

/** The presets and version lifecycles a resolution consults (injectable for tests). */
export interface VersionCatalog {
  presets: Readonly<Record<string, PresetSpec>>;
  /** fq id → version → lifecycle; versions not listed are Active. */
  versionLifecycles?: Readonly<Record<string, Readonly<Record<string, Lifecycle>>>>;
}

/** The catalog of a runtime with no namespace presets: `current` only. */
export const BASE_VERSION_CATALOG: VersionCatalog = Object.freeze({
  presets: Object.freeze({ [CURRENT_VERSION]: { lifecycle: { status: "active" }, toolDefaults: {} } } satisfies Record<string, PresetSpec>),
});

const SEVERITY = { active: 0, deprecated: 1, removal_candidate: 2 } as const;

/**
 * The catalog of these namespaces: `current`, plus every preset a namespace declares, its tool
 * picks qualified by the namespace's name, and the most severe lifecycle declared for it.
 */
export function versionCatalogOf(namespaces: readonly NamespaceDefinition[]): VersionCatalog {
  const presets: Record<string, { lifecycle: Lifecycle; toolDefaults: Record<string, string> }> = {
    [CURRENT_VERSION]: { lifecycle: { status: "active" }, toolDefaults: {} },
  };
  const versionLifecycles: Record<string, Record<string, Lifecycle>> = {};
  for (const ns of namespaces) {
    for (const [name, declared] of Object.entries(ns.presets ?? {})) {
      const preset = (presets[name] ??= { lifecycle: { status: "active" }, toolDefaults: {} });
      if (declared.lifecycle && SEVERITY[declared.lifecycle.status] > SEVERITY[preset.lifecycle.status]) preset.lifecycle = declared.lifecycle;
      for (const [tool, version] of Object.entries(declared.tools)) preset.toolDefaults[`${ns.name}:${tool}`] = version;
    }
    for (const [tool, versions] of Object.entries(ns.versionLifecycles ?? {})) versionLifecycles[`${ns.name}:${tool}`] = { ...versions };
  }
  return { presets, ...(Object.keys(versionLifecycles).length > 0 ? { versionLifecycles } : {}) };
}

/** A deprecation warning (proto `VersionWarning`). */
export interface VersionWarningData {
  fqToolId: string;
  deprecatedVersion: string;
  replacement: string;
  message: string;
}

/** Result of resolving a tool's contract version. */
export type VersionResolution = { ok: true; version: string; warnings: VersionWarningData[] } | { ok: false; message: string };

/** Checks a preset name: the error message, or a deprecation warning. */
export function checkPreset(preset: string, catalog: VersionCatalog = BASE_VERSION_CATALOG): { error?: string; warning?: VersionWarningData } {
  const spec = Object.hasOwn(catalog.presets, preset) ? catalog.presets[preset] : undefined;
  if (!spec) return { error: `unknown behavior_preset: "${preset}"` };
  if (spec.lifecycle.status === "removal_candidate") return { error: `behavior_preset "${preset}" is scheduled for removal and cannot be used` };
  if (spec.lifecycle.status === "deprecated") {
    return {
      warning: {
        fqToolId: "",
        deprecatedVersion: preset,
        replacement: CURRENT_VERSION,
        message: `behavior_preset "${preset}" is deprecated and will be removed in a future release`,
      },
    };
  }
  return {};
}

/**
 * The contract version of one tool (reference `resolve_version_with_warnings`): preset check,
 * then an override on an unmanaged tool is an error, unmanaged tools get "" , then the
 * override, else the preset's pick, else `current`. `supported` is the tool's
 * `contractVersions` (undefined = unmanaged); an override is "given" when not undefined,
 * even when empty.
 */
export function resolveContractVersion(
  preset: string,
  fqId: string,
  supported: readonly string[] | undefined,
  override: string | undefined,
  catalog: VersionCatalog = BASE_VERSION_CATALOG,
): VersionResolution {
  const presetCheck = checkPreset(preset, catalog);
  if (presetCheck.error) return { ok: false, message: presetCheck.error };
  const warnings = presetCheck.warning ? [presetCheck.warning] : [];
  if (supported === undefined) {
    if (override !== undefined) return { ok: false, message: `behavior_version override not allowed for unmanaged tool "${fqId}"` };
    return { ok: true, version: "", warnings };
  }
  const presetSpec = catalog.presets[preset]!;
  const wanted = override ?? (Object.hasOwn(presetSpec.toolDefaults, fqId) ? presetSpec.toolDefaults[fqId] : undefined);
  if (wanted === undefined) return { ok: true, version: CURRENT_VERSION, warnings };
  if (!supported.includes(wanted)) {
    return { ok: false, message: `version "${wanted}" is not supported for tool "${fqId}"; supported versions: [${supported.join(", ")}]` };
  }
  const lifecycle = catalog.versionLifecycles?.[fqId]?.[wanted] ?? { status: "active" as const };
  if (lifecycle.status === "removal_candidate") {
    return {
      ok: false,
      message: `behavior_version "${wanted}" for tool "${fqId}" is scheduled for removal. Use "${lifecycle.replacement ?? CURRENT_VERSION}" instead.`,
    };
  }
  if (lifecycle.status === "deprecated") {
    const replacement = lifecycle.replacement ?? CURRENT_VERSION;
    warnings.push({
      fqToolId: fqId,
      deprecatedVersion: wanted,
      replacement,
      message: `${fqId} version '${wanted}' is deprecated: ${lifecycle.note ?? "no details"}. Use '${replacement}' instead.`,
    });
  }
  return { ok: true, version: wanted, warnings };
}
