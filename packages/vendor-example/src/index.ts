/**
 * The Acme namespace of packages/runtime/README.md, as written there (a test checks they match):
 * a tool with a resource, a reminder and a toolset rule, built only from the runtime's root entry.
 */
import { ErrorCode, Type, ToolError, defineNamespace, defineReminder, defineResource, defineTool, defineToolsetRule } from "@grok-tools/runtime";

// State that survives restarts and travels in GetToolState (`state` / `acme.Shouts`).
const shouts = defineResource<{ count: number }>({
  id: "acme.Shouts",
  category: "state",
  initial: () => ({ count: 0 }),
});

const shout = defineTool({
  id: "shout",
  kind: "other",
  description: "Upper-cases text. Output is capped at {max_output_bytes} bytes.",
  input: Type.Object({ text: Type.String({ description: "What to shout." }) }),
  output: Type.Object({ type: Type.Literal("Shout"), text: Type.String() }),
  resources: [shouts],
  async execute({ text }, ctx) {
    if (text === "") throw new ToolError(ErrorCode.INVALID_INPUT, "text is empty", { suggestion: "Send some text." });
    ctx.session.resources.update(shouts, (s) => ({ count: s.count + 1 }));
    const loud = text.toUpperCase().slice(0, ctx.outputLimit);
    return { output: { type: "Shout" as const, text: loud }, promptText: loud };
  },
});

// After every third shout (while system reminders are on), a reminder is appended to prompt_text.
const calmDown = defineReminder({
  id: "acme.calm_down",
  resources: [shouts],
  isActive: (toolset) => toolset.hasTool("Acme:shout"),
  collect: (ctx) => (ctx.tool.fqId === "Acme:shout" && ctx.session.resources.get(shouts).count % 3 === 0 ? ["That is a lot of shouting."] : []),
});

// Finalize refuses a toolset that has Acme:shout without some read tool.
const needsReader = defineToolsetRule({
  id: "acme_needs_reader",
  check: (toolset) => (toolset.hasTool("Acme:shout") && !toolset.hasKind("read") ? [{ message: "Acme:shout needs a read tool in the toolset." }] : []),
});

export default defineNamespace({ name: "Acme", apiVersion: 1, tools: [shout], reminders: [calmDown], toolsetRules: [needsReader] });
