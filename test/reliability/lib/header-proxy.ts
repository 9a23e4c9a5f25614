/**
 * A loopback TCP proxy in front of the server that adds header fields to every request's HEADERS
 * frame on the way in: what a client in any language can send, but grpc-js refuses to (it ends a
 * call with several `authorization` values itself, with INTERNAL, before sending anything) and
 * Node's HTTP/2 client throws on. The added fields are HPACK "literal without indexing" entries
 * appended to the header block, which leaves the connection's compression state as it was;
 * responses pass through untouched, so the client decodes them as usual.
 */
import net from "node:net";

const PREFACE_BYTES = 24;
const FRAME_HEADER_BYTES = 9;
const TYPE_HEADERS = 0x1;
const FLAG_END_HEADERS = 0x4;
const FLAG_PADDED = 0x8;

/** An HPACK string literal (no Huffman coding) with its 7-bit-prefix length. */
function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text, "latin1");
  const length: number[] = [];
  if (bytes.length < 127) length.push(bytes.length);
  else {
    length.push(127);
    let rest = bytes.length - 127;
    while (rest >= 128) {
      length.push((rest % 128) + 128);
      rest = Math.floor(rest / 128);
    }
    length.push(rest);
  }
  return Buffer.concat([Buffer.from(length), bytes]);
}

/** Header fields as HPACK "literal header field without indexing, new name" entries. */
export function hpackLiterals(fields: [string, string][]): Buffer {
  return Buffer.concat(fields.flatMap(([name, value]) => [Buffer.from([0x00]), hpackString(name), hpackString(value)]));
}

/** A running proxy. */
export interface HeaderProxy {
  /** `127.0.0.1:PORT` to dial instead of the server. */
  address: string;
  /** Request HEADERS frames that got the fields. */
  readonly injected: number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (`host:port`) that appends `fields` to each request's header block. */
export async function startHeaderProxy(target: string, fields: [string, string][]): Promise<HeaderProxy> {
  const extra = hpackLiterals(fields);
  const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.slice(target.lastIndexOf(":") + 1))];
  let injected = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    upstream.pipe(client);
    // Client to server: the preface, then whole frames, HEADERS ones rewritten.
    let pending = Buffer.alloc(0);
    let prefaceSeen = false;
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (!prefaceSeen) {
        if (pending.length < PREFACE_BYTES) return;
        upstream.write(pending.subarray(0, PREFACE_BYTES));
        pending = pending.subarray(PREFACE_BYTES);
        prefaceSeen = true;
      }
      while (pending.length >= FRAME_HEADER_BYTES) {
        const length = pending.readUIntBE(0, 3);
        if (pending.length < FRAME_HEADER_BYTES + length) return;
        const frame = pending.subarray(0, FRAME_HEADER_BYTES + length);
        pending = pending.subarray(FRAME_HEADER_BYTES + length);
        const [type, flags] = [frame[3]!, frame[4]!];
        if (type !== TYPE_HEADERS || (flags & FLAG_END_HEADERS) === 0 || (flags & FLAG_PADDED) !== 0) {
          upstream.write(frame);
          continue;
        }
        const header = Buffer.from(frame.subarray(0, FRAME_HEADER_BYTES));
        header.writeUIntBE(length + extra.length, 0, 3);
        upstream.write(Buffer.concat([header, frame.subarray(FRAME_HEADER_BYTES), extra]));
        injected++;
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port: proxyPort } = proxy.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${proxyPort}`,
    get injected() {
      return injected;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}
