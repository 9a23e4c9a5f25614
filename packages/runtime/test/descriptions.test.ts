/**
 * Name/parameter/description overrides and description templates (spec §2.6–2.8): the
 * MiniJinja-compatible renderer, renamed tools and params everywhere a model looks, plain
 * placeholders, fallbacks.
 */
import { ErrorCode } from "../src/index.js";
import { describeTool, describeTools, renderTemplateStrict, type Session } from "../src/host.js";
import { renderTemplate, stripTemplateMarkers } from "../src/helpers.js";
import { BASH_BUNDLE, makeSession, tempDirs } from "./fixtures.js";

/** The host flags GrokBuild declares (a namespace flag in real sessions). */
const HOST_TEMPLATE_FLAGS = { is_windows: process.platform === "win32", shell_uses_semicolon: false, has_unix_utilities: process.platform !== "win32" };
const ctx = {
  nothing: null,
  tools: { by_kind: { read: "Read", edit: "Edit" } },
  params: { edit: { old_string: "find" } },
  ...HOST_TEMPLATE_FLAGS,
  system_reminders_enabled: false,
};

describe("template renderer (MiniJinja behaviour)", () => {
  it.each([
    ["Use ${{ tools.by_kind.read }} first.", "Use Read first."],
    ["Missing: [${{ tools.by_kind.search }}]", "Missing: []"],
    ["${{ params.edit.old_string }}", "find"],
    ["A${%- if tools.by_kind.search %} search${%- endif %}.", "A."],
    ["A${%- if tools.by_kind.edit %} edit${%- endif %}.", "A edit."],
    ["x\n  ${%- if tools.by_kind.read %}\nyes\n  ${%- endif %}\nz", "x\nyes\nz"],
    // Comments render only when the text has `${{` or `${%` (the reference's fast path).
    ["a ${# a comment #}b", "a ${# a comment #}b"],
    ["a ${# a comment #}b ${{ tools.by_kind.read }}", "a b Read"],
    ["keeps {{ literal }} and {x} and ${VAR} ${{ tools.by_kind.read }}", "keeps {{ literal }} and {x} and ${VAR} Read"],
    ["a stray #} stays ${{ tools.by_kind.read }}", "a stray #} stays Read"],
    ["${{ tools.by_kind.read }}\n", "Read"],
    ["${{ tools.by_kind.read }}\n\n", "Read\n"],
    ["${% if has_unix_utilities %}unix${% else %}windows${% endif %}", process.platform === "win32" ? "windows" : "unix"],
    ["${% if system_reminders_enabled %}notified${% else %}poll${% endif %}", "poll"],
    ["no markers\n", "no markers\n"],
    ["null prints ${{ nothing }}, undefined prints [${{ missing }}]", "null prints none, undefined prints []"],
  ])("%j → %j", (template, expected) => {
    expect(renderTemplate(template, ctx)).toBe(expected);
  });

  it("fails on an attribute of a missing kind, and the fallback strips every marker", () => {
    expect(() => renderTemplateStrict("${{ params.execute.is_background }}", ctx)).toThrow(/no attribute/);
    expect(renderTemplate("Use ${{ params.execute.is_background }}=true with ${{ tools.by_kind.read }}.", ctx)).toBe("Use =true with .");
  });

  it("fails on syntax errors, and a custom fallback sees the raw text", () => {
    expect(renderTemplate("${%- if %}broken", ctx, (raw) => `RAW:${raw}`)).toBe("RAW:${%- if %}broken");
  });

  it("strips markers like the reference, keeping lone and unterminated ones", () => {
    expect(stripTemplateMarkers("Use ${{ tools.by_kind.read }} first.${%- if tools.by_kind.edit %} Then ${{ tools.by_kind.edit }}.${%- endif %}")).toBe(
      "Use  first. Then .",
    );
    expect(stripTemplateMarkers("echo ${VAR}")).toBe("echo ${VAR}");
    expect(stripTemplateMarkers("broken ${{ tail")).toBe("broken ${{ tail");
  });
});

