// The finalize contract (spec §3, issue 4) through the real server and the real client: one fresh
// server per case (a toolset can be finalized once), every violation category reachable with the
// built-in tools, presets, overrides and the state merge. The whole model- and host-facing answer is
// pinned in test/golden/finalize-contract.json (UPDATE_GOLDEN=1 rewrites it; review the diff).
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DeepPartial, FinalizeToolServerConfigRequest } from "@grok-tools/proto";
import { spawnServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";

const GOLDEN = path.join(import.meta.dirname, "golden", "finalize-contract.json");
const BG_TOOLS = [{ id: "GrokBuild:get_task_output" }, { id: "GrokBuild:kill_task" }];

/** Prints 1000 characters: over a 300 limit, under the 20 000 default. */
const THOUSAND_X = { command: "head -c 1000 /dev/zero | tr '\\0' x", description: "print 1000 x" };

/** name → finalize request (and, for state cases, what to read back; for limit cases, a call to make). */
const CASES: Record<string, { request: DeepPartial<FinalizeToolServerConfigRequest>; readState?: boolean; call?: { tool: string; input: unknown } }> = {
  params_json_parse: { request: { tools: [{ id: "GrokBuild:read_file", paramsJson: "{nope" }] } },
  params_json_empty_string: { request: { tools: [{ id: "GrokBuild:read_file", paramsJson: "" }] } },
  params_json_not_object: { request: { tools: [{ id: "GrokBuild:read_file", paramsJson: "[1,2]" }] } },
  name_override_invalid: { request: { tools: [{ id: "GrokBuild:read_file", nameOverride: "has space" }] } },
  name_override_empty: { request: { tools: [{ id: "GrokBuild:read_file", nameOverride: "" }] } },
  behavior_preset_unknown: { request: { behaviorPreset: "legacy-9", tools: [{ id: "GrokBuild:read_file" }] } },
  tool_not_found: { request: { tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:teleport" }] } },
  behavior_version_unsupported: { request: { tools: [{ id: "GrokBuild:grep", behaviorVersion: "legacy-0.4.10" }] } },
  behavior_version_unmanaged: { request: { tools: [{ id: "GrokBuild:todo_write", behaviorVersion: "current" }] } },
  params_unknown_field: { request: { tools: [{ id: "GrokBuild:read_file", paramsJson: '{"cursor_rules":true}' }] } },
  params_type: { request: { tools: [{ id: "GrokBuild:list_dir", paramsJson: '{"max_output_chars":"lots"}' }] } },
  params_constraint: {
    request: { tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false,"auto_background_on_timeout":true}' }] },
  },
  duplicate_client_name: { request: { tools: [{ id: "GrokBuild:read_file" }, { id: "Codex:read_file" }] } },
  requirements_bash_background: { request: { tools: [{ id: "GrokBuild:run_terminal_cmd" }, { id: "GrokBuild:kill_task" }] } },
  requirements_search_replace: { request: { tools: [{ id: "GrokBuild:search_replace" }] } },
  requirements_plan_mode: { request: { tools: [{ id: "GrokBuild:enter_plan_mode" }] } },
  requirements_task_output: {
    request: { tools: [{ id: "GrokBuild:get_task_output" }, { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] },
  },
  ok_renamed_tools_and_params: {
    request: {
      tools: [
        { id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsNameOverrides: { is_background: "background" } },
        { id: "GrokBuild:get_task_output", nameOverride: "get_command_or_subagent_output" },
        { id: "GrokBuild:kill_task", nameOverride: "kill_command_or_subagent" },
        {
          id: "GrokBuild:read_file",
          paramsNameOverrides: { target_file: "path" },
          descriptionOverride: "Read ${{ params.read.target_file }} with ${{ tools.by_kind.read }}; run with ${{ tools.by_kind.execute }}.",
        },
      ],
    },
  },
  ok_legacy_preset: {
    request: {
      behaviorPreset: "legacy-0.4.10",
      tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:grep" }, { id: "GrokBuild:list_dir", behaviorVersion: "current" }],
    },
  },
  ok_initial_state_merge: {
    request: {
      tools: [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:read_file" }],
      initialToolStateJson: JSON.stringify({
        params: { "grok_build.ReadFile": { cursor_rules_on_read: true } },
        state: { "grok_build.Todo": { todos: { a: { content: "write tests", priority: "high", status: "in_progress" } } }, "unknown.Thing": { x: 1 } },
      }),
    },
    readState: true,
  },
  initial_state_not_json: { request: { tools: [{ id: "GrokBuild:todo_write" }], initialToolStateJson: "{" } },
  ok_with_bg_tools: { request: { tools: [{ id: "GrokBuild:run_terminal_cmd" }, ...BG_TOOLS] } },
  // Per-tool limits are keyed by the canonical name (issue 12.5): the description and the output agree.
  ok_renamed_per_tool_limit: {
    request: {
      tools: [{ id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsJson: '{"enabled_background":false}' }],
      truncation: { perToolMaxOutputBytes: { run_terminal_cmd: 300 } },
    },
    call: { tool: "run_terminal_command", input: THOUSAND_X },
  },
  ok_renamed_client_name_key_ignored: {
    request: {
      tools: [{ id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsJson: '{"enabled_background":false}' }],
      truncation: { perToolMaxOutputBytes: { run_terminal_command: 300 } },
    },
    call: { tool: "run_terminal_command", input: THOUSAND_X },
  },
};

// Every case starts its own server, four at a time, the batches one after another.
jest.setTimeout(spawnTimeoutMs(Math.ceil(Object.keys(CASES).length / 4)));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gtc-finalize-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The workspace, and the server's state folder for it (`<name>-<hash of its path>`), as placeholders. */
function withPlaceholders(text: string, workspace: string): string {
  return text
    .split(workspace)
    .join("<WORKSPACE>")
    .replace(/<WORKSPACE>\/\.state\/[^/]+-[0-9a-f]{16}\//g, "<WORKSPACE>/.state/<WORKSPACE_STATE>/");
}

async function runCase(name: string, spec: (typeof CASES)[string]): Promise<unknown> {
  const workspace = await mkdtemp(path.join(root, `${name}-`));
  const server = await spawnServer({ workspace, stateDir: path.join(workspace, ".state") });
  try {
    const result = await server.client.finalize(spec.request);
    const answer: Record<string, unknown> = {
      success: result.success,
      message: result.message,
      violations: result.violations,
      tools: result.tools.map((t) => ({
        name: t.name,
        contract_version: t.contractVersion,
        ...(t.name === "read_file" || t.name === "run_terminal_command"
          ? { description: t.description, input_properties: Object.keys((JSON.parse(t.inputSchemaJson) as { properties: object }).properties) }
          : {}),
      })),
      version_warnings: result.versionWarnings,
    };
    if (spec.readState) answer.state = JSON.parse((await server.client.getToolState()).stateJson) as unknown;
    if (spec.call) {
      const called = await server.client.executeTool(spec.call.tool, spec.call.input, { callId: "finalize-contract-call" });
      answer.call = called.ok ? { ok: true, prompt_text: withPlaceholders(called.promptText, workspace) } : { ok: false, error: called.error };
    }
    return answer;
  } finally {
    await server.close();
  }
}

it("answers every finalize case as pinned in the golden file", async () => {
  const names = Object.keys(CASES);
  const actual: Record<string, unknown> = {};
  // A few servers at a time: each case needs its own (the toolset locks after a success).
  for (let i = 0; i < names.length; i += 4) {
    const batch = names.slice(i, i + 4);
    const answers = await Promise.all(batch.map((name) => runCase(name, CASES[name]!)));
    batch.forEach((name, j) => (actual[name] = answers[j]));
  }
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(GOLDEN)) writeFileSync(GOLDEN, text);
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(GOLDEN, "utf8")));
});
