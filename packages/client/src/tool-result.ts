// The result shape of executeTool / executeToolStream, built from the proto messages.
// Parsing output_json happens here, once, for both paths.
import type { ExecutionMetadata, ToolError } from "@grok-tools/proto";
import { ToolsProtocolError } from "./errors.js";

/** A tool's structured output: an object tagged by `"type"` (decision D6). */
export type ToolOutput = { type?: string } & Record<string, unknown>;

/** A tool call that succeeded. */
export interface ToolCallSuccess<TOutput = ToolOutput> {
  ok: true;
  /** output_json, parsed. */
  output: TOutput;
  /** output_json exactly as the server sent it. */
  outputJson: string;
  /** The text meant for the model. */
  promptText: string;
  metadata: ExecutionMetadata | undefined;
  callId: string;
  /** Present (true) when the server answered a repeated call_id with the first call's response instead of running the tool again. */
  replayed?: boolean;
}

/** A tool call that failed logically (file not found, bad input, ...): a ToolError from the server. */
export interface ToolCallFailure {
  ok: false;
  error: ToolError;
  metadata: ExecutionMetadata | undefined;
  callId: string;
  /** As in {@link ToolCallSuccess.replayed}. */
  replayed?: boolean;
}

/** What executeTool and executeToolStream return. */
export type ToolCallResult<TOutput = ToolOutput> = ToolCallSuccess<TOutput> | ToolCallFailure;

/** Builds a success result; throws ToolsProtocolError when output_json is not JSON. */
export function successResult<TOutput>(
  toolName: string,
  outputJson: string,
  promptText: string,
  metadata: ExecutionMetadata | undefined,
  callId: string,
): ToolCallSuccess<TOutput> {
  let output: TOutput;
  try {
    output = (outputJson === "" ? null : JSON.parse(outputJson)) as TOutput;
  } catch (error) {
    throw new ToolsProtocolError(`The server returned output_json for ${toolName} that is not valid JSON: ${(error as Error).message}`);
  }
  return { ok: true, output, outputJson, promptText, metadata, callId };
}
