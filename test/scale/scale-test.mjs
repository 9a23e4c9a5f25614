#!/usr/bin/env node
// npm run scale-test [-- --short]: three grok-tools-servers on loopback sharing one workspace and one
// state folder (--state-lock session), behind a real nginx running deploy/nginx/grok-tools.conf
// (consistent hash on x-grok-session-id). 50 sessions (12 with --short) each append lines to their
// own file with search_replace and record each round with todo_write; midway one server is killed
// with SIGKILL. At the end every session's file holds every acknowledged line exactly once, its todo
// list holds every round, and the killed server's sessions have continued on another server.
//
// It installs nothing: without nginx it names the Debian package and skips (exit 77; exit 0 with
// --short, as part of npm test), unless GROK_TOOLS_REQUIRE_NGINX=1 (.ci/run), which makes it a failure.
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { credentials, Metadata } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "packages/server/bin/grok-tools-server.js");
const SHORT = process.argv.includes("--short");
const SESSIONS = SHORT ? 12 : 50;
const ROUNDS = SHORT ? 4 : 8;
const SERVERS = 3;
const KILLED = 1; // index of the server killed midway
const SKIP_CODE = SHORT ? 0 : 77;
const REQUIRE = process.env.GROK_TOOLS_REQUIRE_NGINX === "1";

function findNginx() {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]) {
    const file = path.join(dir, "nginx");
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

const nginxBin = findNginx();
if (!nginxBin) {
  const message = "scale-test: nginx is not installed (Debian package: nginx; apt-get install nginx)";
  if (REQUIRE) {
    console.error(`FAIL ${message}, and GROK_TOOLS_REQUIRE_NGINX=1`);
    process.exit(1);
  }
  console.log(`SKIP ${message}`);
  process.exit(SKIP_CODE);
}

const started = Date.now();
const dir = mkdtempSync(path.join(tmpdir(), "grok-scale-"));
const workspace = path.join(dir, "workspace");
const stateDir = path.join(dir, "state"); // the "shared storage": one folder for all three servers
const nginxDir = path.join(dir, "nginx");
for (const d of [workspace, stateDir, nginxDir, path.join(nginxDir, "temp")]) mkdirSync(d, { recursive: true });
const children = [];
let failed = false;

function cleanup() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (!process.env.GROK_TOOLS_KEEP_SCALE_DIR) rmSync(dir, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stopNginx().finally(() => process.exit(130)));

function fail(message) {
  failed = true;
  console.error(`FAIL scale-test: ${message}`);
}

/** A free loopback port (nginx needs a number up front). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts one server; resolves its address and a list of its call log lines. */
function startGrokServer(index) {
  const child = spawn(
    process.execPath,
    [BIN, "--listen", "127.0.0.1:0", "--workspace", workspace, "--state-dir", stateDir, "--state-lock", "session", "--log-level", "info"],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GROK_TOOLS_LISTEN: "", GROK_TOOLS_CONFIG: "" } },
  );
  children.push(child);
  const calls = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    try {
      const entry = JSON.parse(line);
      if (entry.msg === "call" && entry.sessionId) calls.push({ sessionId: entry.sessionId, rpc: entry.rpc, outcome: entry.outcome, at: Date.now() });
      else if (entry.level >= 50) console.error(`server ${index}: ${line}`);
    } catch {
      console.error(`server ${index}: ${line}`);
    }
  });
  const address = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      try {
        const event = JSON.parse(line);
        if (event.event === "listening") resolve(event.address);
      } catch {
        // not the listening line
      }
    });
    child.once("exit", (code, signal) => reject(new Error(`server ${index} exited ${signal ?? code} before listening`)));
  });
  return { index, child, calls, address };
}

