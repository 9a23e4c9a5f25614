// The live-output writer of ExecuteToolStream (issue 20): sends at once while grpc-js takes
// messages, stops on write() === false until drain, queues at most its cap and then keeps the head
// and the newest tail around a drop marker; offsets stay contiguous and chunks within the size.
import { describe, expect, it } from "@jest/globals";
import { StreamDataKind, ToolStreamChunk } from "@grok-tools/proto";
import type { EncodedStreamChunk } from "../src/grpc/execute-response-encoding.js";
import { HeadTailQueue, LiveOutputWriter, liveOutputDropMarker } from "../src/grpc/live-output.js";

/** A sink that accepts `room` messages (kept decoded), then says "wait" until the test drains it. */
function fakeSink(room: number) {
  const written: ToolStreamChunk[] = [];
  let drain: (() => void) | undefined;
  let free = room;
  return {
    written,
    sink: {
      write: (chunk: EncodedStreamChunk) => {
        written.push(ToolStreamChunk.decode(chunk.bytes));
        free -= 1;
        return free > 0;
      },
      onceDrain: (resume: () => void) => {
        drain = resume;
      },
    },
    /** The client read everything: `room` more messages fit. */
    drain: () => {
      free = room;
      const resume = drain;
      drain = undefined;
      resume?.();
    },
    get waiting() {
      return drain !== undefined;
    },
  };
}

/** Closes the writer while the client reads everything: resolves once all that was queued went out. */
async function closeReadingAll(writer: LiveOutputWriter, fake: ReturnType<typeof fakeSink>): Promise<void> {
  const closing = writer.close();
  while (fake.waiting) fake.drain();
  await closing;
}

function bytesOf(chunks: ToolStreamChunk[]): Buffer {
  let offset = 0;
  const parts: Buffer[] = [];
  for (const c of chunks) {
    if (c.chunk?.$case !== "data") throw new Error("not data");
    expect(c.chunk.value.kind).toBe(StreamDataKind.STREAM_DATA_KIND_UNSPECIFIED);
    expect(c.chunk.value.offset).toBe(offset);
    offset += c.chunk.value.data.length;
    parts.push(Buffer.from(c.chunk.value.data));
  }
  return Buffer.concat(parts);
}

