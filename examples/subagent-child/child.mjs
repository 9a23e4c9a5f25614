#!/usr/bin/env node
// An example subagent child for grok-tools-callback-host's command runner: a real agent loop
// without a model. It reads the SpawnSubagent request as JSON on stdin, connects back to the
// grok-tools server that spawned it as its own session (or starts a server for its working
// directory), finalizes exactly the tool names it was given,
// runs a scripted plan of tool calls against it (read, grep, edit by default), feeding each
// result into the next step, and prints its result as JSON on stdout.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolsClient, findServerCommand, spawnServer } from "@grok-tools/client";

async function readStdin() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return JSON.parse(text);
}

/**
 * The plan: a JSON array after a line `PLAN:` in the prompt, else the default one. A step is
 * `{ "tool": name, "input": {...} }`, `{ "sleep_ms": n }` (a long-running child), or
 * `{ "fail": "message" }`. `$prev` in a string input is replaced by the previous step's text.
 */
function planOf(prompt) {
  const marker = prompt.indexOf("PLAN:");
  if (marker >= 0) return JSON.parse(prompt.slice(marker + 5));
  return [
    { tool: "read_file", input: { target_file: "README.md" } },
    { tool: "grep", input: { pattern: "TODO", path: "." } },
  ];
}

function substitute(value, prev) {
  if (typeof value === "string") return value.replaceAll("$prev", prev);
  if (Array.isArray(value)) return value.map((v) => substitute(v, prev));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, prev)]));
  return value;
}

async function connect(request) {
  // Back to the tools server that spawned this child (GROK_TOOLS_CHILD_ADDRESS), as the child's own
  // session: `session_id` (the child id) as x-grok-session-id. That server knows the session as this
  // child, one level below its parent, so a nested `task` call meets the depth limit.
  if (process.env.GROK_TOOLS_CHILD_ADDRESS) {
    const client = createToolsClient({
      address: process.env.GROK_TOOLS_CHILD_ADDRESS,
      sessionId: request.session_id ?? request.id,
      ...(process.env.GROK_TOOLS_CHILD_AUTH_TOKEN ? { authToken: process.env.GROK_TOOLS_CHILD_AUTH_TOKEN } : {}),
    });
    // The shared server's workspace is the parent's: the child's cwd applies per call.
    return { client, callOptions: request.cwd ? { workingDirectory: request.cwd } : {}, stop: async () => client.close() };
  }
  // Otherwise a server of its own, started for this child's directory (depth is not tracked there).
  const stateDir = await mkdtemp(path.join(os.tmpdir(), "subagent-child-"));
  // Found next to this file (the child's cwd is the workspace, which need not have node_modules).
  const command = findServerCommand(path.dirname(fileURLToPath(import.meta.url)));
  const server = await spawnServer({ workspace: request.cwd ?? process.cwd(), command, stateDir });
  return {
    client: server.client,
    callOptions: {},
    stop: async () => {
      await server.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const request = await readStdin();
  const { client, callOptions, stop } = await connect(request);
  let toolCalls = 0;
  let turns = 0;
  const log = [];
  try {
    const finalized = await client.finalize({
      tools: request.tool_names.map((name) => ({ id: `GrokBuild:${name}` })),
      sessionId: request.session_id ?? request.id,
    });
    if (!finalized.success) throw new Error(`finalize failed: ${finalized.message}`);
    if (request.transcript.length > 0) log.push(`resumed after ${request.transcript.length} earlier turns`);
    let prev = "";
    for (const step of planOf(request.prompt)) {
      turns++;
      if (step.sleep_ms) {
        await new Promise((resolve) => setTimeout(resolve, step.sleep_ms));
        continue;
      }
      if (step.fail) throw new Error(step.fail);
      if (!request.tool_names.includes(step.tool)) {
        log.push(`${step.tool}: not available to this subagent`);
        continue;
      }
      toolCalls++;
      const result = await client.executeTool(step.tool, substitute(step.input, prev), callOptions);
      prev = result.ok ? result.promptText : result.error.message;
      log.push(`${step.tool}: ${result.ok ? "ok" : "error"}: ${prev.split("\n")[0]}`);
    }
    process.stdout.write(JSON.stringify({ success: true, output: log.join("\n"), tool_calls: toolCalls, turns }));
  } finally {
    await stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