/** nginx with deploy/nginx/grok-tools.conf, its server and listen lines pointed at this test's servers. */
async function startNginx(addresses, port) {
  let site = readFileSync(path.join(ROOT, "deploy/nginx/grok-tools.conf"), "utf8");
  const serverLines = addresses.map((a) => `    server ${a} max_fails=1 fail_timeout=30s;`).join("\n");
  site = site.replace(/(upstream grok_tools \{[\s\S]*?)((?:\n\s*server [^\n]+;)+)/, (_m, head) => `${head}\n${serverLines}`);
  site = site.replace(/listen 50051 http2;/, `listen 127.0.0.1:${port} http2;`);
  if (!site.includes(`127.0.0.1:${port}`) || !site.includes(addresses[0])) throw new Error("could not rewrite deploy/nginx/grok-tools.conf");
  writeFileSync(path.join(nginxDir, "grok-tools.conf"), site);
  const temp = (name) => path.join(nginxDir, "temp", name);
  writeFileSync(
    path.join(nginxDir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(nginxDir, "nginx.pid")};`,
      "error_log stderr warn;",
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${temp("body")};`,
      `  proxy_temp_path ${temp("proxy")};`,
      `  fastcgi_temp_path ${temp("fastcgi")};`,
      `  uwsgi_temp_path ${temp("uwsgi")};`,
      `  scgi_temp_path ${temp("scgi")};`,
      `  include ${path.join(nginxDir, "grok-tools.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  // Unprivileged: as root (CI), nginx runs as nobody with everything it writes under the temp dir.
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: 65534, gid: 65534 } : {};
  if (asRoot) {
    chmodSync(dir, 0o755);
    for (const d of [nginxDir, path.join(nginxDir, "temp")]) chownSync(d, 65534, 65534);
  }
  const args = ["-p", nginxDir, "-e", "stderr", "-c", path.join(nginxDir, "nginx.conf"), "-g", "daemon off;"];
  execFileSync(nginxBin, ["-t", ...args], { stdio: "pipe", ...ids });
  const child = spawn(nginxBin, args, { stdio: ["ignore", "ignore", "pipe"], ...ids });
  nginx = child;
  let stderr = "";
  // Its upstream errors around the kill are expected; shown only when the test fails.
  child.stderr.on("data", (c) => (stderr += c));
  nginxLog = () => stderr;
  child.once("exit", (code, signal) => {
    if (!finished) fail(`nginx exited ${signal ?? code}: ${stderr}`);
  });
  return child;
}

let finished = false;
let nginx;
let nginxLog = () => "";

/** nginx's master must stop by itself (SIGTERM) so that it stops its workers; SIGKILL would orphan them. */
async function stopNginx() {
  if (!nginx || nginx.exitCode !== null || nginx.signalCode !== null) return;
  const exited = new Promise((resolve) => nginx.once("exit", resolve));
  nginx.kill("SIGTERM");
  const timer = setTimeout(() => nginx.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function rpc(client, method, request, metadata) {
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 60_000 }, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

function exec(client, md, toolName, input, callId) {
  return rpc(client, "executeTool", ExecuteToolRequest.fromPartial({ toolName, inputJson: JSON.stringify(input), callId }), md);
}

function lineOf(session, round) {
  return `${session} round ${round}\n`;
}

/** Retries a step when the transport failed (the server died under it); a ToolError is returned as is. */
async function retrying(what, fn) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      // 14 UNAVAILABLE (nginx 502 / connection lost), 13 INTERNAL (stream reset), 4 DEADLINE_EXCEEDED
      if (attempt >= 8 || ![14, 13, 4, 1].includes(error.code)) throw new Error(`${what}: ${error.code} ${error.details ?? error.message}`);
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

async function runSession(client, session, roundsDone, killed) {
  const md = new Metadata();
  md.set("x-grok-session-id", session);
  const file = `${session}.txt`;
  const fin = await retrying(`${session} finalize`, () =>
    rpc(
      client,
      "finalizeToolConfigRequest",
      FinalizeToolServerConfigRequest.fromPartial({
        tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace" }, { id: "GrokBuild:todo_write" }],
      }),
      md,
    ),
  );
  if (!fin.success) throw new Error(`${session}: finalize failed: ${fin.message}`);
  for (let round = 0; round < ROUNDS; round++) {
    if (round === Math.floor(ROUNDS / 2)) await killed; // every session crosses the kill mid-flight
    await retrying(`${session} round ${round}`, async () => {
      // Read first (the read-before-edit rule), and to see whether a cut call had applied the edit.
      const read = await exec(client, md, "read_file", { target_file: file }, undefined);
      const current = read.result?.$case === "success" ? readFileSync(path.join(workspace, file), "utf8") : "";
      if (!current.includes(lineOf(session, round))) {
        const edit =
          round === 0
            ? { file_path: file, old_string: "", new_string: lineOf(session, 0) }
            : { file_path: file, old_string: lineOf(session, round - 1), new_string: lineOf(session, round - 1) + lineOf(session, round) };
        const reply = await exec(client, md, "search_replace", edit, `${session}-edit-${round}`);
        if (reply.result?.$case !== "success") throw new Error(`${session} round ${round}: search_replace: ${JSON.stringify(reply.result?.value)}`);
      }
      const todo = await exec(
        client,
        md,
        "todo_write",
        { merge: true, todos: [{ id: `r${round}`, content: `round ${round}`, status: "completed" }] },
        `${session}-todo-${round}`,
      );
      if (todo.result?.$case !== "success") throw new Error(`${session} round ${round}: todo_write: ${JSON.stringify(todo.result?.value)}`);
    });
    roundsDone.count++;
  }
}

async function main() {
  const servers = Array.from({ length: SERVERS }, (_, i) => startGrokServer(i));
  const addresses = await Promise.all(servers.map((s) => s.address));
  const port = await freePort();
  await startNginx(addresses, port);
  const client = new GrokToolsServiceClient(`127.0.0.1:${port}`, credentials.createInsecure(), { "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  // Wait until nginx answers (a ListTools through it).
  for (let i = 0; ; i++) {
    try {
      await rpc(client, "listTools", { includeDisabled: false, includeSchemas: false }, new Metadata());
      break;
    } catch (error) {
      if (i > 100) throw new Error(`nginx never answered: ${error.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  console.log(`scale-test: nginx on 127.0.0.1:${port} -> ${addresses.join(", ")}; ${SESSIONS} sessions x ${ROUNDS} rounds`);

  const names = Array.from({ length: SESSIONS }, (_, i) => `scale-${i}-${Math.random().toString(36).slice(2, 8)}`);
  const roundsDone = { count: 0 };
  let kill;
  const killed = new Promise((resolve) => (kill = resolve));
  let killedAt = 0;
  // Kill once a good part of the work is acknowledged, while other sessions are mid-call.
  const killer = (async () => {
    while (roundsDone.count < (SESSIONS * ROUNDS) / 3) await new Promise((r) => setTimeout(r, 20));
    servers[KILLED].child.kill("SIGKILL");
    killedAt = Date.now();
    console.log(`scale-test: killed server ${KILLED} (${addresses[KILLED]}) after ${roundsDone.count} acknowledged rounds`);
    kill();
  })();
  const results = await Promise.allSettled(names.map((name) => runSession(client, name, roundsDone, killed)));
  await killer;
  for (const [i, r] of results.entries()) if (r.status === "rejected") fail(`${names[i]}: ${r.reason?.message ?? r.reason}`);

  // Every acknowledged edit is there exactly once, in order; every round's todo is in the session's state.
  for (const name of names) {
    const expected = Array.from({ length: ROUNDS }, (_, r) => lineOf(name, r)).join("");
    const file = path.join(workspace, `${name}.txt`);
    const content = existsSync(file) ? readFileSync(file, "utf8") : "(missing)";
    if (content !== expected) fail(`${name}: file holds ${JSON.stringify(content)}, expected ${JSON.stringify(expected)}`);
    const md = new Metadata();
    md.set("x-grok-session-id", name);
    const state = JSON.parse((await retrying(`${name} state`, () => rpc(client, "getToolState", {}, md))).stateJson);
    const text = JSON.stringify(state);
    const missing = Array.from({ length: ROUNDS }, (_, r) => `round ${r}`).filter((t) => !text.includes(t));
    if (missing.length > 0) fail(`${name}: todo state lacks ${missing.join(", ")}: ${text.slice(0, 400)}`);
  }

  // The killed server's sessions: served by it before the kill, and by another server after.
  const before = new Set(servers[KILLED].calls.filter((c) => c.at < killedAt).map((c) => c.sessionId));
  const movedTo = new Map();
  for (const s of servers) {
    if (s.index === KILLED) continue;
    for (const c of s.calls) if (c.at >= killedAt && before.has(c.sessionId) && c.outcome === "ok") movedTo.set(c.sessionId, s.index);
  }
  if (before.size === 0) fail(`server ${KILLED} served no session before it was killed (affinity not spreading sessions?)`);
  for (const id of before) if (!movedTo.has(id)) fail(`${id} was on the killed server and did not continue on another`);
  // Affinity: no session of a live server moved while its server lived.
  for (const s of servers) {
    const mine = new Set(s.calls.filter((c) => c.at < killedAt).map((c) => c.sessionId));
    for (const other of servers) {
      if (other === s) continue;
      const overlap = other.calls.filter((c) => c.at < killedAt && mine.has(c.sessionId)).map((c) => c.sessionId);
      if (overlap.length > 0) fail(`session ${overlap[0]} reached servers ${s.index} and ${other.index} before the kill`);
    }
  }
  const spread = servers.map((s) => new Set(s.calls.map((c) => c.sessionId)).size);
  finished = true;
  client.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  await stopNginx();
  if (failed) {
    console.error(`nginx log:\n${nginxLog()}`);
    console.error(`scale-test: FAILED after ${seconds} s`);
    process.exit(1);
  }
  console.log(
    `scale-test: OK in ${seconds} s: ${SESSIONS} sessions x ${ROUNDS} rounds, sessions per server ${spread.join("/")}, ` +
      `${before.size} sessions of the killed server continued on ${[...new Set(movedTo.values())].map((i) => `server ${i}`).join(" and ")}`,
  );
  process.exit(0);
}

main().catch(async (error) => {
  finished = true;
  console.error(`FAIL scale-test: ${error.stack ?? error}`);
  await stopNginx().catch(() => undefined);
  console.error(`nginx log:\n${nginxLog()}`);
  process.exit(1);
});
