/**
 * @grok-tools/runtime: define tools and namespaces, register them, and run them in
 * sessions. No proto and no gRPC here; the server maps this API onto the wire.
 */
export { ErrorCode, errorCodeName, isRetryableByDefault, type ErrorCodeName } from "./errors/error-code.js";
export { ToolError, type ToolErrorOptions } from "./errors/tool-error.js";
export { Type, type Static, type TSchema, type TObject, type TProperties } from "./schema/typebox.js";
export { TOOL_KINDS, categoryOfKind, isReadOnlyKind, kindLabel, type ToolKind, type ToolCategoryName } from "./tool/tool-kind.js";
export { defaultClientName, isValidToolId, namespaceOf, toolIdError } from "./tool/tool-id.js";
export {
  defineTool,
  isToolDefinition,
  type AnyToolDefinition,
  type DescribeInput,
  type OutputFieldInfo,
  type RequirementFailure,
  type ToolDefinition,
  type ToolParamsSpec,
  type ToolResult,
  type ToolSpec,
  type ToolsetView,
} from "./tool/define-tool.js";
export { NAMESPACE_API_VERSION, defineNamespace, isNamespace, namespaceProblems, type NamespaceDefinition, type NamespaceSpec } from "./tool/define-namespace.js";
export { ToolRegistry, type RegisteredTool } from "./registry/tool-registry.js";
export { ResourceStore, defineResource, isPlainObject, isSafeKey, type ResourceCategory, type ResourceKey, type SerializedResources } from "./session/resource-store.js";
export { defineService, type ServiceKey } from "./session/session-service.js";
export { silentLogger, type Logger } from "./session/logger.js";
export { STATE_FILE_NAME, STATE_SCHEMA_VERSION, StatePersister, writeFileAtomic } from "./session/state-persister.js";
export {
  Session,
  defaultStateDir,
  paramsResource,
  sanitizeForFileName,
  type AgentInfo,
  type CompletionState,
  type ConfigChangeResult,
  type SessionOptions,
  type ToolOptionsChangeResult,
  type ToolOptionsInfo,
} from "./session/session.js";
export { PreFinalizeConfig, PreconditionError, resolveRegisteredTool, type ToolOverride } from "./session/pre-finalize-config.js";
export { describeTool, describeTools, type DescribeOptions, type OutputFieldDescriptor, type ToolDescriptor } from "./session/describe-tools.js";
export type { NameLookup, PartialOutput, SessionHandle, ToolContext, ToolNotification } from "./execute/tool-context.js";
export type { ExecuteOutcome, ExecuteRequest, ExecutionMetadataInfo, ToolErrorInfo } from "./execute/execute-types.js";
export { nearestNames } from "./execute/suggest-names.js";
export { DEFAULT_MAX_LINES_READ, DEFAULT_MAX_OUTPUT_BYTES, TruncationSettings, type TruncationConfigInput } from "./output/truncation-settings.js";
export { REPLY_TEXT_BUDGET_BYTES } from "./output/reply-budget.js";
export { describedOutputLimit, fallbackOutputLimitSpec, resolveOutputLimit, type OutputLimitSource, type OutputLimitSpec, type ResolvedOutputLimit } from "./output/output-limit.js";
export { estimateTokens } from "./output/estimate-tokens.js";
export { shapeOutput, type OutputShape } from "./output/shape-output.js";
export { TRUNCATION_MARKER, truncateHeadTail, truncateUtf8, type HeadTailResult } from "./text/head-tail.js";
export { firstProblem, describeJson, type ValueProblem } from "./validation/validate-value.js";
export { MAX_ARGUMENT_BYTES, rejectNulByte, rejectOversizedArgument } from "./validation/argument-checks.js";
export {
  BEHAVIOR_PRESETS,
  CURRENT_VERSION,
  DEFAULT_VERSION_CATALOG,
  LEGACY_0_4_10,
  RELEASE_0_1_157,
  checkPreset,
  resolveContractVersion,
  type Lifecycle,
  type PresetSpec,
  type VersionCatalog,
  type VersionResolution,
  type VersionWarningData,
} from "./finalize/behavior-presets.js";
export {
  TemplateRenderError,
  formatMaxWait,
  hasTemplateMarkers,
  renderTemplate,
  renderTemplateStrict,
  stripTemplateMarkers,
  substitutePlaceholders,
  type PlaceholderValues,
} from "./finalize/template-renderer.js";
export { HOST_TEMPLATE_FLAGS, MAX_WAIT_BLOCK_MS, descriptionContext, finalizeTools, maxWaitBlockMs, renameSchema, violationSummary } from "./finalize/finalize-tools.js";
export { FinalizedToolset } from "./finalize/finalized-toolset.js";
export type { ConfigViolation, FinalizeInput, FinalizeOutcome, FinalizedTool, ToolConfigInput, VersionWarningInfo } from "./finalize/finalize-types.js";
export {
  STATE_DIR_PLACEHOLDER,
  WORKSPACE_PLACEHOLDER,
  loadGoldenCases,
  readTree,
  runGoldenCase,
  runGoldenSuite,
  type GoldenArtifacts,
  type GoldenCase,
  type GoldenComparison,
  type GoldenRunOptions,
} from "./testing/golden.js";
export { expandTilde, resolveModelPath, sanitizeModelPathArg } from "./fs/model-path.js";
export { errorCodeOfFileReadFailure, ioErrorText, rustIoErrorText } from "./fs/io-error-text.js";
export {
  MAX_SYMLINK_HOPS,
  assertInsideRoots,
  assertNoNul,
  isWithinRoot,
  outsideRootsError,
  realPathOfHandle,
  realRoots,
  replacedWhileOpeningError,
  resolveForCreate,
  type FsScope,
} from "./fs/confinement.js";
export { PROC_FD_AVAILABLE, descriptorPath } from "./fs/descriptor-path.js";
export { CheckedDir, assertEntryName, openDirConfined, openDirUnconfined, type OpenDirOptions } from "./fs/checked-dir.js";
export { errnoCode, errnoError } from "./fs/errno.js";
export { DEFAULT_MAX_READ_BYTES, openConfined, readFileConfined, specialFileError, specialKind, type OpenedFile, type ReadResult } from "./fs/safe-read.js";
export { createFileConfined, removeFileConfined, replaceFileAtomic, writeFileConfined, type WriteResult } from "./fs/atomic-write.js";
export { TEMP_JOURNAL_DIR_NAME, TempJournal, temporaryNameFor, temporaryWriterPid, type JournalEntry, type RecoveryReport } from "./fs/temp-journal.js";
export {
  SEARCH_SANDBOX_ENV_VAR,
  SearchRoot,
  detectSearchSandbox,
  openSearchRoot,
  searchSandboxPolicy,
  type SearchLaunch,
  type SearchRootOptions,
  type SearchSandbox,
  type SearchSandboxPolicy,
} from "./fs/search-root.js";
export { decodeText, detectTextFormat, encodeText, type TextFormat } from "./fs/text-format.js";
export { PATH_LOCKS, PathLocks } from "./fs/path-lock.js";
export {
  FILE_READ_TRACKER,
  FileReadTracker,
  readTracker,
  sha256Hex,
  type CheckBeforeEditOptions,
  type FileReadRecord,
  type FileReadTrackerState,
} from "./fs/read-tracker.js";
export {
  BACKGROUND_MAX_RUNTIME_MS,
  CHILD_ENV_OVERRIDES,
  COMPLETED_TASK_TTL_MS,
  DRAIN_TIMEOUT_MS,
  HEAD_TAIL_MARKER,
  ISOLATION_ENV_VAR,
  KILL_GRACE_MS,
  MAX_LOG_FILE_BYTES,
  MAX_OUTPUT_BYTES_BEFORE_KILL,
  MAX_RUNNING_TASKS_PER_SESSION,
  MAX_QUEUED_TASKS_PER_SESSION,
  MAX_QUEUE_WAIT_MS,
  QUEUE_RETRY_AFTER_MS,
  MAX_SNAPSHOT_BYTES,
  MAX_TASK_TOMBSTONES,
  OUTPUT_NOTIFY_INTERVAL_MS,
  OutputBuffer,
  PROCESS_GROUP_ISOLATION,
  PROCESS_MARKER_ENV,
  ProcessTask,
  REAP_GRACE_MS,
  RunningProcess,
  SECRET_ENV_NAMES,
  TaskManager,
  addSecretEnvNames,
  childEnvironment,
  detectProcessIsolation,
  notificationSnapshot,
  readTaskLog,
  resolveShell,
  taskManagerService,
  uuidV7,
  type CommandSpec,
  type ForegroundOutcome,
  type ForegroundSpec,
  type KillOutcome,
  type KillReason,
  type ProcessExit,
  type ProcessIsolation,
  type SpawnCommandOptions,
  type TaskResult,
  type TaskSnapshot,
  type WaitOutcome,
} from "./tasks/index.js";
export { parseJsonLikeSerde, type SerdeJsonParse } from "./validation/serde-json-error.js";
export { assertToolOutput, validateToolOutput, type OutputSchemaProblem } from "./output/validate-output.js";
export {
  DEFAULT_STREAM_CHUNK_SIZE_BYTES,
  MAX_STREAM_CHUNK_SIZE_BYTES,
  MIN_STREAM_CHUNK_SIZE_BYTES,
  chunkUtf8,
  validateStreamChunkSize,
  type Utf8Chunk,
} from "./output/stream-chunks.js";
export { DEFAULT_REMINDER_TAG, defineReminder, formatWithReminders, wrapReminder, type ReminderContext, type ReminderDefinition } from "./reminders/reminder.js";
export {
  TODO_NUDGE_CALLS_BETWEEN_NUDGES,
  TODO_NUDGE_CALLS_SINCE_TODO_WRITE,
  TODO_NUDGE_TEMPLATE,
  todoNudgeReminder,
  todoNudgeStateResource,
  type TodoNudgeState,
} from "./reminders/todo-nudge.js";
export {
  COMPLETION_PREVIEW_BYTES,
  MAX_INLINE_COMPLETION_BYTES,
  consumedCompletionIds,
  formatBashCompletion,
  formatRunningTasksWarning,
  reportedTaskCompletionsResource,
  taskCompletionReminder,
  truncateWithPreview,
} from "./reminders/task-completion.js";
export {
  AgentDefinitionError,
  loadAgentDefinition,
  parseAgentDefinition,
  type AgentCompletionRequirement,
  type AgentDefinition,
  type AgentToolRetryConfig,
} from "./agent/agent-definition.js";
export { coerceKeys, dropNullKeys, lenientBool, lenientInteger, lenientOptionalInteger, lenientStringList, normalizeKey } from "./validation/lenient.js";
