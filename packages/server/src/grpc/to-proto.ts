/**
 * The one mapping between runtime data and proto messages (ToolInfo, responses, errors).
 */
import {
  ErrorCode as ProtoErrorCode,
  OutputFormat,
  ToolCategory,
  ToolSource,
  type ExecuteToolResponse,
  type ExecutionMetadata,
  type FinalizeConfigViolation,
  type ToolError as ProtoToolError,
  type ToolInfo,
  type TruncationConfig,
} from "@grok-tools/proto";
import {
  type CallSignal,
  type ConfigViolation,
  type ExecuteOutcome,
  type ExecuteRequest,
  type ExecutionMetadataInfo,
  type ToolDescriptor,
  type ToolErrorInfo,
  type TruncationConfigInput,
} from "@grok-tools/runtime/host";
import { type ToolCategoryName } from "@grok-tools/runtime/helpers";
import type { ExecuteToolRequest } from "@grok-tools/proto";

const CATEGORY: Record<ToolCategoryName, ToolCategory> = {
  FILE: ToolCategory.TOOL_CATEGORY_FILE,
  SEARCH: ToolCategory.TOOL_CATEGORY_SEARCH,
  SHELL: ToolCategory.TOOL_CATEGORY_SHELL,
  WORKFLOW: ToolCategory.TOOL_CATEGORY_WORKFLOW,
  EXTERNAL: ToolCategory.TOOL_CATEGORY_EXTERNAL,
  CUSTOM: ToolCategory.TOOL_CATEGORY_CUSTOM,
};

/** The runtime category name of a proto category, or undefined for UNSPECIFIED. */
export function categoryName(category: ToolCategory | undefined): ToolCategoryName | undefined {
  return (Object.entries(CATEGORY) as [ToolCategoryName, ToolCategory][]).find(([, value]) => value === category)?.[0];
}

export function toToolInfo(d: ToolDescriptor): ToolInfo {
  return {
    name: d.name,
    displayName: d.displayName,
    description: d.description,
    shortDescription: d.shortDescription,
    category: CATEGORY[d.category],
    inputSchemaJson: d.inputSchemaJson,
    enabled: d.enabled,
    capabilities: { ...d.capabilities },
    version: d.version,
    source: ToolSource.TOOL_SOURCE_BUILTIN,
    optionsSchemaJson: d.optionsSchemaJson,
    defaultOptionsJson: d.defaultOptionsJson,
    currentOptionsJson: d.currentOptionsJson,
    outputFormats: d.outputFormats.map((f) => ({
      format: f.format === "concise" ? OutputFormat.OUTPUT_FORMAT_CONCISE : OutputFormat.OUTPUT_FORMAT_DEFAULT,
      description: f.description,
      defaultFields: f.defaultFields,
    })),
    outputFields: d.outputFields.map((f) => ({
      name: f.name,
      description: f.description,
      jsonType: f.jsonType,
      exampleJson: f.exampleJson,
      includedIn: f.includedIn.map((x) => (x === "concise" ? OutputFormat.OUTPUT_FORMAT_CONCISE : OutputFormat.OUTPUT_FORMAT_DEFAULT)),
      potentiallyLarge: f.potentiallyLarge,
    })),
    outputSchemaJson: d.outputSchemaJson,
    contractVersion: d.contractVersion,
    namespace: d.namespace,
  };
}

export function toMetadata(m: ExecutionMetadataInfo): ExecutionMetadata {
  return { ...m };
}

export function toProtoError(e: ToolErrorInfo): ProtoToolError {
  return {
    code: e.code as number as ProtoErrorCode,
    message: e.message,
    detailsJson: e.detailsJson,
    retryable: e.retryable,
    suggestion: e.suggestion,
    filePath: e.filePath,
    lineNumber: e.lineNumber,
  };
}

export function toExecuteResponse(outcome: ExecuteOutcome): ExecuteToolResponse {
  return {
    callId: outcome.callId,
    result: outcome.ok
      ? { $case: "success", value: { outputJson: outcome.outputJson, promptText: outcome.promptText } }
      : { $case: "error", value: toProtoError(outcome.error) },
    metadata: toMetadata(outcome.metadata),
  };
}

export function toViolation(v: ConfigViolation): FinalizeConfigViolation {
  return {
    entryIndex: v.entryIndex,
    toolId: v.toolId,
    fieldPath: v.fieldPath,
    message: v.message,
    expected: v.expected,
    badValueJson: v.badValueJson,
    category: v.category,
  };
}

export function fromTruncationConfig(c: TruncationConfig | undefined): TruncationConfigInput | undefined {
  if (!c) return undefined;
  return {
    ...(c.defaultMaxOutputBytes === undefined ? {} : { defaultMaxOutputBytes: c.defaultMaxOutputBytes }),
    perToolMaxOutputBytes: { ...c.perToolMaxOutputBytes },
    ...(c.maxLinesRead === undefined ? {} : { maxLinesRead: c.maxLinesRead }),
  };
}

export function toTruncationConfig(c: TruncationConfigInput): TruncationConfig {
  return {
    defaultMaxOutputBytes: c.defaultMaxOutputBytes,
    perToolMaxOutputBytes: { ...(c.perToolMaxOutputBytes ?? {}) },
    maxLinesRead: c.maxLinesRead,
  };
}

/** An ExecuteToolRequest as the runtime's flattened request. */
export function fromExecuteRequest(req: ExecuteToolRequest, signal: CallSignal): ExecuteRequest {
  const o = req.options;
  // One shape for every request, an absent option undefined: conditional spreads made a temporary
  // object each and a request shape per combination of options, for the runtime to tell apart (#18).
  return {
    toolName: req.toolName,
    inputJson: req.inputJson,
    callId: req.callId || undefined,
    timeoutMs: o?.timeoutMs || undefined,
    background: o?.background ?? false,
    outputFormat: o?.outputFormat === OutputFormat.OUTPUT_FORMAT_CONCISE ? "concise" : "default",
    workingDirectory: o?.workingDirectory || undefined,
    includeFields: o?.includeFields ?? NO_FIELDS,
    excludeFields: o?.excludeFields ?? NO_FIELDS,
    signal,
  };
}

const NO_FIELDS: readonly string[] = Object.freeze([]);
