/**
 * Behaviour presets as a namespace declares them (spec §3.5): for each preset name, the contract
 * version it picks for some of the namespace's managed tools. The runtime folds the declarations of
 * every registered namespace into one catalog; `current` always exists and picks `current`.
 */

/** Lifecycle of a preset or a tool version. Everything is Active today; the rest exists for the messages. */
export type Lifecycle =
  { status: "active" } | { status: "deprecated"; note?: string; replacement?: string } | { status: "removal_candidate"; replacement?: string };

/** One preset's part in a namespace. */
export interface NamespacePreset {
  /** The preset's lifecycle (default active); the most severe one any namespace declares wins. */
  lifecycle?: Lifecycle;
  /** Unqualified tool id → the version this preset picks; managed tools not listed get `current`. */
  tools: Readonly<Record<string, string>>;
}