describe("finalized names, params and descriptions", () => {
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

  async function finalizeRenamed() {
    const out = await session.finalize({
      tools: [
        { id: "GrokBuild:run_terminal_cmd", nameOverride: "run_terminal_command", paramsNameOverrides: { is_background: "background", command: "cmd" } },
        { id: "GrokBuild:read_file", nameOverride: "Read", paramsNameOverrides: { target_file: "path" } },
        { id: "GrokBuild:get_task_output", nameOverride: "get_command_or_subagent_output" },
        { id: "GrokBuild:kill_task", nameOverride: "kill_command_or_subagent" },
        { id: "GrokBuild:search_replace", paramsNameOverrides: { replace_all: "all", old_string: "find" } },
      ],
      // Per-tool limits are keyed by the canonical tool name, not the client name (issue 12.5).
      truncation: { perToolMaxOutputBytes: { run_terminal_cmd: 1234 }, maxLinesRead: 77 },
    });
    if (!out.ok) throw new Error(out.message);
    return out;
  }

  it("renders descriptions with client tool and param names and the placeholders", async () => {
    const out = await finalizeRenamed();
    const byName = Object.fromEntries(out.tools.map((t) => [t.clientName, t]));
    expect(byName.run_terminal_command?.description).toBe("Run a command. Read files with Read. Output is capped at 1234 bytes.");
    expect(byName.get_command_or_subagent_output?.description).toBe("Get the output of a task started with run_terminal_command and background=true.");
    expect(byName.Read?.description).toBe("Read a file. Reads up to 77 lines. Edit with search_replace.");
    expect(byName.search_replace?.description).toBe("Edit a file. Use all to replace all.");
  });

  it("renames top-level schema properties and required entries, and renders nested descriptions", async () => {
    const out = await finalizeRenamed();
    const bash = out.tools[0]!.inputSchema as { properties: Record<string, { description?: string }>; required: string[] };
    expect(Object.keys(bash.properties)).toEqual(["cmd", "background"]);
    expect(bash.required).toEqual(["cmd"]);
    expect(bash.properties.background?.description).toBe("Run in the background; poll with get_command_or_subagent_output.");
    const read = out.tools[1]!.inputSchema as {
      properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }>;
      required: string[];
    };
    expect(Object.keys(read.properties)).toEqual(["path", "offset", "options"]);
    expect(read.required).toEqual(["path"]);
    expect(read.properties.options?.properties?.encoding?.description).toBe("Encoding; see Read.");
    const edit = out.tools[4]!.inputSchema as { properties: Record<string, { description?: string }> };
    expect(edit.properties.all?.description).toBe("Replace every match of find.");
  });

  it("substitutes {max_wait_ms} in property descriptions and pins the maximum", async () => {
    const out = await finalizeRenamed();
    const schema = out.tools[2]!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.timeout_ms).toEqual({ type: "integer", description: "Wait up to 600000 (~10 min).", maximum: 600000 });
  });

  it("takes the wait cap from GROK_MAX_WAIT_BLOCK_MS", async () => {
    process.env.GROK_MAX_WAIT_BLOCK_MS = "45000";
    try {
      const out = await finalizeRenamed();
      expect((out.tools[2]!.inputSchema as { properties: Record<string, unknown> }).properties.timeout_ms).toEqual({
        type: "integer",
        description: "Wait up to 45000 (~45 s).",
        maximum: 45000,
      });
    } finally {
      delete process.env.GROK_MAX_WAIT_BLOCK_MS;
    }
  });

  it("shows renamed tools and schemas in ListTools and GetToolInfo", async () => {
    await finalizeRenamed();
    const infos = describeTools(session);
    expect(infos.map((i) => i.name)).toEqual(["run_terminal_command", "Read", "get_command_or_subagent_output", "kill_command_or_subagent", "search_replace"]);
    const info = describeTool(session, "Read");
    expect(JSON.parse(info!.inputSchemaJson).required).toEqual(["path"]);
    expect(info!.enabled).toBe(true);
    expect(info!.contractVersion).toBe("current");
    expect(describeTool(session, "GrokBuild:read_file")?.name).toBe("Read");
  });

  it("maps renamed input keys back, lets canonical keys through, and names client params in errors", async () => {
    await finalizeRenamed();
    const ok = await session.execute({ toolName: "run_terminal_command", inputJson: '{"cmd":"ls","background":true}' });
    expect(ok.ok && ok.promptText).toBe("ran ls (bg=true, timeout=null, version=current)");
    const canonical = await session.execute({ toolName: "run_terminal_command", inputJson: '{"command":"pwd"}' });
    expect(canonical.ok && canonical.promptText).toBe("ran pwd (bg=false, timeout=null, version=current)");
    const missing = await session.execute({ toolName: "run_terminal_command", inputJson: "{}" });
    if (missing.ok) throw new Error("expected failure");
    expect(missing.error.code).toBe(ErrorCode.MISSING_REQUIRED_FIELD);
    expect(missing.error.message).toBe("missing field `cmd`");
    const wrongType = await session.execute({ toolName: "run_terminal_command", inputJson: '{"cmd":"ls","background":"often"}' });
    if (wrongType.ok) throw new Error("expected failure");
    expect(wrongType.error).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      message: 'invalid type: string "often", expected a boolean',
      detailsJson: '{"field":"background"}',
    });
    const amp = await session.execute({ toolName: "run_terminal_command", inputJson: '{"cmd":"sleep 1 &"}' });
    if (amp.ok) throw new Error("expected failure");
    expect(amp.error.message).toBe("Remove the background '&' from your command and set background=true instead.");
    const read = await session.execute({ toolName: "Read", inputJson: '{"path":"a","offset":3}' });
    expect(read.ok && read.promptText).toBe("read a offset=3 (offset)");
    const edit = await session.execute({ toolName: "search_replace", inputJson: '{"file_path":"f","find":"missing","new_string":"x"}' });
    if (edit.ok) throw new Error("expected failure");
    expect(edit.error).toMatchObject({
      code: ErrorCode.NO_MATCHES,
      message: "The string to replace was not found in the file, use the Read tool to see the correct string.",
    });
  });

  it("renders description overrides, stripping markers when they fail; some tools keep the raw override", async () => {
    const out = await session.finalize({
      tools: [
        ...BASH_BUNDLE.filter((t) => t.id !== "GrokBuild:kill_task"),
        { id: "GrokBuild:kill_task", descriptionOverride: "Kill with ${{ params.nothing.here }} now" },
        { id: "GrokBuild:read_file", descriptionOverride: "Custom ${{ tools.by_kind.execute }} {max_lines_read} ${{ params.nothing.here }}!" },
        { id: "GrokBuild:grep", descriptionOverride: "Plain override with {max_output_bytes}" },
      ],
    });
    if (!out.ok) throw new Error(out.message);
    const byName = Object.fromEntries(out.tools.map((t) => [t.clientName, t.description]));
    expect(byName.kill_task).toBe("Kill with ${{ params.nothing.here }} now");
    expect(byName.read_file).toBe("Custom  1000 !");
    expect(byName.grep).toBe("Plain override with 40000");
  });

  it("drops schema properties the params disable and the description templates that name them", async () => {
    const out = await session.finalize({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] });
    if (!out.ok) throw new Error(out.message);
    expect(Object.keys((out.tools[0]!.inputSchema as { properties: object }).properties)).toEqual(["command"]);
  });

  it("keeps an earlier tool's param override when a later tool of the kind seeds identities (§13.17)", async () => {
    const out = await session.finalize({
      tools: [
        { id: "GrokBuild:read_file" },
        { id: "GrokBuild:search_replace", paramsNameOverrides: { old_string: "find" } },
        { id: "GrokBuildConcise:read_file", nameOverride: "read2", paramsNameOverrides: { target_file: "file" } },
      ],
    });
    if (!out.ok) throw new Error(out.message);
    const schema = out.tools[1]!.inputSchema as { properties: Record<string, { description?: string }> };
    expect(schema.properties.replace_all?.description).toBe("Replace every match of find.");
    expect(session.toolset?.paramNameOfKind("read", "target_file")).toBe("file");
    expect(session.toolset?.clientNameOfKind("read")).toBe("read_file");
  });

  it("lists every registered tool before finalize under its fq id with markers stripped", () => {
    const infos = describeTools(session);
    const exec = infos.find((i) => i.name === "GrokBuild:run_terminal_cmd");
    expect(exec).toMatchObject({ name: "GrokBuild:run_terminal_cmd", namespace: "GrokBuild", enabled: false, contractVersion: "" });
    expect(exec?.description).toBe("Run a command. Read files with . Output is capped at {max_output_bytes} bytes.");
    expect(JSON.parse(exec!.defaultOptionsJson!)).toEqual({ enabled_background: true, auto_background_on_timeout: false, timeout_secs: null });
  });
});
