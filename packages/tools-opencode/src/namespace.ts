/**
 * The `OpenCode` namespace: the seven OpenCode tools in the reference's registration order, and the
 * host flag its bash description reads. Built only from the runtime's public entries.
 */
import { defineNamespace, type AnyToolDefinition } from "@grok-tools/runtime";
import { bash } from "./bash/index.js";
import { read } from "./read/index.js";
import { edit } from "./edit/index.js";
import { write } from "./write/index.js";
import { grep } from "./grep/index.js";
import { glob } from "./glob/index.js";
import { todowrite } from "./todowrite/index.js";

/** OpenCode tools, in the reference's registration order (`OpenCode:skill` is not built: it needs a skills backend). */
export const openCodeTools: AnyToolDefinition[] = [bash, read, edit, write, grep, glob, todowrite];

/** The `OpenCode` namespace. */
export const openCode = defineNamespace({
  name: "OpenCode",
  apiVersion: 1,
  tools: openCodeTools,
  // The bash description picks its Unix or Windows advice by this flag (GrokBuild declares the same value).
  flags: { has_unix_utilities: process.platform !== "win32" },
});