describe("LiveOutputWriter", () => {
  it("sends each push at once, split to the chunk size, with contiguous offsets and the call id", async () => {
    const fake = fakeSink(1000);
    const writer = new LiveOutputWriter(fake.sink, "call-1", 4, 1024);
    writer.push(Buffer.from("hello world"));
    expect(fake.written.map((c) => (c.chunk?.$case === "data" ? Buffer.from(c.chunk.value.data).toString() : ""))).toEqual(["hell", "o wo", "rld"]);
    expect(fake.written.every((c) => c.callId === "call-1")).toBe(true);
    writer.push(new TextEncoder().encode("!"));
    await writer.close();
    expect(bytesOf(fake.written).toString()).toBe("hello world!");
    writer.push(Buffer.from("after close"));
    expect(bytesOf(fake.written).toString()).toBe("hello world!");
  });

  it("sends the bytes pushed, also when the producer reuses its buffer, sent at once or queued", async () => {
    const fake = fakeSink(2);
    const writer = new LiveOutputWriter(fake.sink, "c", 4, 1024);
    const reused = Buffer.from("abcdefgh");
    // "abcd" and "efgh" go out at once; the second write fills the sink.
    writer.push(reused);
    reused.write("ABCDEFGH");
    // Queued while the client is behind.
    writer.push(reused);
    reused.write("zzzzzzzz");
    expect(fake.waiting).toBe(true);
    fake.drain();
    fake.drain();
    await writer.close();
    expect(bytesOf(fake.written).toString()).toBe("abcdefghABCDEFGH");
  });

  it("stops writing when write() returns false and resumes on drain; close() waits for the queue", async () => {
    const fake = fakeSink(2);
    const writer = new LiveOutputWriter(fake.sink, "c", 1024, 1024 * 1024);
    for (let i = 0; i < 10; i++) writer.push(Buffer.from(`line ${i}\n`));
    // Two messages went out, the second said "wait": nothing more until the client drains.
    expect(fake.written).toHaveLength(2);
    expect(fake.waiting).toBe(true);
    let closed = false;
    const closing = writer.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    while (fake.waiting) fake.drain();
    await closing;
    expect(bytesOf(fake.written).toString()).toBe(Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join(""));
    expect(writer.droppedBytes).toBe(0);
  });

  it("keeps the head and the newest tail with a marker once a slow client leaves more than the cap queued", async () => {
    const fake = fakeSink(1);
    const cap = 1000;
    const writer = new LiveOutputWriter(fake.sink, "c", 64, cap);
    const all = Buffer.from(Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}\n`).join(""));
    // The first push goes out (and the sink says wait); the rest queue, capped.
    for (let i = 0; i < all.length; i += 10) writer.push(all.subarray(i, i + 10));
    await closeReadingAll(writer, fake);
    const got = bytesOf(fake.written);
    const dropped = writer.droppedBytes;
    expect(dropped).toBeGreaterThan(0);
    const marker = Buffer.from(liveOutputDropMarker(dropped));
    const at = got.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    // Everything but the dropped middle arrived, in order: a head of the stream and its very end.
    expect(got.length).toBe(all.length - dropped + marker.length);
    expect(all.subarray(0, at).equals(got.subarray(0, at))).toBe(true);
    expect(all.subarray(all.length - (got.length - at - marker.length)).equals(got.subarray(at + marker.length))).toBe(true);
    expect(fake.written.every((c) => c.chunk?.$case === "data" && c.chunk.value.data.length <= 64)).toBe(true);
  });

  // Pieces of 4 KiB and more are queued as encoded messages (issue #18); what goes out must not change.
  it("sends large queued pieces intact at contiguous offsets, also when the producer reuses its buffer", async () => {
    const fake = fakeSink(1);
    const writer = new LiveOutputWriter(fake.sink, "call-large", 6000, 1024 * 1024);
    const reused = Buffer.alloc(10_000);
    const expected: Buffer[] = [];
    for (let i = 0; i < 8; i++) {
      reused.fill(65 + i);
      reused.write(`piece ${i}`);
      expected.push(Buffer.from(reused));
      writer.push(reused);
    }
    reused.fill(0);
    await closeReadingAll(writer, fake);
    expect(bytesOf(fake.written).equals(Buffer.concat(expected))).toBe(true);
    expect(fake.written.every((c) => c.callId === "call-large" && c.chunk?.$case === "data" && c.chunk.value.data.length <= 6000)).toBe(true);
  });

  it("keeps offsets contiguous when large queued pieces are dropped, cut and sent after the marker", async () => {
    const fake = fakeSink(1);
    const cap = 64 * 1024;
    const writer = new LiveOutputWriter(fake.sink, "c", 8192, cap);
    const all = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `${String(i).padStart(5, "0")}\n`).join(""));
    // Pieces of 5 000 bytes (not a divisor of the cap or the chunk size): the tail's cut splits them.
    for (let i = 0; i < all.length; i += 5000) {
      writer.push(all.subarray(i, i + 5000));
      // Every 20 pieces the client catches up: then pieces queue again (encoded as they are queued,
      // at the offsets they will have) until one overflows the cap and moves those after the head.
      if (i % 100_000 === 95_000) while (fake.waiting) fake.drain();
    }
    await closeReadingAll(writer, fake);
    const got = bytesOf(fake.written);
    const dropped = writer.droppedBytes;
    expect(dropped).toBeGreaterThan(0);
    expect(got.indexOf("\n[grok-tools: ")).toBeGreaterThan(0);
    // Markers aside, what arrived is the stream's bytes in order: each piece between markers is a slice of it.
    const sent = all.toString();
    let from = 0;
    for (const part of got.toString().split(/\n\[grok-tools: \d+ bytes of live output dropped here[^\n]*\n/)) {
      const at = sent.indexOf(part, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at + part.length;
    }
    expect(got.subarray(got.length - 6).toString()).toBe("39999\n");
    expect(fake.written.every((c) => c.chunk?.$case === "data" && c.chunk.value.data.length <= 8192)).toBe(true);
  });

  it("after abandon(), close() resolves and nothing more is written", async () => {
    const fake = fakeSink(1);
    const writer = new LiveOutputWriter(fake.sink, "c", 16, 1024);
    writer.push(Buffer.from("a"));
    writer.push(Buffer.from("b"));
    const closing = writer.close();
    writer.abandon();
    await closing;
    await writer.close();
    writer.push(Buffer.from("c"));
    expect(fake.written).toHaveLength(1);
  });
});

describe("HeadTailQueue", () => {
  it("never holds more than its cap, however much is pushed", () => {
    const queue = new HeadTailQueue(4096);
    for (let i = 0; i < 10_000; i++) {
      queue.push(Buffer.alloc(97, i % 256));
      expect(queue.size).toBeLessThanOrEqual(4096);
    }
    expect(queue.droppedTotal).toBe(10_000 * 97 - 4096);
  });

  it("is a plain FIFO below the cap", () => {
    const queue = new HeadTailQueue(100);
    queue.push(Buffer.from("abc"));
    queue.push(Buffer.from("def"));
    expect(queue.take(4)?.toString()).toBe("abc");
    expect(queue.take(2)?.toString()).toBe("de");
    expect(queue.take(10)?.toString()).toBe("f");
    expect(queue.take(10)).toBeUndefined();
  });
});
