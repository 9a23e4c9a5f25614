// What the benchmark cases share: the real server started as its own process from the built bin (as
// users run it, measured from outside), raw grpc-js stubs for it (ts-proto's generated client, no
// convenience layer), and the bare operations cases are judged against: an empty grpc-js unary (a
// grpc.health.v1 Check on the same server and channel, so the only difference is the tool's work)
// and a bare grpc-js server process.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { credentials, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import healthCheck from "grpc-health-check";
import { ExecuteToolRequest, ExecuteToolResponse, FinalizeToolServerConfigRequest, GrokToolsServiceClient, MAX_MESSAGE_BYTES } from "@grok-tools/proto";
import { PRELOADS, REPORT_PERIOD_MS, reportFile } from "./preload-report.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const serverBin = path.join(root, "packages/server/bin/grok-tools-server.js");

/** A fresh temporary folder; removed by the returned `remove()`. */
export function tempDir(prefix = "grok-bench-") {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns `node <script> ...args` and resolves when a stdout line satisfies `ready` (default: the
 * server's `{"event":"listening"}` line): `{ child, line, ms }`, `ms` from spawn to that line.
 */
export function spawnUntilLine(args, { ready = (line) => line.includes('"event":"listening"'), env = process.env, cwd = root } = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env, cwd });
    let stderr = "";
    child.stderr.on("data", (d) => {
      if (stderr.length < 20_000) stderr += d;
    });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if (ready(line)) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        lines.close();
        resolve({ child, line, ms });
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => reject(new Error(`${args.join(" ")} exited (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
}

/** Stops a child and waits for it to exit. */
export function stopChild(child, signal = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** A size field of /proc/PID/status (given in kB there), in MB. */
function statusMb(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
}

/** Resident set size of a process in MB, from /proc/PID/status (VmRSS). */
export function rssMb(pid) {
  return statusMb(pid, "VmRSS");
}

/**
 * CPU time a process has used so far, user + system, in ms: fields 14 and 15 of /proc/PID/stat
 * (clock ticks, 100 per second on Linux), read after the command name, which may hold spaces.
 */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The node arguments that load the measuring preloads into a server (ours and the bare ones):
 * bench/gc-stats.mjs with GROK_BENCH_GC_STATS=1, bench/fs-timing.mjs with GROK_BENCH_FS_TIMING=1,
 * bench/phase-timing.mjs with GROK_BENCH_PHASES=1.
 */
function preloadArgs() {
  return Object.values(PRELOADS)
    .filter(({ flag }) => process.env[flag] === "1")
    .flatMap(({ script }) => ["--import", new URL(`./${script}`, import.meta.url).href]);
}

/**
 * The node arguments of a bare server process (the floor servers, the bare stream): the measuring
 * preloads as for ours, then GROK_BENCH_BARE_NODE_ARGS (space-separated), to profile the bare side
 * as GROK_BENCH_NODE_ARGS profiles ours: `GROK_BENCH_BARE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof-bare"`.
 * The bare scripts exit on SIGTERM, so a profile is written when the bench stops them.
 */
export function bareNodeArgs() {
  return [...preloadArgs(), ...(process.env.GROK_BENCH_BARE_NODE_ARGS ?? "").split(" ").filter(Boolean)];
}

/**
 * Peak resident set size of a process since {@link resetPeakRss} (VmHWM of /proc/PID/status), in MB.
 */
export function peakRssMb(pid) {
  return statusMb(pid, "VmHWM");
}

/** Starts a new peak for {@link peakRssMb} (Linux: `5` written to /proc/PID/clear_refs). */
export function resetPeakRss(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/**
 * What measuring preload `name` (bench/preload-report.mjs) loaded into `pid` last wrote, after
 * waiting out its write period; undefined when its flag is not set to 1.
 */
async function preloadReport(name, pid) {
  if (process.env[PRELOADS[name].flag] !== "1") return undefined;
  await new Promise((resolve) => setTimeout(resolve, REPORT_PERIOD_MS + 50));
  try {
    return JSON.parse(readFileSync(reportFile(name, pid), "utf8"));
  } catch {
    return undefined;
  }
}

/** The garbage-collection totals of a server started with GROK_BENCH_GC_STATS=1 (bench/gc-stats.mjs loaded), or undefined without it. */
export function gcStats(pid) {
  return preloadReport("gcStats", pid);
}

/**
 * The fs calls a server started with GROK_BENCH_FS_TIMING=1 (bench/fs-timing.mjs loaded) has made so
 * far, by name (`{ count, totalNs }`), or undefined without it.
 */
export async function fsTiming(pid) {
  return (await preloadReport("fsTiming", pid))?.calls;
}

/**
 * The phase histograms of a server started with GROK_BENCH_PHASES=1 (bench/phase-timing.mjs loaded),
 * or undefined without it; {@link phasesBetween} turns two of them into medians.
 */
export function phases(pid) {
  return preloadReport("phases", pid);
}

/**
 * Each method's calls and median phases (µs) between two {@link phases} reports of one process
 * (`before` undefined: since the start): `{ [method path]: { calls, request, handler, ... } }`.
 */
export function phasesBetween(before, after) {
  const result = {};
  for (const [method, entry] of Object.entries(after?.methods ?? {})) {
    const earlier = before?.methods?.[method];
    const calls = entry.calls - (earlier?.calls ?? 0);
    if (calls <= 0) continue;
    const medians = { calls };
    for (const [phase, counts] of Object.entries(entry.phases)) {
      let seen = 0;
      medians[phase] = counts.findIndex((count, bucket) => (seen += count - (earlier?.phases[phase][bucket] ?? 0)) * 2 >= calls);
    }
    result[method] = medians;
  }
  return result;
}

/**
 * The server's arguments for a workspace and state root; extra flags appended. GROK_BENCH_NODE_ARGS
 * (space-separated) goes before the bin, to profile the server: `GROK_BENCH_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" node bench/hot-path.bench.mjs --case read_file`.
 */
export function serverArgs(workspace, stateDir, extra = []) {
  const nodeArgs = [...preloadArgs(), ...(process.env.GROK_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  return [...nodeArgs, serverBin, "--workspace", workspace, "--state-dir", stateDir, "--listen", "127.0.0.1:0", "--log-level", "warn", ...extra];
}

/**
 * Starts the real server on a free port with `workspace` (default: a fresh temporary folder) and
 * finalizes `tools` (`[{ id, paramsJson? }]`, with the proto's `truncation` if given) when given. Returns the stubs and helpers; `close()` stops
 * the server and removes what it created.
 */
export async function startServer({ workspace, tools, truncation, extraArgs = [] } = {}) {
  const temp = tempDir();
  const ws = workspace ?? path.join(temp.dir, "ws");
  if (!workspace) (await import("node:fs")).mkdirSync(ws);
  const { child, line } = await spawnUntilLine(serverArgs(ws, path.join(temp.dir, "state"), extraArgs));
  const address = JSON.parse(line).address;
  const options = { "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES };
  const client = new GrokToolsServiceClient(address, credentials.createInsecure(), options);
  const healthPkg = loadPackageDefinition(loadSync(healthCheck.protoPath));
  // The same channel as the tools client, so the empty call and the tool call share one connection's costs.
  const health = new healthPkg.grpc.health.v1.Health(address, credentials.createInsecure(), { ...options, channelOverride: client.getChannel() });
  const check = promisify(health.check.bind(health));
  const executeRaw = promisify(client.executeTool.bind(client));
  if (tools) {
    const fin = await promisify(client.finalizeToolConfigRequest.bind(client))(
      FinalizeToolServerConfigRequest.fromPartial({ tools, ...(truncation ? { truncation } : {}) }),
    );
    if (!fin.success) throw new Error(`finalize failed: ${fin.message}`);
  }
  return {
    child,
    address,
    workspace: ws,
    client,
    /** The empty grpc-js unary: health Check. */
    emptyCall: () => check({ service: "" }),
    /** A prepared ExecuteTool call of `toolName` with `input`: `() => Promise<response>`, throws on a tool error. */
    toolCall(toolName, input) {
      const request = ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) });
      return async () => {
        const res = await executeRaw(request);
        if (res.result?.$case !== "success") throw new Error(`${toolName} failed: ${JSON.stringify(res.result)}`);
        return res;
      };
    },
    async close() {
      health.close();
      client.close();
      await stopChild(child);
      temp.remove();
    },
  };
}

/** A bare grpc-js server process (only grpc.health.v1, nothing of ours); prints a listening line. */
export const bareServerScript = `
const grpc = require("@grpc/grpc-js");
const { HealthImplementation } = require("grpc-health-check");
const server = new grpc.Server();
new HealthImplementation({ "": "SERVING" }).addToServer(server);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(JSON.stringify({ event: "listening", address: "127.0.0.1:" + port }) + "\\n");
});
`;

/**
 * A bare grpc-js server process that answers ExecuteTool with a response recorded from our server,
 * chosen by the request's input_json, through the generated service definition (the same decoding,
 * serializer and message sizes) and runs nothing: the transport floor of a tool call. Beside it the
 * same health Check as the bare server. `responses`: `[[toolName, inputJson, ExecuteToolResponse, work?], ...]`,
 * chosen by tool name and input. With `work`, the answer is preceded by the least the call itself
 * must do, synchronously (its work floor: what no implementation of the tool can skip; the
 * functions are in bench/work-floor.mjs):
 * - a path: a confined, tracked read of that file (`readLikeTheTool`): parse the input, open, check
 *   the descriptor's path in /proc, fstat, read, close, sha256 the bytes, JSON-encode a FileContent;
 * - `{ todoList: true }`: a todo_write (`todoLikeTheTool`): parse the input, check each todo's
 *   fields, copy the items (priority defaulted) into the output's list and state snapshot, write the
 *   summary, JSON-encode the output, size the prompt text, and answer under a fresh call id.
 * Resolves `{ emptyCall, toolCall(toolName, input), close() }` like {@link startServer}.
 */
export async function startFloorServer(responses) {
  const temp = tempDir("grok-bench-floor-");
  const file = path.join(temp.dir, "responses.json");
  writeFileSync(
    file,
    JSON.stringify(responses.map(([toolName, input, response, work]) => [`${toolName}\n${input}`, ExecuteToolResponse.toJSON(response), work ?? null])),
  );
  const script = `
    import grpc from "@grpc/grpc-js";
    import health from "grpc-health-check";
    import { readFileSync } from "node:fs";
    import { readLikeTheTool, todoLikeTheTool } from ${JSON.stringify(pathToFileURL(path.join(root, "bench/work-floor.mjs")).href)};
    import { ExecuteToolResponse, GrokToolsServiceService, MAX_MESSAGE_BYTES } from "@grok-tools/proto";
    const answers = new Map(
      JSON.parse(readFileSync(${JSON.stringify(file)}, "utf8")).map(([key, json, work]) => [key, { response: ExecuteToolResponse.fromJSON(json), work }]),
    );
    // Stopped with SIGTERM: exiting normally lets a --cpu-prof in GROK_BENCH_BARE_NODE_ARGS write its profile.
    process.on("SIGTERM", () => process.exit(0));
    const server = new grpc.Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
    new health.HealthImplementation({ "": "SERVING" }).addToServer(server);
    server.addService(GrokToolsServiceService, {
      executeTool: (call, callback) => {
        const answer = answers.get(call.request.toolName + "\\n" + call.request.inputJson);
        const work = answer?.work;
        if (typeof work === "string") readLikeTheTool(call.request.inputJson, work);
        // The recorded answer under the fresh id: an id of the same length, so the same bytes on the wire.
        else if (work?.todoList) return callback(null, { ...answer.response, callId: todoLikeTheTool(call.request.inputJson) });
        callback(null, answer?.response);
      },
    });
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) throw err;
      process.stdout.write(JSON.stringify({ event: "listening", address: "127.0.0.1:" + port }) + "\\n");
    });
  `;
  const { child, line } = await spawnUntilLine([...bareNodeArgs(), "--input-type=module", "-e", script], { cwd: root });
  const address = JSON.parse(line).address;
  const options = { "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES };
  const client = new GrokToolsServiceClient(address, credentials.createInsecure(), options);
  const healthPkg = loadPackageDefinition(loadSync(healthCheck.protoPath));
  const healthClient = new healthPkg.grpc.health.v1.Health(address, credentials.createInsecure(), { ...options, channelOverride: client.getChannel() });
  const check = promisify(healthClient.check.bind(healthClient));
  const executeRaw = promisify(client.executeTool.bind(client));
  return {
    child,
    emptyCall: () => check({ service: "" }),
    toolCall(toolName, input) {
      const request = ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input) });
      return async () => {
        const res = await executeRaw(request);
        if (res.result?.$case !== "success") throw new Error(`floor answer for ${toolName} missing`);
        return res;
      };
    },
    async close() {
      healthClient.close();
      client.close();
      await stopChild(child);
      temp.remove();
    },
  };
}
