/**
 * ToolInfo as data (spec §2.6): before finalize every registered tool under its fq id;
 * after finalize the configured tools under their client names, rendered and renamed.
 */
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolsetConfiguration } from "./toolset-configuration.js";
import type { AnyToolDefinition, OutputFieldInfo } from "../tool/define-tool.js";
import { categoryOfKind, isReadOnlyKind, type ToolCategoryName } from "../tool/tool-kind.js";
import { stripTemplateMarkers } from "../finalize/template-renderer.js";
import type { FinalizedTool } from "../finalize/finalize-types.js";
import { FinalizedToolset } from "../finalize/finalized-toolset.js";

/** A field of the output object as advertised. */
export interface OutputFieldDescriptor {
  name: string;
  description: string;
  jsonType: string;
  exampleJson?: string;
  includedIn: ("default" | "concise")[];
  potentiallyLarge: boolean;
}

/** Neutral form of the proto `ToolInfo`. */
export interface ToolDescriptor {
  name: string;
  displayName: string;
  description: string;
  shortDescription?: string;
  category: ToolCategoryName;
  inputSchemaJson: string;
  enabled: boolean;
  capabilities: {
    supportsBackground: boolean;
    supportsStreaming: boolean;
    hasSideEffects: boolean;
    supportsCancellation: boolean;
    supportsTimeout: boolean;
    customCapabilities: string[];
  };
  version: string;
  optionsSchemaJson?: string;
  defaultOptionsJson?: string;
  currentOptionsJson?: string;
  outputFormats: { format: "default" | "concise"; description: string; defaultFields: string[] }[];
  outputFields: OutputFieldDescriptor[];
  outputSchemaJson: string;
  contractVersion: string;
  namespace: string;
}

/** Filters of ListTools. */
export interface DescribeOptions {
  category?: ToolCategoryName;
  includeDisabled?: boolean;
  includeSchemas?: boolean;
}

/** What describing needs of a session. */
export interface DescribableSession {
  readonly registry: ToolRegistry;
  readonly runtimeVersion: string;
  readonly configuration: ToolsetConfiguration;
}

/** ToolInfos of a session, before or after finalize. */
export function describeTools(session: DescribableSession, options: DescribeOptions = {}): ToolDescriptor[] {
  const includeSchemas = options.includeSchemas ?? true;
  const config = session.configuration;
  const toolset = config.toolset;
  const all = toolset
    ? toolset.tools.map((tool) => describeFinalized(tool, config.currentParams(tool.definition, tool.params), session.runtimeVersion, includeSchemas))
    : session.registry.list().map((r) => ({
        ...describeRegistered(r.fqId, r.namespace, r.definition, session.runtimeVersion, includeSchemas),
        enabled: config.pending.isEnabled(r.fqId),
      }));
  return all.filter(
    (d) => (options.category === undefined || d.category === options.category) && (toolset === undefined || d.enabled || options.includeDisabled),
  );
}

/** One ToolInfo by name: the client name after finalize, the fq id before (or either). */
export function describeTool(session: DescribableSession, name: string): ToolDescriptor | undefined {
  const config = session.configuration;
  const toolset = config.toolset;
  if (toolset) {
    const tool = toolset.byClientName(name) ?? toolset.byFqId(name);
    return tool ? describeFinalized(tool, config.currentParams(tool.definition, tool.params), session.runtimeVersion, true) : undefined;
  }
  const registered = session.registry.get(name) ?? session.registry.list().find((r) => r.definition.id === name);
  return registered
    ? {
        ...describeRegistered(registered.fqId, registered.namespace, registered.definition, session.runtimeVersion, true),
        enabled: config.pending.isEnabled(registered.fqId),
      }
    : undefined;
}

function describeRegistered(fqId: string, namespace: string, def: AnyToolDefinition, runtimeVersion: string, includeSchemas: boolean): ToolDescriptor {
  const raw = typeof def.description === "string" ? def.description : defaultDescription(def);
  return {
    ...common(def, runtimeVersion, includeSchemas, def.params?.defaults),
    name: fqId,
    displayName: fqId,
    description: stripTemplateMarkers(raw),
    inputSchemaJson: includeSchemas ? JSON.stringify(def.input) : "",
    enabled: false,
    contractVersion: "",
    namespace,
  };
}

