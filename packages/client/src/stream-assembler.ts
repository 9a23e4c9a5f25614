// Reassembles an ExecuteToolStream: checks that each kind's chunks are contiguous, that the
// final result's sizes match what arrived, and decodes the bytes as UTF-8. Live output
// (STREAM_DATA_KIND_UNSPECIFIED chunks, issue 20) is checked the same way and handed to a
// callback, never mixed into the result: the prompt_text chunks are authoritative. No I/O here.
import { StreamDataKind, type ToolStreamChunk } from "@grok-tools/proto";
import { ToolsProtocolError } from "./errors.js";
import { successResult, type ToolCallResult } from "./tool-result.js";

/** Bytes received so far, per kind; passed to the progress callback after every data chunk. */
export interface StreamProgress {
  promptTextBytes: number;
  outputJsonBytes: number;
  /** Live output bytes received (preview only, not part of the result). */
  liveOutputBytes: number;
  chunks: number;
}

/** Receives each chunk of live output with its byte offset in the live stream. */
export type LiveOutputListener = (data: Uint8Array, offset: number) => void;

/** The request header (value `1`) that asks the server for live output on ExecuteToolStream. */
export const LIVE_OUTPUT_HEADER = "x-grok-live-output";

type Part = { bytes: number; buffers: Buffer[] };

const KIND_NAMES: Record<number, string> = {
  [StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT]: "prompt_text",
  [StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON]: "output_json",
};

/**
 * Feed it every chunk with `push`, then call `finish` when the stream ends. Any violation of
 * the stream contract throws a ToolsProtocolError naming the kind, the offset and what was expected.
 */
export class StreamAssembler {
  private readonly prompt: Part = { bytes: 0, buffers: [] };
  private readonly output: Part = { bytes: 0, buffers: [] };
  private liveBytes = 0;
  /** The result's own chunks have begun; live output must come before them. */
  private resultStarted = false;
  private chunks = 0;
  private callId = "";
  private result: ToolCallResult | undefined;

  constructor(
    private readonly toolName: string,
    private readonly onProgress?: (progress: StreamProgress) => void,
    private readonly onOutput?: LiveOutputListener,
  ) {}

  /** Adds one chunk of the stream. */
  push(chunk: ToolStreamChunk): void {
    if (this.result) throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName} sent a chunk after its final result.`);
    if (chunk.callId) this.callId = chunk.callId;
    const body = chunk.chunk;
    if (!body) throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName} sent a chunk with neither data nor a final result.`);
    if (body.$case === "data") {
      const { kind, data, offset } = body.value;
      if (kind === StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED) {
        this.pushLive(data, offset);
        return;
      }
      this.resultStarted = true;
      const part = this.partFor(kind);
      const name = KIND_NAMES[kind]!;
      if (offset !== part.bytes) {
        throw new ToolsProtocolError(
          `ExecuteToolStream for ${this.toolName}: ${name} chunk at byte offset ${offset}, expected ${part.bytes} (chunks are missing, repeated or out of order).`,
        );
      }
      part.buffers.push(Buffer.from(data));
      part.bytes += data.length;
      this.chunks += 1;
      this.progress();
      return;
    }
    const final = body.value;
    if (final.error) {
      // The contract says: when the final result carries an error, discard what was streamed.
      this.result = { ok: false, error: final.error, metadata: final.metadata, callId: this.callId };
      return;
    }
    this.checkSize("prompt_text", this.prompt, final.promptTextSize);
    this.checkSize("output_json", this.output, final.outputJsonSize);
    const promptText = this.decode("prompt_text", this.prompt);
    const outputJson = this.decode("output_json", this.output);
    this.result = successResult(this.toolName, outputJson, promptText, final.metadata, this.callId);
  }

  /** The reassembled result; throws when the stream ended without its final result. */
  finish(): ToolCallResult {
    if (!this.result) {
      throw new ToolsProtocolError(
        `ExecuteToolStream for ${this.toolName} ended without a final result (received ${this.prompt.bytes} prompt_text bytes and ${this.output.bytes} output_json bytes).`,
      );
    }
    return this.result;
  }

  private pushLive(data: Uint8Array, offset: number): void {
    if (this.resultStarted) {
      throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName} sent live output after the result's chunks had begun.`);
    }
    if (offset !== this.liveBytes) {
      throw new ToolsProtocolError(
        `ExecuteToolStream for ${this.toolName}: live output chunk at byte offset ${offset}, expected ${this.liveBytes} (chunks are missing, repeated or out of order).`,
      );
    }
    this.liveBytes += data.length;
    this.chunks += 1;
    this.onOutput?.(data, offset);
    this.progress();
  }

  private progress(): void {
    this.onProgress?.({ promptTextBytes: this.prompt.bytes, outputJsonBytes: this.output.bytes, liveOutputBytes: this.liveBytes, chunks: this.chunks });
  }

  private partFor(kind: StreamDataKind): Part {
    if (kind === StreamDataKind.STREAM_DATA_KIND_PROMPT_TEXT) return this.prompt;
    if (kind === StreamDataKind.STREAM_DATA_KIND_OUTPUT_JSON) return this.output;
    throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName} sent a data chunk of unknown kind ${kind}.`);
  }

  private checkSize(name: string, part: Part, expected: number): void {
    if (part.bytes !== expected) {
      throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName}: received ${part.bytes} ${name} bytes but the final result says ${expected}.`);
    }
  }

  private decode(name: string, part: Part): string {
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(part.buffers));
    } catch {
      throw new ToolsProtocolError(`ExecuteToolStream for ${this.toolName}: the ${name} bytes are not valid UTF-8.`);
    }
  }
}
