/**
 * @acme/grok-tools-acme: the `Acme` namespace. The server loads it with
 * `grok-tools-server --namespace @acme/grok-tools-acme`; the default export is all it looks at.
 */
import { defineNamespace } from "@grok-tools/runtime";
import { wordCount } from "./word-count/index.js";

export { wordCount };

export default defineNamespace({ name: "Acme", apiVersion: 1, tools: [wordCount] });
