/**
 * GrokBuild's behaviour versions and presets (spec §3.5, reference `versions.rs`): which version
 * of each managed tool the `legacy-0.4.10` and `release-0.1.157` presets pick. Declared on the
 * namespace; the runtime folds them into its preset catalog.
 */
import { CURRENT_VERSION, type NamespacePreset } from "@grok-tools/runtime";

/** The behaviour of release 0.4.10 (a tool's `contractVersions` entry and a preset name). */
export const LEGACY_0_4_10 = "legacy-0.4.10";
/** The preset that pins every managed tool to `current` as of release 0.1.157. */
export const RELEASE_0_1_157 = "release-0.1.157";

const MANAGED_TOOLS = ["run_terminal_cmd", "read_file", "search_replace", "list_dir", "grep", "kill_task", "get_task_output"];
const LEGACY_TOOLS = ["run_terminal_cmd", "read_file", "search_replace", "get_task_output", "kill_task", "list_dir"];

/** The presets GrokBuild declares (all Active). */
export const GROK_BUILD_PRESETS: Readonly<Record<string, NamespacePreset>> = Object.freeze({
  [LEGACY_0_4_10]: { tools: Object.fromEntries(LEGACY_TOOLS.map((id) => [id, LEGACY_0_4_10])) },
  [RELEASE_0_1_157]: { tools: Object.fromEntries(MANAGED_TOOLS.map((id) => [id, CURRENT_VERSION])) },
});