/** A built description with default params and an empty toolset (pre-finalize listing), or "". */
function defaultDescription(def: AnyToolDefinition): string {
  if (typeof def.description === "string") return def.description;
  try {
    const empty = new FinalizedToolset([]);
    return def.description({ params: structuredClone(def.params?.defaults), toolset: empty, contractVersion: def.contractVersions ? "current" : "" });
  } catch {
    return "";
  }
}

/** `params` are the tool's current params (SetToolOptions may have changed them after finalize). */
function describeFinalized(tool: FinalizedTool, params: unknown, runtimeVersion: string, includeSchemas: boolean): ToolDescriptor {
  const def = tool.definition;
  return {
    ...common(def, runtimeVersion, includeSchemas, params),
    name: tool.clientName,
    displayName: tool.clientName,
    description: tool.description,
    inputSchemaJson: includeSchemas ? JSON.stringify(tool.inputSchema) : "",
    enabled: true,
    contractVersion: tool.contractVersion,
    namespace: tool.namespace,
    ...(def.params ? { currentOptionsJson: JSON.stringify(params) } : {}),
  };
}

function common(def: AnyToolDefinition, runtimeVersion: string, includeSchemas: boolean, params: unknown) {
  const readOnly = def.readOnly ?? isReadOnlyKind(def.kind);
  const background = def.capabilities?.supportsBackground;
  const fields = outputFields(def);
  return {
    ...(def.shortDescription === undefined ? {} : { shortDescription: def.shortDescription }),
    category: categoryOfKind(def.kind),
    capabilities: {
      supportsBackground: typeof background === "function" ? background(params) : (background ?? false),
      supportsStreaming: def.capabilities?.supportsStreaming ?? false,
      hasSideEffects: !readOnly,
      supportsCancellation: def.capabilities?.supportsCancellation ?? ["execute", "task", "wait_tasks_action"].includes(def.kind),
      supportsTimeout: def.capabilities?.supportsTimeout ?? false,
      customCapabilities: def.capabilities?.custom ?? [],
    },
    version: def.version ?? runtimeVersion,
    ...(def.params && includeSchemas ? { optionsSchemaJson: JSON.stringify(def.params.schema) } : {}),
    ...(def.params ? { defaultOptionsJson: JSON.stringify(def.params.defaults) } : {}),
    outputFormats: [
      { format: "default" as const, description: "Standard output with every field.", defaultFields: fields.map((f) => f.name) },
      {
        format: "concise" as const,
        description: "Concise prompt text; potentially large fields are dropped.",
        defaultFields: fields.filter((f) => !f.potentiallyLarge).map((f) => f.name),
      },
    ],
    outputFields: fields,
    outputSchemaJson: includeSchemas ? JSON.stringify(def.output) : "",
  };
}

/** Output fields: the declared ones, or the top-level properties of the output schema's variants. */
function outputFields(def: AnyToolDefinition): OutputFieldDescriptor[] {
  const declared: Record<string, OutputFieldInfo> = def.outputFields ?? {};
  const found = new Map<string, { description: string; jsonType: string }>();
  const schema = def.output as Record<string, unknown>;
  const variants = (schema.anyOf ?? schema.oneOf ?? [schema]) as Record<string, unknown>[];
  for (const variant of variants) {
    const properties = (variant.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, property] of Object.entries(properties)) {
      if (found.has(name)) continue;
      found.set(name, { description: typeof property.description === "string" ? property.description : "", jsonType: jsonTypeOf(property) });
    }
  }
  for (const name of Object.keys(declared)) if (!found.has(name)) found.set(name, { description: "", jsonType: "object" });
  return [...found].map(([name, info]) => {
    const extra = declared[name];
    const large = extra?.potentiallyLarge ?? false;
    return {
      name,
      description: extra?.description ?? info.description,
      jsonType: info.jsonType,
      ...(extra?.example === undefined ? {} : { exampleJson: JSON.stringify(extra.example) }),
      includedIn: large ? ["default"] : ["default", "concise"],
      potentiallyLarge: large,
    };
  });
}

function jsonTypeOf(schema: Record<string, unknown>): string {
  const alternatives = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(alternatives)) {
    const nonNull = alternatives.filter((a) => a.type !== "null");
    const types = new Set(nonNull.map(jsonTypeOf));
    return types.size === 1 ? [...types][0]! : "object";
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : schema.type;
  if (type === "integer") return "number";
  if (typeof type === "string") return type;
  if (schema.const !== undefined) return typeof schema.const;
  return "object";
}
