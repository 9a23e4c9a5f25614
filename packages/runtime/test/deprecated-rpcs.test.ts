/**
 * The runtime side of the deprecated RPCs (spec §10): the pending pre-finalize config
 * (Enable/DisableTool, Set/Get/ResetToolOptions, Set/ClearToolOverride), its use by a finalize
 * that lists no tools, what is refused afterwards, truncation and reminder switches.
 */
import { PreconditionError, describeTools, type Session } from "../src/host.js";
import { BASH_BUNDLE, makeSession, tempDirs } from "./fixtures.js";

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let session: Session;
beforeEach(async () => {
  dirs = await tempDirs();
  session = makeSession(dirs);
});
afterEach(async () => {
  await session.close();
  await dirs.cleanup();
});

describe("before finalize", () => {
  it("enables and disables tools by fq id or unambiguous id", () => {
    expect(session.configuration.enableTool("grep")).toEqual({ success: true, message: "Tool GrokBuild:grep enabled" });
    expect(session.configuration.enableTool("GrokBuild:grep")).toEqual({ success: true, message: "Tool GrokBuild:grep is already enabled" });
    expect(session.configuration.enableTool("read_file")).toEqual({
      success: false,
      message: "Tool name read_file is ambiguous: GrokBuild:read_file, GrokBuildConcise:read_file. Use the fully-qualified id.",
    });
    expect(session.configuration.enableTool("GrokBuildConcise:read_file").success).toBe(true);
    expect(
      describeTools(session)
        .filter((t) => t.enabled)
        .map((t) => t.name),
    ).toEqual(["GrokBuild:grep", "GrokBuildConcise:read_file"]);
    expect(session.configuration.disableTool("grep")).toEqual({ success: true, message: "Tool GrokBuild:grep disabled" });
    expect(session.configuration.disableTool("grep")).toEqual({ success: true, message: "Tool GrokBuild:grep is not enabled" });
    expect(session.configuration.disableTool("nope")).toEqual({ success: false, message: "Tool not found: nope" });
  });

  it("merges, replaces, validates and resets options", () => {
    expect(session.configuration.getToolOptions("GrokBuild:search_replace", true)).toEqual({
      toolName: "GrokBuild:search_replace",
      effectiveOptionsJson: '{"skip_read_before_edit":false,"mode":"fast","limit":null}',
      defaultOptionsJson: '{"skip_read_before_edit":false,"mode":"fast","limit":null}',
      configuredOptionsJson: "{}",
      optionsSchemaJson: expect.stringContaining('"additionalProperties":false'),
    });
    expect(session.configuration.setToolOptions("search_replace", '{"mode":"safe"}')).toEqual({
      success: true,
      message: "",
      effectiveOptionsJson: '{"skip_read_before_edit":false,"mode":"safe","limit":null}',
    });
    expect(session.configuration.setToolOptions("search_replace", '{"limit":3}').effectiveOptionsJson).toBe(
      '{"skip_read_before_edit":false,"mode":"safe","limit":3}',
    );
    expect(session.configuration.setToolOptions("search_replace", '{"skip_read_before_edit":true}', true).effectiveOptionsJson).toBe(
      '{"skip_read_before_edit":true,"mode":"fast","limit":null}',
    );
    expect(session.configuration.setToolOptions("search_replace", '{"mode":"slow"}')).toEqual({
      success: false,
      message: "mode: unknown variant `slow`, expected `fast` or `safe`",
      effectiveOptionsJson: '{"skip_read_before_edit":true,"mode":"fast","limit":null}',
    });
    expect(session.configuration.setToolOptions("search_replace", "[1]").message).toBe("options_json must be a JSON object");
    expect(session.configuration.setToolOptions("search_replace", "{").message).toBe(
      "options_json failed to parse JSON: EOF while parsing an object at line 1 column 1",
    );
    expect(session.configuration.setToolOptions("nope", "{}")).toEqual({ success: false, message: "Tool not found: nope", effectiveOptionsJson: "" });
    expect(session.configuration.setToolOptions("grep", '{"a":1}')).toEqual({
      success: false,
      message: "Tool GrokBuild:grep has no options",
      effectiveOptionsJson: "{}",
    });
    session.configuration.setToolOptions("search_replace", '{"mode":"safe","limit":2}');
    expect(JSON.parse(session.configuration.getToolOptions("search_replace")!.configuredOptionsJson)).toEqual({
      skip_read_before_edit: true,
      mode: "safe",
      limit: 2,
    });
    expect(session.configuration.resetToolOptions("search_replace", ["limit", "mode"]).effectiveOptionsJson).toBe(
      '{"skip_read_before_edit":true,"mode":"fast","limit":null}',
    );
    expect(session.configuration.resetToolOptions("search_replace").effectiveOptionsJson).toBe('{"skip_read_before_edit":false,"mode":"fast","limit":null}');
    expect(session.configuration.getToolOptions("nope")).toBeUndefined();
  });

  it("uses the pending config for a finalize that lists no tools", async () => {
    for (const t of BASH_BUNDLE) session.configuration.enableTool(t.id);
    session.configuration.enableTool("GrokBuild:read_file");
    session.configuration.setToolOptions("run_terminal_cmd", '{"timeout_secs":7}');
    expect(session.configuration.setToolOverride("run_terminal_cmd", "run_terminal_command", { is_background: "background" })).toEqual({
      success: true,
      message: "Overrides set for GrokBuild:run_terminal_cmd",
    });
    session.configuration.setToolOverride("GrokBuild:read_file", "Read");
    expect(session.configuration.clearToolOverride("GrokBuild:read_file")).toEqual({ success: true, message: "Overrides cleared for GrokBuild:read_file" });
    expect(session.configuration.clearToolOverride("GrokBuild:read_file")).toEqual({ success: true, message: "No overrides set for GrokBuild:read_file" });
    session.configuration.setTruncationConfig({ maxLinesRead: 12 });
    const out = await session.finalize({ tools: [] });
    if (!out.ok) throw new Error(out.message);
    expect(out.tools.map((t) => t.clientName)).toEqual(["run_terminal_command", "get_task_output", "kill_task", "read_file"]);
    expect(out.tools[3]?.description).toBe("Read a file. Reads up to 12 lines.");
    const r = await session.execute({ toolName: "run_terminal_command", inputJson: '{"command":"ls","background":true}' });
    expect(r.ok && r.promptText).toBe("ran ls (bg=true, timeout=7, version=current)");
    expect(JSON.parse(session.configuration.getToolOptions("run_terminal_command")!.configuredOptionsJson)).toEqual({ timeout_secs: 7 });
  });

  it("keeps a SetSystemReminders(true) made before finalize", async () => {
    expect(session.configuration.setSystemReminders(true).enabled).toBe(true);
    await session.finalize({ tools: [{ id: "GrokBuild:grep" }], systemRemindersEnabled: false });
    expect(session.configuration.getSystemReminders()).toBe(true);
  });

  it("ignores the pending config when the request lists tools", async () => {
    session.configuration.enableTool("GrokBuild:grep");
    const out = await session.finalize({ tools: [{ id: "GrokBuild:todo_write" }] });
    expect(out.ok && out.tools.map((t) => t.fqId)).toEqual(["GrokBuild:todo_write"]);
  });

  it("validates overrides at finalize", async () => {
    session.configuration.enableTool("grep");
    expect(session.configuration.setToolOverride("grep", "bad name").success).toBe(true);
    expect(session.configuration.setToolOverride("grep", "x", { pattern: "" })).toEqual({
      success: false,
      message: 'invalid parameter name override "pattern" -> ""',
    });
    const out = await session.finalize({ tools: [] });
    expect(out.ok || out.violations[0]?.category).toBe("name_override_invalid");
  });
});

