/**
 * The GrokBuild namespace: the tools listed in registration order (spec §2.2).
 */
import { defineNamespace, type AnyToolDefinition } from "@grok-tools/runtime";

/** GrokBuild tools, in the reference's registration order. */
export const grokBuildTools: AnyToolDefinition[] = [
];

/** The `GrokBuild` namespace. */
export const grokBuild = defineNamespace({ name: "GrokBuild", apiVersion: 1, tools: grokBuildTools });

/** GrokBuildConcise tools (the concise twins). */
export const grokBuildConciseTools: AnyToolDefinition[] = [
];

/** The `GrokBuildConcise` namespace. */
export const grokBuildConcise = defineNamespace({ name: "GrokBuildConcise", apiVersion: 1, tools: grokBuildConciseTools });
