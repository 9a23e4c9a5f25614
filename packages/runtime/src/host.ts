/**
 * @grok-tools/runtime/host: what a server needs to run sessions: the registry, Session
 * construction, finalize, describe, execute, state, the deprecated configuration and agent RPCs,
 * agent definitions, stream chunking and the namespace loader's checks.
 */
export { ToolRegistry, type RegisteredTool } from "./registry/tool-registry.js";
export { isNamespace, namespaceProblems } from "./tool/define-namespace.js";
export { Session, defaultStateDir, sanitizeForFileName, type SessionOptions } from "./session/session.js";
export { ResourceStore, type SerializedResources } from "./session/resource-store.js";
export { CALL_RESULTS_FILE_NAME, DEFAULT_CALL_RESULTS_MAX_AGE_MS, DEFAULT_CALL_RESULTS_MAX_ENTRIES, type CallResultsLimits } from "./session/call-results.js";
export { STATE_FILE_NAME, STATE_SCHEMA_VERSION, StatePersister, writeFileAtomic } from "./session/state-persister.js";
export {
  ToolsetConfiguration,
  paramsResource,
  type ConfigChangeResult,
  type ConfigurationHost,
  type ConfigurationOptions,
  type StateNotSaved,
  type ToolOptionsChangeResult,
  type ToolOptionsInfo,
} from "./toolset-config/toolset-configuration.js";
export { PreFinalizeConfig, PreconditionError, resolveRegisteredTool, type ToolOverride } from "./toolset-config/pre-finalize-config.js";
export {
  describeTool,
  describeTools,
  type DescribableSession,
  type DescribeOptions,
  type OutputFieldDescriptor,
  type ToolDescriptor,
} from "./toolset-config/describe-tools.js";
export { AgentSession, type AgentInfo, type CompletionState } from "./agent/agent-session.js";
export {
  AgentDefinitionError,
  loadAgentDefinition,
  parseAgentDefinition,
  type AgentCompletionRequirement,
  type AgentDefinition,
  type AgentToolRetryConfig,
} from "./agent/agent-definition.js";
export { CallCancellation, type CallAbortListener, type CallSignal, type CancelSource } from "./execute/call-cancellation.js";
export type { CallHost } from "./execute/call-host.js";
export type { ExecuteOutcome, ExecuteRequest, ExecutionMetadataInfo, ToolErrorInfo } from "./execute/execute-types.js";
export { nearestNames } from "./execute/suggest-names.js";
export { TruncationSettings, describedOutputLimit, resolveOutputLimit, type TruncationConfigInput } from "./output/truncation-settings.js";
export { fallbackOutputLimitSpec, type OutputLimitSource, type ResolvedOutputLimit } from "./output/output-limit.js";
export { shapeOutput, type OutputShape } from "./output/shape-output.js";
export { assertToolOutput, validateToolOutput, type OutputSchemaProblem } from "./output/validate-output.js";
export {
  DEFAULT_STREAM_CHUNK_SIZE_BYTES,
  MAX_STREAM_CHUNK_SIZE_BYTES,
  MIN_STREAM_CHUNK_SIZE_BYTES,
  chunkUtf8,
  validateStreamChunkSize,
  type Utf8Chunk,
} from "./output/stream-chunks.js";
export {
  BASE_VERSION_CATALOG,
  checkPreset,
  resolveContractVersion,
  versionCatalogOf,
  type PresetSpec,
  type VersionCatalog,
  type VersionResolution,
  type VersionWarningData,
} from "./finalize/behavior-presets.js";
export { descriptionContext, finalizeTools, renameSchema, violationSummary, type FinalizeEnvironment } from "./finalize/finalize-tools.js";
export { FinalizedToolset } from "./finalize/finalized-toolset.js";
export type { ConfigViolation, FinalizeInput, FinalizeOutcome, FinalizedTool, ToolConfigInput, VersionWarningInfo } from "./finalize/finalize-types.js";
export { TemplateRenderError, hasTemplateMarkers, renderTemplateStrict } from "./finalize/template-renderer.js";
export { TempJournal } from "./fs/temp-journal.js";
export { detectSearchSandbox } from "./fs/search-root.js";
