/**
 * The last guard of a unary ExecuteTool reply (issue 23.2): a result the server could not send
 * (grpc-js would fail the call with RESOURCE_EXHAUSTED after the tool had run, and a retry would
 * apply a change twice) becomes a tool error that says so. Tools keep their replies far smaller
 * (see the runtime's reply text budget); ExecuteToolStream sends results of any size in chunks.
 */
import { ErrorCode } from "@grok-tools/runtime";
import { type ExecuteOutcome } from "@grok-tools/runtime/host";

/** Room left in a message for everything besides output_json and prompt_text (ids, metadata, framing). */
export const RESPONSE_OVERHEAD_BYTES = 64 * 1024;

/** `outcome`, or an EXECUTION_FAILED outcome when its result would not fit in `maxMessageBytes`. */
export function fitResult(outcome: ExecuteOutcome, toolName: string, maxMessageBytes: number): ExecuteOutcome {
  if (!outcome.ok) return outcome;
  const limit = maxMessageBytes - RESPONSE_OVERHEAD_BYTES;
  // Cheap first: a string's UTF-8 size is at most three bytes per UTF-16 unit.
  if (3 * (outcome.outputJson.length + outcome.promptText.length) <= limit) return outcome;
  const bytes = Buffer.byteLength(outcome.outputJson, "utf8") + Buffer.byteLength(outcome.promptText, "utf8");
  if (bytes <= limit) return outcome;
  return {
    ok: false,
    callId: outcome.callId,
    metadata: outcome.metadata,
    error: {
      code: ErrorCode.EXECUTION_FAILED,
      message: `The result of ${toolName} is ${bytes} bytes, more than the ${limit}-byte reply limit, so it was not sent. The call itself completed: anything it changed is changed, so check that before running it again.`,
      suggestion: "Call the tool through ExecuteToolStream, which sends results of any size in chunks, or ask for less output.",
      detailsJson: JSON.stringify({ result_bytes: bytes, limit_bytes: limit }),
      retryable: false,
    },
  };
}
