/**
 * @grok-tools/runtime/helpers: small helpers tool code shares: lenient input coercion, argument
 * checks, text truncation and token estimates, plain-object checks, the wait cap of descriptions,
 * host facts (a command on PATH, WSL, whole numbers of the environment).
 */
export { coerceKeys, dropNullKeys, lenientBool, lenientInteger, lenientOptionalInteger, lenientStringList, normalizeKey } from "./validation/lenient.js";
export { MAX_ARGUMENT_BYTES, rejectNulByte, rejectOversizedArgument } from "./validation/argument-checks.js";
export { parseJsonLikeSerde, type SerdeJsonParse } from "./validation/serde-json-error.js";
export { firstProblem, describeJson, type ValueProblem } from "./validation/validate-value.js";
export { TRUNCATION_MARKER, truncateHeadTail, truncateUtf8, type HeadTailResult } from "./text/head-tail.js";
export { estimateTokens } from "./output/estimate-tokens.js";
export { REPLY_TEXT_BUDGET_BYTES } from "./output/reply-budget.js";
export { DEFAULT_MAX_OUTPUT_BYTES } from "./output/output-limit.js";
export { DEFAULT_MAX_LINES_READ } from "./output/truncation-settings.js";
export { isPlainObject, isSafeKey } from "./core/plain-object.js";
export { uuidV7 } from "./core/uuid.js";
export { findOnPath, isWsl, wholeNumberFromEnv, type FindOnPathOptions } from "./core/host-facts.js";
export { silentLogger } from "./core/logger.js";
export { MAX_WAIT_BLOCK_MS, maxWaitBlockMs } from "./finalize/finalize-tools.js";
export { formatMaxWait, renderTemplate, stripTemplateMarkers, substitutePlaceholders, type PlaceholderValues } from "./finalize/template-renderer.js";
export { formatWithReminders, wrapReminder, DEFAULT_REMINDER_TAG } from "./tool/reminder.js";
export { TOOL_KINDS, categoryOfKind, isReadOnlyKind, kindLabel, type ToolCategoryName } from "./tool/tool-kind.js";
export { defaultClientName, isValidToolId, namespaceOf, toolIdError } from "./tool/tool-id.js";
export { errorCodeName, isRetryableByDefault, type ErrorCodeName } from "./errors/error-code.js";
export type { ToolErrorOptions } from "./errors/tool-error.js";
export type { NameLookup, PartialOutput } from "./tool/tool-context.js";
export type { ResourceCategory } from "./tool/resource.js";
export type { ResourceStore } from "./session/resource-store.js";
export type { TObject, TProperties } from "./schema/typebox.js";
export { sanitizeForFileName } from "./session/session.js";
export { SubagentHostSlot, type SubagentRunResult, type SubagentSpawnRequest } from "./tool/subagent-host.js";
export type { ToolsetEntry } from "./tool/toolset-view.js";
