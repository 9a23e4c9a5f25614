/**
 * The server's memory as a leak moves it and garbage does not. The server under load runs with
 * Node's inspector on a loopback port the kernel picks (`--inspect=127.0.0.1:0`); a helper process
 * asks it over the DevTools protocol for a full garbage collection (`HeapProfiler.collectGarbage`)
 * and then for `process.memoryUsage()`. Without the collection, the heap a scrape reports (the
 * metrics endpoint's `nodejs_heap_size_used_bytes`) holds whatever garbage the last calls left
 * until V8 next collects, which an idle server may not do for minutes: it read 55 MiB after a
 * round of 1 000 calls and kept growing while idle, against 24 MiB live.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { findServerCommand, type SpawnedServer } from "@grok-tools/client";
import { startWorkspaceServer, type TestRoot } from "./server.js";

/** A server started with the inspector, and the inspector's WebSocket address. */
export interface InspectedServer {
  server: SpawnedServer;
  inspector: string;
}

/**
 * {@link startWorkspaceServer} with the inspector on: the usual server command run by this Node
 * with `--inspect=127.0.0.1:0`, which prints the debugger's address on stderr before the server
 * starts (`Debugger listening on ws://...`).
 */
export async function startInspectedServer(root: TestRoot): Promise<InspectedServer> {
  const launcher = path.join(root.root, "server-with-inspector.sh");
  await writeFile(launcher, `#!/bin/sh\nexec '${process.execPath}' --inspect=127.0.0.1:0 '${findServerCommand()}' "$@"\n`);
  await chmod(launcher, 0o755);
  let stderr = "";
  const server = await startWorkspaceServer(root, {
    command: launcher,
    onStderr: (text) => {
      if (stderr.length < 64 * 1024) stderr += text;
    },
  });
  const inspector = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(stderr)?.[1];
  if (!inspector) {
    await server.close();
    throw new Error(`the server did not report its inspector: ${stderr.slice(0, 500)}`);
  }
  return { server, inspector };
}

// Run by a helper Node that has the WebSocket client (Node 20 has it behind a flag): one request at a time.
const HELPER = `
const ws = new WebSocket(process.argv[1]);
let id = 0;
const pending = new Map();
ws.onmessage = (event) => {
  const message = JSON.parse(event.data);
  if (message.id !== undefined) pending.get(message.id)?.(message);
};
const send = (method, params = {}) => new Promise((resolve, reject) => {
  const n = ++id;
  pending.set(n, (m) => (m.error ? reject(new Error(method + ": " + m.error.message)) : resolve(m.result)));
  ws.send(JSON.stringify({ id: n, method, params }));
});
ws.onerror = () => { console.error("cannot reach the inspector"); process.exit(2); };
ws.onopen = async () => {
  await send("HeapProfiler.collectGarbage");
  const usage = await send("Runtime.evaluate", { expression: "JSON.stringify(process.memoryUsage())", returnByValue: true });
  console.log(usage.result.value);
  ws.close();
  process.exit(0);
};
setTimeout(() => { console.error("the inspector did not answer in 30 s"); process.exit(3); }, 30000);
`;

/** What {@link settledMemory} reads. */
export interface SettledMemory extends NodeJS.MemoryUsage {
  /** Open file descriptors of the server (read before the helper connects). */
  fds: number;
}

/**
 * The server's open descriptors once their number has not changed for a second (at most 15 s): a
 * command leaves work behind for a moment, the spare launchers of its session and the socket pair
 * made ahead for the next command, made a few milliseconds after it answers.
 */
async function settledDescriptors(pid: number): Promise<number> {
  const count = () => readdirSync(`/proc/${pid}/fd`).length;
  let last = count();
  let since = Date.now();
  for (const end = Date.now() + 15_000; Date.now() < end && Date.now() - since < 1_000;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = count();
    if (now !== last) [last, since] = [now, Date.now()];
  }
  return last;
}

/**
 * The server's memory after a full collection: `heapUsed` is live objects only, `external` the
 * memory of Buffers and other native objects V8 tracks, `rss` what the process holds; and its
 * open descriptors, read before the helper connects.
 */
export async function settledMemory({ server, inspector }: InspectedServer): Promise<SettledMemory> {
  const fds = await settledDescriptors(server.process.pid!);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--experimental-websocket", "--no-warnings", "-e", HELPER, inspector], { timeout: 40_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`memory reading failed: ${stderr || error.message}`));
      resolve({ ...(JSON.parse(stdout) as NodeJS.MemoryUsage), fds });
    });
  });
}
