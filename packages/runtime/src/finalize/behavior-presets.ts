/**
 * Behaviour presets and per-tool contract versions (spec §3.5): which version of a
 * managed tool a session gets, and the exact error texts when a choice is invalid.
 */

export const CURRENT_VERSION = "current";
export const LEGACY_0_4_10 = "legacy-0.4.10";

/** Lifecycle of a preset or version. All are Active today; the others exist for the messages. */
export type Lifecycle = { status: "active" } | { status: "deprecated"; note?: string; replacement: string } | { status: "removal_candidate"; replacement: string };

interface PresetSpec {
  lifecycle: Lifecycle;
  /** fq id → version; tools not listed fall back to `current`. */
  versions: Record<string, string>;
}

const LEGACY_TOOLS = [
  "GrokBuild:run_terminal_cmd",
  "GrokBuild:read_file",
  "GrokBuild:search_replace",
  "GrokBuild:get_task_output",
  "GrokBuild:kill_task",
  "GrokBuild:list_dir",
];

const PRESETS: Record<string, PresetSpec> = {
  current: { lifecycle: { status: "active" }, versions: {} },
  [LEGACY_0_4_10]: { lifecycle: { status: "active" }, versions: Object.fromEntries(LEGACY_TOOLS.map((id) => [id, LEGACY_0_4_10])) },
  "release-0.1.157": { lifecycle: { status: "active" }, versions: {} },
};

/** Names of the registered presets. */
export const BEHAVIOR_PRESETS: readonly string[] = Object.keys(PRESETS);

/** Result of resolving a tool's contract version. */
export type VersionResolution =
  | { ok: true; version: string; warning?: { deprecatedVersion: string; replacement: string; message: string } }
  | { ok: false; message: string };

/** Checks a preset name; returns the error message or a deprecation warning. */
export function checkPreset(preset: string): { error?: string; warning?: { deprecatedVersion: string; replacement: string; message: string } } {
  const spec = PRESETS[preset];
  if (!spec || !Object.hasOwn(PRESETS, preset)) return { error: `unknown behavior_preset: "${preset}"` };
  if (spec.lifecycle.status === "removal_candidate") return { error: `behavior_preset "${preset}" is scheduled for removal and cannot be used` };
  if (spec.lifecycle.status === "deprecated") {
    return {
      warning: {
        deprecatedVersion: preset,
        replacement: spec.lifecycle.replacement,
        message: `behavior_preset "${preset}" is deprecated and will be removed in a future release`,
      },
    };
  }
  return {};
}

/**
 * The contract version of one tool: the override, else the preset's pick, else `current`;
 * "" for unmanaged tools (those without `supported`).
 */
export function resolveContractVersion(
  preset: string,
  fqId: string,
  supported: readonly string[] | undefined,
  override: string | undefined,
): VersionResolution {
  if (!supported) {
    if (override !== undefined && override !== "") return { ok: false, message: `behavior_version override not allowed for unmanaged tool "${fqId}"` };
    return { ok: true, version: "" };
  }
  const wanted = override !== undefined && override !== "" ? override : (PRESETS[preset]?.versions[fqId] ?? CURRENT_VERSION);
  const version = supported.includes(wanted) ? wanted : override !== undefined && override !== "" ? wanted : CURRENT_VERSION;
  if (!supported.includes(version)) {
    return { ok: false, message: `version "${version}" is not supported for tool "${fqId}"; supported versions: [${supported.join(", ")}]` };
  }
  return { ok: true, version };
}