describe("after finalize", () => {
  beforeEach(async () => {
    const out = await session.finalize({ tools: [...BASH_BUNDLE, { id: "GrokBuild:read_file", nameOverride: "Read" }] });
    if (!out.ok) throw new Error(out.message);
  });

  it("refuses membership and override changes with a PreconditionError", () => {
    expect(() => session.configuration.enableTool("grep")).toThrow(PreconditionError);
    expect(() => session.configuration.disableTool("Read")).toThrow(PreconditionError);
    expect(() => session.configuration.setToolOverride("Read", "R")).toThrow("SetToolOverride is not allowed: the tool configuration is already finalized");
    expect(() => session.configuration.clearToolOverride("Read")).toThrow(PreconditionError);
  });

  it("changes live params by client name; later calls and GetToolState see them", async () => {
    expect(session.configuration.setToolOptions("run_terminal_cmd", '{"timeout_secs":30}').success).toBe(true);
    const r = await session.execute({ toolName: "run_terminal_cmd", inputJson: '{"command":"ls"}' });
    expect(r.ok && r.promptText).toBe("ran ls (bg=false, timeout=30, version=current)");
    expect((await session.snapshotState()).params).toEqual({
      "grok_build.Bash": { enabled_background: true, auto_background_on_timeout: false, timeout_secs: 30 },
    });
    expect(JSON.parse(describeTools(session)[0]!.currentOptionsJson!)).toEqual({
      enabled_background: true,
      auto_background_on_timeout: false,
      timeout_secs: 30,
    });
    expect(session.configuration.setToolOptions("run_terminal_cmd", '{"enabled_background":false,"auto_background_on_timeout":true}')).toMatchObject({
      success: false,
      message: "auto_background_on_timeout requires enabled_background to be true",
    });
    expect(session.configuration.resetToolOptions("run_terminal_cmd").effectiveOptionsJson).toBe(
      '{"enabled_background":true,"auto_background_on_timeout":false,"timeout_secs":null}',
    );
    expect(session.configuration.getToolOptions("Read")).toMatchObject({ toolName: "Read", effectiveOptionsJson: "{}" });
    expect(session.configuration.getToolOptions("grep")).toBeUndefined();
  });

  it("sets and reads truncation and reminder switches", () => {
    expect(session.configuration.getTruncationConfig()).toEqual({ perToolMaxOutputBytes: {} });
    session.configuration.setTruncationConfig({ defaultMaxOutputBytes: 10, perToolMaxOutputBytes: { run_terminal_cmd: 5 }, maxLinesRead: 3 });
    expect(session.configuration.getTruncationConfig()).toEqual({ defaultMaxOutputBytes: 10, perToolMaxOutputBytes: { run_terminal_cmd: 5 }, maxLinesRead: 3 });
    expect(session.truncation.maxOutputBytesFor("run_terminal_cmd", 20_000)).toBe(5);
    expect(session.configuration.setSystemReminders(true).enabled).toBe(true);
    expect(session.configuration.getSystemReminders()).toBe(true);
  });
});
