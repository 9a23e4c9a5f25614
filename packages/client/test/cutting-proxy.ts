// A loopback TCP proxy for tests that need a lost reply: while `holdReplies` is on, bytes from the
// server are kept back instead of forwarded; `cut()` then destroys every connection, so the client
// never sees the answer the server already sent. New connections go to `target` (changeable).
import net from "node:net";

export class CuttingProxy {
  target: number;
  holdReplies = false;
  private readonly server: net.Server;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  /** Server bytes held back (and dropped on cut). */
  heldBytes = 0;

  private constructor(target: number) {
    this.target = target;
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(target: number): Promise<{ proxy: CuttingProxy; port: number }> {
    const proxy = new CuttingProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
    return { proxy, port: (proxy.server.address() as net.AddressInfo).port };
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.target, "127.0.0.1");
    const pair = { client, upstream };
    this.pairs.add(pair);
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (this.holdReplies) this.heldBytes += chunk.length;
      else client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  }

  /** Drops every open connection (and what it held back); later connections forward normally. */
  cut(): void {
    for (const { client, upstream } of [...this.pairs]) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    this.holdReplies = false;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
