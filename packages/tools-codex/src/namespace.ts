/**
 * The Codex namespace (spec §4.13): apply_patch, read_file, list_dir, grep_files.
 */
import { defineNamespace, type AnyToolDefinition } from "@grok-tools/runtime";
import { applyPatch } from "./apply-patch/index.js";
import { grepFiles } from "./grep-files/index.js";
import { listDir } from "./list-dir/index.js";
import { readFile } from "./read-file/index.js";

/** Codex tools, in registration order. */
export const codexTools: AnyToolDefinition[] = [applyPatch, listDir, grepFiles, readFile];

/** The `Codex` namespace. */
export const codex = defineNamespace({ name: "Codex", apiVersion: 1, tools: codexTools });
