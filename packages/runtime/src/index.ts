/**
 * @grok-tools/runtime: the namespace author's API. Declare tools, their resources and services,
 * reminders, toolset rules and presets, and publish them as a namespace. Nothing here runs a
 * session: the server does that through `@grok-tools/runtime/host`. File operations are in
 * `/fs`, small input and output helpers in `/helpers`, the golden runner in `/testing`.
 */

/** Declares a tool: id, kind, description, TypeBox input/output, params, truncation and `execute`. */
export { defineTool } from "./tool/define-tool.js";
/** Declares a namespace: its tools and the reminders, presets, toolset rules and flags it brings. */
export { defineNamespace } from "./tool/define-namespace.js";
/** The namespace contract version `defineNamespace` expects in `apiVersion`. */
export { NAMESPACE_API_VERSION } from "./tool/define-namespace.js";
/** Declares a serializable resource (params or state) with a stable id; it travels in GetToolState. */
export { defineResource } from "./tool/resource.js";
/** Declares a per-session service: created on first use, disposed when the session closes. */
export { defineService } from "./tool/service.js";
/** The session service through which a tool asks the host to run a child agent (spec §7.4). */
export { subagentHostService } from "./tool/subagent-host.js";
/** Declares a system reminder collected after successful calls. */
export { defineReminder } from "./tool/reminder.js";
/** Declares a finalize-time rule over the whole requested toolset. */
export { defineToolsetRule } from "./tool/toolset-rule.js";
/** The one way a tool fails: a code, a message for the model, a suggestion. */
export { ToolError } from "./errors/tool-error.js";
/** The error codes of the wire contract. */
export { ErrorCode } from "./errors/error-code.js";
/** TypeBox's builder, re-exported so that every package shares one copy. */
export { Type } from "./schema/typebox.js";
/** The version every managed tool supports and the default behaviour preset. */
export { CURRENT_VERSION } from "./finalize/behavior-presets.js";

/** A tool's full declaration (what `defineTool` takes). */
export type { ToolSpec } from "./tool/define-tool.js";
/** A declared tool. */
export type { ToolDefinition } from "./tool/define-tool.js";
/** Any declared tool, whatever its generic parameters. */
export type { AnyToolDefinition } from "./tool/define-tool.js";
/** What a successful call returns: output, prompt text, truncation flag. */
export type { ToolResult } from "./tool/define-tool.js";
/** Input of description, schema and requirement builders. */
export type { DescribeInput } from "./tool/define-tool.js";
/** A failed finalize requirement or params check. */
export type { RequirementFailure } from "./tool/define-tool.js";
/** The finalize-time params of a tool. */
export type { ToolParamsSpec } from "./tool/define-tool.js";
/** An output field as advertised in ToolInfo. */
export type { OutputFieldInfo } from "./tool/define-tool.js";
/** How a tool's output limit is keyed and what it is by default. */
export type { OutputLimitSpec } from "./output/output-limit.js";
/** What a running tool may touch: cwd, params, limits, cancellation, names, session, notifications. */
export type { ToolContext } from "./tool/tool-context.js";
/** The session as a tool sees it: roots, resources, services, truncation. */
export type { SessionHandle } from "./tool/tool-context.js";
/** A host that runs child agents: `spawn(request, signal)` lasts the child's whole run. */
export type { SubagentHost } from "./tool/subagent-host.js";
/** A notification to the host. */
export type { ToolNotification } from "./tool/tool-context.js";
/** What a tool, reminder or rule sees of the finalized toolset. */
export type { ToolsetView } from "./tool/toolset-view.js";
/** The kinds a tool may have (`read`, `execute`, `plan`, ...). */
export type { ToolKind } from "./tool/tool-kind.js";
/** A typed handle on a resource. */
export type { ResourceKey } from "./tool/resource.js";
/** A typed handle on a session service. */
export type { ServiceKey } from "./tool/service.js";
/** A system reminder. */
export type { ReminderDefinition } from "./tool/reminder.js";
/** What a reminder sees after a successful call. */
export type { ReminderContext } from "./tool/reminder.js";
/** A toolset rule. */
export type { ToolsetRule } from "./tool/toolset-rule.js";
/** One reason a toolset rule refuses a toolset. */
export type { ToolsetRuleFailure } from "./tool/toolset-rule.js";
/** A namespace declaration (what `defineNamespace` takes). */
export type { NamespaceSpec } from "./tool/define-namespace.js";
/** A declared namespace. */
export type { NamespaceDefinition } from "./tool/define-namespace.js";
/** One behaviour preset's picks in a namespace. */
export type { NamespacePreset } from "./tool/preset.js";
/** Lifecycle of a preset or a tool version. */
export type { Lifecycle } from "./tool/preset.js";
/** The static type of a TypeBox schema. */
export type { Static } from "./schema/typebox.js";
/** Any TypeBox schema. */
export type { TSchema } from "./schema/typebox.js";
/** The logging surface (a subset of pino's). */
export type { Logger } from "./core/logger.js";
