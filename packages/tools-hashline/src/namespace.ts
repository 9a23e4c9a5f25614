/**
 * The `GrokBuildHashline` namespace: hashline_read, hashline_edit, hashline_grep sharing the
 * `hashline_scheme_params` resource, and the rule refusing them next to the standard file bundle.
 */
import { defineNamespace, type AnyToolDefinition } from "@grok-tools/runtime";
import { hashlineRead } from "./hashline-read/index.js";
import { hashlineEdit } from "./hashline-edit/index.js";
import { hashlineGrep } from "./hashline-grep/index.js";
import { fileToolsetConflictRule } from "./shared/file-toolset-rule.js";

/** The hashline tools in the reference's registration order. */
export const hashlineTools: AnyToolDefinition[] = [hashlineRead, hashlineEdit, hashlineGrep];

/** The `GrokBuildHashline` namespace. */
export const grokBuildHashline = defineNamespace({ name: "GrokBuildHashline", apiVersion: 1, tools: hashlineTools, toolsetRules: [fileToolsetConflictRule] });
