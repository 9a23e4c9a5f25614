/**
 * Agent definitions (deprecated agent RPCs): parsing JSON and Markdown front matter, the
 * pending toolset they build, system prompt rendering, FinalizeAgent, completion state.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { AgentDefinitionError, PreconditionError, loadAgentDefinition, parseAgentDefinition, type Session } from "../src/host.js";
import { makeSession, tempDirs } from "./fixtures.js";

const MARKDOWN = `---
name: reviewer
description: Reviews changes
tools:
  - GrokBuild:read_file
  - grep
  - todo_write
  - GrokBuild:search_replace
disallowed_tools: [search_replace]
permission_mode: plan
completion_requirement:
  tool: todo_write
  reminder: Update the todo list before finishing.
tool_config:
  grep:
    retry:
      max_retries: 3
      base_delay_ms: 100
      max_delay_ms: 2000
---

You review code. Read files with \${{ tools.by_kind.read }}\${% if tools.by_kind.search %} and search with \${{ tools.by_kind.search }}\${% endif %}.
`;

describe("parsing", () => {
  it("reads Markdown with front matter; the body is the prompt template", () => {
    expect(parseAgentDefinition(MARKDOWN, "markdown")).toEqual({
      name: "reviewer",
      description: "Reviews changes",
      tools: ["GrokBuild:read_file", "grep", "todo_write", "GrokBuild:search_replace"],
      disallowedTools: ["search_replace"],
      permissionMode: "plan",
      outputFormat: "",
      promptMode: "full",
      completionRequirement: { tool: "todo_write", reminder: "Update the todo list before finishing." },
      toolConfig: { grep: { retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 2000 } } },
      promptTemplate:
        "You review code. Read files with ${{ tools.by_kind.read }}${% if tools.by_kind.search %} and search with ${{ tools.by_kind.search }}${% endif %}.",
    });
  });

  it("reads JSON with camelCase or snake_case keys", () => {
    const def = parseAgentDefinition(
      JSON.stringify({ name: "a", tools: "grep, todo_write", promptMode: "extend", prompt: "P", compact_prompt: "C", completionRequirement: { tool: "grep" } }),
      "json",
    );
    expect(def).toMatchObject({
      name: "a",
      tools: ["grep", "todo_write"],
      promptMode: "extend",
      promptTemplate: "P",
      compactPromptTemplate: "C",
      completionRequirement: { tool: "grep", reminder: "" },
    });
  });

  it("treats Markdown without front matter as a bare prompt", () => {
    expect(parseAgentDefinition("Just a prompt.\n", "markdown")).toMatchObject({ name: "", tools: [], promptTemplate: "Just a prompt." });
  });

  it.each([
    ["---\nname: [unclosed\n---\nbody", "markdown", /invalid front matter/],
    ["---\n- a\n- b\n---\nbody", "markdown", /front matter must be a mapping/],
    ["---\ncompletion_requirement: {reminder: x}\n---\n", "markdown", /completion_requirement must have a tool name/],
    ["---\ntools: 3\n---\n", "markdown", /tools must be a list of tool names/],
    ['{"prompt_mode":"half"}', "json", /prompt_mode must be "full" or "extend"/],
    ["{", "json", /invalid JSON/],
    ['{"tool_config":{"grep":{"retry":{"max_retries":-1}}}}', "json", /tool_config.grep.retry.max_retries must be a non-negative integer/],
  ] as const)("rejects %j", (text, format, message) => {
    expect(() => parseAgentDefinition(text, format)).toThrow(AgentDefinitionError);
    expect(() => parseAgentDefinition(text, format)).toThrow(message);
  });
});

describe("in a session", () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let session: Session;
  beforeEach(async () => {
    dirs = await tempDirs();
    const file = path.join(dirs.workspace, "reviewer.md");
    await writeFile(file, MARKDOWN);
    session = makeSession(dirs, { agent: await loadAgentDefinition(file) });
  });
  afterEach(async () => {
    await session.close();
    await dirs.cleanup();
  });

  it("builds the pending toolset from the agent's tools minus disallowed ones", () => {
    expect(session.configuration.pending.enabled).toEqual(["GrokBuild:read_file", "GrokBuild:grep", "GrokBuild:todo_write"]);
    expect(session.agent.getAgentInfo()).toMatchObject({
      name: "reviewer",
      tools: ["GrokBuild:read_file", "grep", "todo_write", "GrokBuild:search_replace"],
      disallowedTools: ["search_replace"],
      permissionMode: "plan",
    });
  });

  it("renders the prompt with overrides, finalizes, then refuses overrides", async () => {
    session.configuration.setToolOverride("grep", "Search");
    expect(session.agent.getSystemPrompt()).toEqual({ systemPrompt: "You review code. Read files with read_file and search with Search.", promptMode: "full" });
    const done = await session.agent.finalizeAgent();
    expect(done).toEqual({ success: true, systemPrompt: "You review code. Read files with read_file and search with Search.", message: "" });
    expect(session.finalized).toBe(true);
    expect(session.agent.getSystemPrompt("compact").systemPrompt).toBe(done.systemPrompt);
    expect(() => session.configuration.setToolOverride("grep", "S")).toThrow(PreconditionError);
    expect((await session.agent.finalizeAgent()).success).toBe(true);
  });

  it("tracks completion of the required tool per turn", async () => {
    await session.agent.finalizeAgent();
    expect(session.agent.getCompletionState()).toEqual({ hasRequirement: true, requiredTool: "todo_write", completed: false });
    await session.execute({ toolName: "todo_write", inputJson: '{"todos":"bad"}' });
    expect(session.agent.getCompletionState().completed).toBe(false);
    await session.execute({ toolName: "grep", inputJson: '{"pattern":"x"}' });
    expect(session.agent.getCompletionState().completed).toBe(false);
    await session.execute({ toolName: "todo_write", inputJson: '{"todos":[]}' });
    expect(session.agent.getCompletionState().completed).toBe(true);
    session.agent.resetCompletionState();
    expect(session.agent.getCompletionState().completed).toBe(false);
  });

  it("reports a failed FinalizeAgent", async () => {
    session.configuration.setToolOverride("grep", "read_file");
    const out = await session.agent.finalizeAgent();
    expect(out.success).toBe(false);
    expect(out.message).toContain('duplicate client_name "read_file"');
    expect(session.finalized).toBe(false);
  });
});

describe("without an agent", () => {
  it("answers empty defaults", async () => {
    const dirs = await tempDirs();
    const s = makeSession(dirs);
    expect(s.agent.getSystemPrompt()).toEqual({ systemPrompt: "", promptMode: "" });
    expect(s.agent.getAgentInfo()).toBeUndefined();
    expect(s.agent.getCompletionState()).toEqual({ hasRequirement: false, requiredTool: "", completed: false });
    await expect(loadAgentDefinition(path.join(dirs.workspace, "missing.md"))).rejects.toThrow(/cannot read agent definition/);
    await s.close();
    await dirs.cleanup();
  });
});
