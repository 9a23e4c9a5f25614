// The production toolsets of spec §11, finalized through the real server and client stubs: every tool
// and parameter rename shows up wherever a description or schema mentions it, and the full model-facing
// text is pinned by golden files (UPDATE_GOLDEN=1 rewrites them; review the diff).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FinalizeToolServerConfigRequest, GrokToolsServiceClient, type FinalizeToolServerConfigResponse, type ToolConfigEntry } from "@grok-tools/proto";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const GOLDEN_DIR = path.join(import.meta.dirname, "golden");

/** Spec §11 "grok-build", limited to the tools this server registers. */
const GROK_BUILD: Partial<ToolConfigEntry>[] = [
  { id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsNameOverrides: { is_background: "background" } },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:list_dir" },
  { id: "GrokBuild:grep" },
  { id: "GrokBuild:kill_task", nameOverride: "kill_command_or_subagent" },
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:get_task_output", nameOverride: "get_command_or_subagent_output" },
  { id: "GrokBuild:wait_tasks", nameOverride: "wait_commands_or_subagents" },
  { id: "GrokBuild:enter_plan_mode" },
  { id: "GrokBuild:exit_plan_mode" },
  { id: "GrokBuild:ask_user_question" },
  { id: "GrokBuild:web_fetch" },
];

/** Spec §11 "codex". */
const CODEX: Partial<ToolConfigEntry>[] = [
  { id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsNameOverrides: { is_background: "background" } },
  { id: "Codex:read_file" },
  { id: "Codex:apply_patch" },
  { id: "Codex:list_dir" },
  { id: "Codex:grep_files" },
  { id: "GrokBuild:kill_task", nameOverride: "kill_command_or_subagent" },
  { id: "GrokBuild:todo_write" },
  { id: "GrokBuild:get_task_output", nameOverride: "get_command_or_subagent_output" },
];

async function finalize(entries: Partial<ToolConfigEntry>[]): Promise<{ response: FinalizeToolServerConfigResponse; server: ToolsServer; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grok-toolset-"));
  const server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
  const address = await server.listen("127.0.0.1:0");
  const client = new GrokToolsServiceClient(address, credentials.createInsecure());
  const response = await new Promise<FinalizeToolServerConfigResponse>((resolve, reject) =>
    client.finalizeToolConfigRequest(
      FinalizeToolServerConfigRequest.fromPartial({ tools: entries, systemRemindersEnabled: true }),
      (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
    ),
  );
  client.close();
  return { response, server, dir };
}

/** What a model sees of a toolset, with the temp workspace path neutralised. */
function modelView(response: FinalizeToolServerConfigResponse, dir: string): unknown {
  const text = JSON.stringify(
    response.tools.map((t) => ({
      name: t.name,
      contract_version: t.contractVersion,
      description: t.description,
      input_schema: JSON.parse(t.inputSchemaJson) as unknown,
    })),
    null,
    2,
  );
  return JSON.parse(text.split(dir).join("<WORKSPACE>"));
}

function checkGolden(name: string, actual: unknown): void {
  const file = path.join(GOLDEN_DIR, `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, "utf8"));
}

describe.each([
  ["grok-build", GROK_BUILD],
  ["codex", CODEX],
])("the %s production toolset", (name, entries) => {
  let response: FinalizeToolServerConfigResponse;
  let server: ToolsServer;
  let dir: string;

  beforeAll(async () => {
    ({ response, server, dir } = await finalize(entries));
  });
  afterAll(async () => {
    await server.shutdown(500);
    rmSync(dir, { recursive: true, force: true });
  });

  it("finalizes cleanly", () => {
    expect(response.message).toMatch(/^Finalized/);
    expect(response.success).toBe(true);
    expect(response.tools).toHaveLength(entries.length);
  });

  it("advertises the renamed tools and parameters", () => {
    const names = response.tools.map((t) => t.name);
    expect(names).toContain("run_terminal_command");
    expect(names).toContain("kill_command_or_subagent");
    expect(names).toContain("get_command_or_subagent_output");
    expect(names).not.toContain("run_terminal_cmd");
    const bash = response.tools.find((t) => t.name === "run_terminal_command")!;
    const schema = JSON.parse(bash.inputSchemaJson) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toContain("background");
    expect(Object.keys(schema.properties)).not.toContain("is_background");
  });

  it("never mentions a renamed tool or parameter by its canonical name", () => {
    const renamedAway = ["run_terminal_cmd", "kill_task", "get_task_output", "wait_tasks", "is_background"].filter(
      (canonical) => !response.tools.some((t) => t.name === canonical),
    );
    for (const tool of response.tools) {
      const text = `${tool.description}\n${tool.inputSchemaJson}`;
      for (const canonical of renamedAway) {
        const mentions = text.match(new RegExp(`(?<![A-Za-z_])${canonical}(?![A-Za-z_])`, "g")) ?? [];
        expect({ tool: tool.name, canonical, mentions: mentions.length }).toEqual({ tool: tool.name, canonical, mentions: 0 });
      }
    }
  });

  it("renders every template marker", () => {
    for (const tool of response.tools) {
      expect(tool.description).not.toMatch(/\$\{[{%#]/);
      expect(tool.inputSchemaJson).not.toMatch(/\$\{[{%#]/);
    }
  });

  it("matches the golden model-facing text", () => {
    checkGolden(`${name}-toolset`, modelView(response, dir));
  });
});
