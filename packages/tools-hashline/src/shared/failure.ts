/**
 * Failures of the OpenCode tools as ToolErrors (decision D1): the reference's output variant
 * (`FileReadError`, `NoMatchesFound`, ...) travels in `details`, its text is the message.
 */
import { ToolError, type ErrorCode } from "@grok-tools/runtime";

/** A ToolError whose details are `{ type: outputType, [variant]: message }`. */
export function variantError(
  outputType: string,
  variant: string,
  code: ErrorCode,
  message: string,
  options: { suggestion?: string; filePath?: string } = {},
): ToolError {
  return new ToolError(code, message, { ...options, details: { type: outputType, [variant]: message } });
}
