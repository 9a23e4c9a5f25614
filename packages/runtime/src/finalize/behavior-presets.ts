/**
 * Behaviour presets and per-tool contract versions (spec §3.5, reference `versions.rs`):
 * which version of a managed tool a session gets, and the exact texts when a choice is
 * invalid or deprecated. Managed tools are those that declare `contractVersions`.
 */

export const CURRENT_VERSION = "current";
export const LEGACY_0_4_10 = "legacy-0.4.10";
export const RELEASE_0_1_157 = "release-0.1.157";

/** Lifecycle of a preset or a tool version. Everything is Active today; the rest exists for the messages. */
export type Lifecycle =
  | { status: "active" }
  | { status: "deprecated"; note?: string; replacement?: string }
  | { status: "removal_candidate"; replacement?: string };

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

const MANAGED_TOOLS = [
  "GrokBuild:run_terminal_cmd",
  "GrokBuild:read_file",
  "GrokBuild:search_replace",
  "GrokBuild:list_dir",
  "GrokBuild:grep",
  "GrokBuild:kill_task",
  "GrokBuild:get_task_output",
];

const LEGACY_TOOLS = [
  "GrokBuild:run_terminal_cmd",
  "GrokBuild:read_file",
  "GrokBuild:search_replace",
  "GrokBuild:get_task_output",
  "GrokBuild:kill_task",
  "GrokBuild:list_dir",
];

/** The reference's presets: `current`, `legacy-0.4.10` and `release-0.1.157`, all Active. */
export const DEFAULT_VERSION_CATALOG: VersionCatalog = Object.freeze({
  presets: Object.freeze({
    [CURRENT_VERSION]: { lifecycle: { status: "active" }, toolDefaults: {} },
    [LEGACY_0_4_10]: { lifecycle: { status: "active" }, toolDefaults: Object.fromEntries(LEGACY_TOOLS.map((id) => [id, LEGACY_0_4_10])) },
    [RELEASE_0_1_157]: { lifecycle: { status: "active" }, toolDefaults: Object.fromEntries(MANAGED_TOOLS.map((id) => [id, CURRENT_VERSION])) },
  } satisfies Record<string, PresetSpec>),
});

/** Names of the registered presets. */
export const BEHAVIOR_PRESETS: readonly string[] = Object.keys(DEFAULT_VERSION_CATALOG.presets);

/** A deprecation warning (proto `VersionWarning`). */
export interface VersionWarningData {
  fqToolId: string;
  deprecatedVersion: string;
  replacement: string;
  message: string;
}

/** Result of resolving a tool's contract version. */
export type VersionResolution =
  | { ok: true; version: string; warnings: VersionWarningData[] }
  | { ok: false; message: string };

/** Checks a preset name: the error message, or a deprecation warning. */
export function checkPreset(preset: string, catalog: VersionCatalog = DEFAULT_VERSION_CATALOG): { error?: string; warning?: VersionWarningData } {
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
  catalog: VersionCatalog = DEFAULT_VERSION_CATALOG,
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
    return { ok: false, message: `behavior_version "${wanted}" for tool "${fqId}" is scheduled for removal. Use "${lifecycle.replacement ?? CURRENT_VERSION}" instead.` };
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
