/**
 * Live output of an ExecuteToolStream call (issue 20): what a tool hands to `ctx.emitOutput`
 * goes out at once as STREAM_DATA_KIND_UNSPECIFIED chunks with their own contiguous offsets.
 * Honours back-pressure: while grpc-js says "wait" (write() returned false) bytes queue, at
 * most `capBytes` of them; beyond that the middle is dropped, keeping the head and the newest
 * tail with a marker saying how much is missing, so a slow client never grows the server's memory.
 */
import { StreamDataKind } from "@grok-tools/proto";
import { encodeLiveDataChunk, encodeToolStreamChunk, type EncodedStreamChunk } from "./execute-response-encoding.js";

/** The request header a client sends (value `1`) to receive live output on ExecuteToolStream. */
export const LIVE_OUTPUT_HEADER = "x-grok-live-output";

/** Default of the queued live output per call before head+tail dropping starts. */
export const DEFAULT_LIVE_OUTPUT_BUFFER_BYTES = 8 * 1024 * 1024;

/** The marker that replaces `dropped` bytes of live output a slow client could not take. */
export function liveOutputDropMarker(dropped: number): string {
  return `\n[grok-tools: ${dropped} bytes of live output dropped here because the client read more slowly than the tool printed; the final result is not affected]\n`;
}

/**
 * What the writer needs of the call: grpc-js's write (false = wait for drain) and its drain event.
 * Chunks come encoded (the call's serializer sends them as they are).
 */
export interface LiveOutputSink {
  write(chunk: EncodedStreamChunk): boolean;
  onceDrain(resume: () => void): void;
}

/**
 * Bytes waiting for the client, capped: below the cap a plain FIFO; above it, the first half of
 * the cap stays (the head), then the newest bytes up to the other half (the tail), and what fell
 * out between them is counted and turns into a marker when the head has gone out.
 */
export class HeadTailQueue {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;
  private dropping = false;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(private readonly capBytes: number) {
    this.headCap = Math.floor(capBytes / 2);
    this.tailCap = capBytes - this.headCap;
  }

  /** Bytes held (not counting a marker not yet produced). */
  get size(): number {
    return this.headBytes + this.tailBytes;
  }

  /** Whether nothing waits to be sent: no bytes, no drop marker. */
  get idle(): boolean {
    return this.size === 0 && !this.dropping;
  }

  /** Whether bytes were dropped and their marker is not out yet (the offsets of what is queued are not known). */
  get dropsPending(): boolean {
    return this.dropping;
  }

  /** Total bytes dropped so far (over the life of the queue). */
  droppedTotal = 0;

  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (!this.dropping) {
      if (this.headBytes + bytes.length <= this.capBytes) {
        this.head.push(bytes);
        this.headBytes += bytes.length;
        return;
      }
      // Overflow: what is queued beyond the head's half becomes the start of the tail.
      this.dropping = true;
      const queued = Buffer.concat(this.head, this.headBytes);
      this.head = [queued.subarray(0, this.headCap)];
      this.headBytes = Math.min(this.headCap, queued.length);
      const rest = queued.subarray(this.headBytes);
      this.tail = rest.length > 0 ? [rest] : [];
      this.tailBytes = rest.length;
    }
    this.tail.push(bytes);
    this.tailBytes += bytes.length;
    while (this.tailBytes > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.drop(first.length);
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.drop(excess);
      }
    }
  }

  /** The next at most `max` bytes to send, or undefined when empty. */
  take(max: number): Buffer | undefined {
    if (this.headBytes > 0) return this.takeFrom(this.head, max, (n) => (this.headBytes -= n));
    if (!this.dropping) return undefined;
    // The head is out: the marker, then the tail becomes the queue again (split like any bytes).
    const marker = Buffer.from(liveOutputDropMarker(this.dropped), "utf8");
    this.head = [marker, ...this.tail];
    this.headBytes = marker.length + this.tailBytes;
    this.tail = [];
    this.tailBytes = 0;
    this.dropping = false;
    this.dropped = 0;
    return this.takeFrom(this.head, max, (n) => (this.headBytes -= n));
  }

  private drop(n: number): void {
    this.dropped += n;
    this.droppedTotal += n;
  }

  private takeFrom(list: Buffer[], max: number, account: (n: number) => void): Buffer {
    const first = list[0]!;
    if (first.length <= max) {
      list.shift();
      account(first.length);
      return first;
    }
    list[0] = first.subarray(max);
    account(max);
    return first.subarray(0, max);
  }
}

