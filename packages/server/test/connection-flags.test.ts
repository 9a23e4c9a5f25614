// The connection flags reach grpc-js, seen from the wire of the real command: with
// --max-connection-age-ms a long-lived client channel has its connection recycled (a TCP proxy in
// between counts the connections) while its calls keep working, a call running across the age
// finishing within --max-connection-age-grace-ms; with --keepalive-time-ms the server pings an idle
// connection, and with --keepalive-timeout-ms it drops a peer that never answers (a raw HTTP/2
// client that reads frames and acknowledges nothing but SETTINGS).
import { afterEach, expect, it, jest } from "@jest/globals";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import path from "node:path";
import { credentials } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient, type ExecuteToolResponse } from "@grok-tools/proto";
import { cleanUp, SERVER_TEST_TIMEOUT_MS, startServer, tempDir } from "./run-server.js";
import { unary } from "./grpc-call.js";

jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const proxies: Server[] = [];
const sockets: Socket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const proxy of proxies.splice(0)) proxy.close();
  cleanUp();
});

/** A TCP proxy to `target` (`host:port`) that counts the connections it is asked for. */
async function countingProxy(target: string): Promise<{ address: string; connections: () => number }> {
  const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.slice(target.lastIndexOf(":") + 1))];
  let connections = 0;
  const proxy = createServer((client) => {
    connections++;
    const upstream = connect(port, host);
    sockets.push(client, upstream);
    client.pipe(upstream).on("error", () => client.destroy());
    upstream.pipe(client).on("error", () => upstream.destroy());
    client.on("error", () => upstream.destroy()).on("close", () => upstream.destroy());
    upstream.on("error", () => client.destroy()).on("close", () => client.destroy());
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { address: `127.0.0.1:${(proxy.address() as AddressInfo).port}`, connections: () => connections };
}

async function serve(flags: string[]): Promise<string> {
  const dir = tempDir("grok-connection-");
  const server = startServer(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", path.join(dir, "state"), "--log-level", "warn", ...flags]);
  return server.listening;
}

it("--max-connection-age-ms recycles a long-lived channel's connection; its calls keep working, a running one finishes in the grace", async () => {
  const address = await serve(["--max-connection-age-ms", "400", "--max-connection-age-grace-ms", "10000"]);
  const proxy = await countingProxy(address);
  const client = new GrokToolsServiceClient(proxy.address, credentials.createInsecure());
  try {
    const finalized = await unary<{ success: boolean }>(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] }),
    );
    expect(finalized).toMatchObject({ success: true });
    expect(proxy.connections()).toBe(1);
    // A call that outlives the connection's age: the GOAWAY lets it finish on its old connection.
    const slow = unary<ExecuteToolResponse>(
      client,
      "executeTool",
      ExecuteToolRequest.fromPartial({ toolName: "run_terminal_cmd", inputJson: JSON.stringify({ command: "sleep 1.5; echo slept", description: "slow" }) }),
    );
    // Short calls on the same channel for a while (ListTools: it does not wait for the running call, as
    // GetToolState would): each connection lasts about 400 ms.
    const until = Date.now() + 2500;
    let calls = 0;
    while (Date.now() < until || proxy.connections() < 3) {
      await unary(client, "listTools", {});
      calls++;
      await new Promise((r) => setTimeout(r, 50));
      if (Date.now() > until + 20_000) break;
    }
    const answer = await slow;
    expect(answer.result?.$case).toBe("success");
    expect(answer.result?.$case === "success" && answer.result.value.outputJson).toContain("slept");
    expect(calls).toBeGreaterThanOrEqual(3);
    // The same channel went over several connections (without the flag it keeps one).
    expect(proxy.connections()).toBeGreaterThanOrEqual(3);
  } finally {
    client.close();
  }
});

it("without --max-connection-age-ms the channel keeps its one connection", async () => {
  const address = await serve([]);
  const proxy = await countingProxy(address);
  const client = new GrokToolsServiceClient(proxy.address, credentials.createInsecure());
  try {
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      await unary(client, "listTools", {});
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(proxy.connections()).toBe(1);
  } finally {
    client.close();
  }
});

/** HTTP/2 frame types read here. */
const SETTINGS = 0x4;
const PING = 0x6;
const ACK = 0x1;

/**
 * A raw HTTP/2 client: sends the preface and empty SETTINGS, acknowledges the server's SETTINGS and
 * nothing else (so its pings go unanswered), and records when each PING arrived and when the server
 * closed the connection.
 */
function rawHttp2(address: string): { pings: number[]; closed: Promise<number>; opened: number } {
  const port = Number(address.slice(address.lastIndexOf(":") + 1));
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  const opened = Date.now();
  const pings: number[] = [];
  let buffered = Buffer.alloc(0);
  socket.on("connect", () => {
    socket.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    socket.write(frame(SETTINGS, 0));
  });
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 9) {
      const length = buffered.readUIntBE(0, 3);
      if (buffered.length < 9 + length) break;
      const [type, flags] = [buffered[3]!, buffered[4]!];
      buffered = buffered.subarray(9 + length);
      if (type === SETTINGS && !(flags & ACK)) socket.write(frame(SETTINGS, ACK));
      if (type === PING && !(flags & ACK)) pings.push(Date.now());
    }
  });
  socket.on("error", () => undefined);
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { pings, closed, opened };
}

function frame(type: number, flags: number): Buffer {
  return Buffer.from([0, 0, 0, type, flags, 0, 0, 0, 0]);
}

it("--keepalive-time-ms pings an idle connection and --keepalive-timeout-ms drops a peer that never answers", async () => {
  const address = await serve(["--keepalive-time-ms", "300", "--keepalive-timeout-ms", "700"]);
  const peer = rawHttp2(address);
  const closedAt = await Promise.race([peer.closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
  expect(closedAt).toBeGreaterThan(0);
  // A ping about 300 ms after the connection opened (the default would wait 60 s), unanswered; the server
  // dropped the connection 700 ms later (the default timeout would take 20 s). The lower bounds hold on any
  // machine: the server's timers start after our connect.
  expect(peer.pings.length).toBeGreaterThanOrEqual(1);
  expect(peer.pings[0]! - peer.opened).toBeGreaterThanOrEqual(250);
  expect(closedAt - peer.opened).toBeGreaterThanOrEqual(950);
  expect(closedAt - peer.opened).toBeLessThan(10_000);
});

it("with the default keepalive an idle peer that answers nothing is neither pinged nor dropped for seconds", async () => {
  const address = await serve([]);
  const peer = rawHttp2(address);
  const closedAt = await Promise.race([peer.closed, new Promise<number>((r) => setTimeout(() => r(-1), 2500))]);
  expect(closedAt).toBe(-1);
  expect(peer.pings).toEqual([]);
});