/** Sends one call's live output; `close()` flushes what is queued and stops taking more. */
export class LiveOutputWriter {
  private readonly queue: HeadTailQueue;
  private offset = 0;
  private waiting = false;
  private closed = false;
  private abandoned = false;
  private flushed: (() => void) | undefined;
  /** Queued bytes encoded as they were queued (see `queued`), by the very Buffer the queue holds. */
  private readonly preEncoded = new WeakMap<Buffer, { chunk: EncodedStreamChunk; offset: number }>();

  constructor(
    private readonly sink: LiveOutputSink,
    private readonly callId: string,
    private readonly chunkSize: number,
    capBytes: number,
  ) {
    this.queue = new HeadTailQueue(capBytes);
  }

  /** Bytes of live output sent so far (markers included): the next chunk's offset. */
  get sentBytes(): number {
    return this.offset;
  }

  /** Bytes dropped because the client was slow. */
  get droppedBytes(): number {
    return this.queue.droppedTotal;
  }

  /** Takes one chunk of output from the tool; sends it now unless the client is behind. */
  push(bytes: Uint8Array): void {
    if (this.closed) return;
    // While the client keeps up and nothing waits, the bytes go out at once: encoding copies them,
    // so they need no copy of their own (issue #18: a 64 MiB stream copied every byte once more).
    const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    while (!this.waiting && this.queue.idle && at < view.length) {
      const end = Math.min(view.length, at + this.chunkSize);
      this.send(view.subarray(at, end));
      at = end;
    }
    if (at === view.length) return;
    // The rest waits in the queue, copied: the producer may reuse its buffer.
    let offset = this.offset + this.queue.size;
    while (at < view.length) {
      const end = Math.min(view.length, at + this.chunkSize);
      this.queue.push(this.queued(view.subarray(at, end), offset));
      offset += end - at;
      at = end;
    }
    this.pump();
  }

  /**
   * `piece`'s copy to queue. A large piece is copied by encoding it now, at the offset it will have
   * unless the queue drops bytes ahead of it, and `send` sends that message as it is when the copy
   * comes out of the queue whole at that offset (issue #18: a client reading a 64 MiB stream more
   * slowly than `cat` prints it had every byte copied to queue it, then again to encode it; with
   * grpc-js's framing and the pipe's own read, four buffers a chunk where a bare stream has two, and
   * garbage collection was a third of the server's time).
   */
  private queued(piece: Buffer, offset: number): Buffer {
    const encoded = this.queue.dropsPending ? undefined : encodeLiveDataChunk(this.callId, piece, offset);
    if (encoded) {
      this.preEncoded.set(encoded.bytes, { chunk: encoded.chunk, offset });
      return encoded.bytes;
    }
    // Into unfilled memory: Buffer.from(bytes) zero-fills its new buffer first.
    const copy = Buffer.allocUnsafe(piece.length);
    copy.set(piece);
    return copy;
  }

  /** Stops taking output and resolves once everything queued has been handed to grpc-js. */
  close(): Promise<void> {
    if (this.abandoned) return Promise.resolve();
    this.closed = true;
    if (!this.waiting && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.flushed = resolve;
      this.pump();
    });
  }

  /** The call is gone (cancelled): drop what is queued and release a pending close(). */
  abandon(): void {
    this.abandoned = true;
    this.closed = true;
    this.waiting = true;
    const done = this.flushed;
    this.flushed = undefined;
    done?.();
  }

  /** Sends one chunk of at most the chunk size, encoded now unless it was when queued; stops sending when grpc-js says wait. */
  private send(data: Buffer): void {
    const pre = this.preEncoded.get(data);
    const chunk =
      pre !== undefined && pre.offset === this.offset
        ? pre.chunk
        : encodeToolStreamChunk({
            callId: this.callId,
            chunk: { $case: "data", value: { kind: StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED, data, offset: this.offset } },
          });
    this.offset += data.length;
    if (!this.sink.write(chunk)) {
      this.waiting = true;
      this.sink.onceDrain(() => {
        this.waiting = false;
        this.pump();
      });
    }
  }

  private pump(): void {
    while (!this.waiting) {
      const data = this.queue.take(this.chunkSize);
      if (!data) break;
      this.send(data);
    }
    if (!this.waiting && this.queue.size === 0 && this.flushed) {
      const done = this.flushed;
      this.flushed = undefined;
      done();
    }
  }
}
