/**
 * FinalizeToolConfigRequest validation (spec §3.1–3.3): every violation category, the summary
 * format, effective params, the locked toolset and calls before finalize.
 */
import { ErrorCode, Type, defineNamespace, defineTool } from "../src/index.js";
import { PreconditionError, Session, ToolRegistry, type FinalizeOutcome } from "../src/host.js";
import { parseJsonLikeSerde } from "../src/helpers.js";
import { BASH_BUNDLE, grokBuild, makeSession, tempDirs } from "./fixtures.js";

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

function failed(outcome: FinalizeOutcome) {
  if (outcome.ok) throw new Error("expected finalize to fail");
  return outcome;
}

describe("wire conversion (§3.1)", () => {
  it("rejects params_json that is not JSON, with serde's wording, and stops at the first entry", async () => {
    const out = failed(
      await session.finalize({
        tools: [
          { id: "GrokBuild:grep", paramsJson: "{" },
          { id: "GrokBuild:nope", paramsJson: "[]" },
        ],
      }),
    );
    expect(out.violations).toEqual([
      {
        entryIndex: 0,
        toolId: "GrokBuild:grep",
        fieldPath: "tools[0].params_json",
        message: "GrokBuild:grep: tools[0].params_json failed to parse JSON: EOF while parsing an object at line 1 column 1",
        expected: "a JSON object",
        badValueJson: "{",
        category: "params_json_parse",
      },
    ]);
    expect(out.message).toBe("GrokBuild:grep: tools[0].params_json failed to parse JSON: EOF while parsing an object at line 1 column 1");
  });

  it("treats an explicitly empty params_json as present (and unparseable)", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep", paramsJson: "" }] }));
    expect(out.violations[0]?.message).toBe("GrokBuild:grep: tools[0].params_json failed to parse JSON: EOF while parsing a value at line 1 column 0");
  });

  it("rejects params_json that is JSON but not an object", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:grep", paramsJson: "[1]" }] }));
    expect(out.violations).toEqual([
      {
        entryIndex: 1,
        toolId: "GrokBuild:grep",
        fieldPath: "tools[1].params_json",
        message: "GrokBuild:grep: tools[1].params_json must be a JSON object",
        expected: "a JSON object",
        badValueJson: "[1]",
        category: "params_json_not_object",
      },
    ]);
  });

  it.each([
    ["", "identifier must not be empty"],
    ["a:b:c", 'identifier "a:b:c" has invalid format'],
    ["has space", 'identifier "has space" has invalid format'],
  ])("rejects name_override %j", async (name, error) => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep", nameOverride: name }] }));
    expect(out.violations[0]).toMatchObject({
      entryIndex: 0,
      fieldPath: "tools[0].name_override",
      category: "name_override_invalid",
      message: `GrokBuild:grep: tools[0].name_override is not a valid tool name (${JSON.stringify(name)}): ${error}`,
    });
  });

  it("accepts a fully-qualified id as a name_override", async () => {
    const out = await session.finalize({ tools: [{ id: "GrokBuild:grep", nameOverride: "GrokBuild:grep" }] });
    expect(out.ok && out.tools.map((t) => t.clientName)).toEqual(["GrokBuild:grep"]);
  });
});

describe("serde-style JSON errors", () => {
  it.each([
    ["", "EOF while parsing a value at line 1 column 0"],
    ["x", "expected value at line 1 column 1"],
    ["1 2", "trailing characters at line 1 column 3"],
    ['{"a" 1}', "expected `:` at line 1 column 6"],
    ['{"a":1,}', "trailing comma at line 1 column 8"],
    ["[1 2]", "expected `,` or `]` at line 1 column 4"],
    ['{"a":1 "b"}', "expected `,` or `}` at line 1 column 8"],
    ["{1:2}", "key must be a string at line 1 column 2"],
    // serde reports the position after the offending character: here the newline.
    ['{\n  "a": tru\n}', "expected ident at line 3 column 0"],
    ['{\n  "a": tx}', "expected ident at line 2 column 9"],
    ['"abc', "EOF while parsing a string at line 1 column 4"],
    ["[".repeat(200), "recursion limit exceeded at line 1 column 129"],
  ])("%j → %s", (text, message) => {
    expect(parseJsonLikeSerde(text)).toEqual({ ok: false, message });
  });

  it("accepts nesting up to the limit", () => {
    expect(parseJsonLikeSerde(`${"[".repeat(128)}${"]".repeat(128)}`).ok).toBe(true);
  });

  it("parses valid JSON", () => {
    expect(parseJsonLikeSerde('{"a":[1,2.5e3,true,null,"\\u00e9"]}')).toEqual({ ok: true, value: { a: [1, 2500, true, null, "é"] } });
  });
});

describe("validate_config (§3.2)", () => {
  it("rejects an unknown preset alone", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:nope" }], behaviorPreset: "legacy-9" }));
    expect(out.violations).toEqual([
      {
        toolId: "(global)",
        fieldPath: "behavior_preset",
        message: 'unknown behavior_preset: "legacy-9"',
        expected: "one of the registered behavior presets",
        badValueJson: '"legacy-9"',
        category: "behavior_preset",
      },
    ]);
    expect(out.message).toBe('(global): behavior_preset; unknown behavior_preset: "legacy-9"; expected one of the registered behavior presets; got "legacy-9"');
  });

  it("collects every per-entry violation: unknown id, bad version, bad params", async () => {
    const out = failed(
      await session.finalize({
        tools: [
          { id: "GrokBuild:nope" },
          { id: "GrokBuild:grep", behaviorVersion: "legacy-0.4.10" },
          { id: "GrokBuild:todo_write", behaviorVersion: "current" },
          { id: "GrokBuild:search_replace", paramsJson: '{"mode":"slow"}' },
        ],
      }),
    );
    expect(out.violations).toEqual([
      {
        entryIndex: 0,
        toolId: "GrokBuild:nope",
        fieldPath: "id",
        message: "not found in registry",
        badValueJson: '"GrokBuild:nope"',
        category: "tool_not_found",
      },
      {
        entryIndex: 1,
        toolId: "GrokBuild:grep",
        fieldPath: "behavior_version",
        message: 'version "legacy-0.4.10" is not supported for tool "GrokBuild:grep"; supported versions: [current]',
        badValueJson: '"legacy-0.4.10"',
        category: "behavior_version",
      },
      {
        entryIndex: 2,
        toolId: "GrokBuild:todo_write",
        fieldPath: "behavior_version",
        message: 'behavior_version override not allowed for unmanaged tool "GrokBuild:todo_write"',
        badValueJson: '"current"',
        category: "behavior_version",
      },
      {
        entryIndex: 3,
        toolId: "GrokBuild:search_replace",
        fieldPath: "params.mode",
        message: "unknown variant `slow`, expected `fast` or `safe`",
        expected: "`fast` or `safe`",
        badValueJson: '"slow"',
        category: "params_unknown_variant",
      },
    ]);
    expect(out.message.split("\n")).toEqual([
      'GrokBuild:nope: id; not found in registry; got "GrokBuild:nope"',
      'GrokBuild:grep: behavior_version; version "legacy-0.4.10" is not supported for tool "GrokBuild:grep"; supported versions: [current]; got "legacy-0.4.10"',
      'GrokBuild:todo_write: behavior_version; behavior_version override not allowed for unmanaged tool "GrokBuild:todo_write"; got "current"',
      'GrokBuild:search_replace: params.mode; unknown variant `slow`, expected `fast` or `safe`; expected `fast` or `safe`; got "slow"',
    ]);
  });

  it("reports unknown params fields of strict params", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsJson: '{"colour":1}' }] }));
    expect(out.violations).toEqual([
      {
        entryIndex: 1,
        toolId: "GrokBuild:search_replace",
        fieldPath: "params.colour",
        message: "unknown field `colour`, expected one of `skip_read_before_edit`, `mode`, `limit`",
        expected: "one of `skip_read_before_edit`, `mode`, `limit`",
        badValueJson: "1",
        category: "params_unknown_field",
      },
    ]);
  });

  it("reports wrong types", async () => {
    const out = failed(
      await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsJson: '{"skip_read_before_edit":"yes"}' }] }),
    );
    expect(out.violations[0]).toEqual({
      entryIndex: 1,
      toolId: "GrokBuild:search_replace",
      fieldPath: "params.skip_read_before_edit",
      message: 'invalid type: string "yes", expected a boolean',
      expected: "a boolean",
      badValueJson: '"yes"',
      category: "params_type",
    });
  });

  it("reports other invalid values as params_invalid", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsJson: '{"limit":0}' }] }));
    expect(out.violations[0]).toEqual({
      entryIndex: 1,
      toolId: "GrokBuild:search_replace",
      fieldPath: "params.limit",
      message: "invalid value: integer `0`, must be >= 1",
      expected: "must be >= 1",
      badValueJson: "0",
      category: "params_invalid",
    });
  });

  it("reports missing params fields", async () => {
    const needy = defineTool({
      id: "needy",
      kind: "other",
      description: "Needs a name.",
      input: Type.Object({}),
      output: Type.Object({ type: Type.Literal("Text") }),
      params: { resourceId: "test.Needy", schema: Type.Object({ name: Type.String() }), defaults: {} as { name: string } },
      async execute() {
        return { output: { type: "Text" as const }, promptText: "" };
      },
    });
    const s = new Session({
      registry: ToolRegistry.of([defineNamespace({ name: "Test", apiVersion: 1, tools: [needy] })]),
      workspace: dirs.workspace,
      stateDir: dirs.stateDir,
    });
    const out = failed(await s.finalize({ tools: [{ id: "Test:needy" }] }));
    expect(out.violations).toEqual([{ entryIndex: 0, toolId: "Test:needy", message: "missing field `name`", category: "params_missing_field" }]);
    expect(out.message).toBe("Test:needy: missing field `name`");
  });

  it("checks semantic constraints of params", async () => {
    const out = failed(
      await session.finalize({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false,"auto_background_on_timeout":true}' }] }),
    );
    expect(out.violations).toEqual([
      {
        entryIndex: 0,
        toolId: "GrokBuild:run_terminal_cmd",
        fieldPath: "params.auto_background_on_timeout",
        message: "auto_background_on_timeout requires enabled_background to be true",
        expected: "false (when enabled_background is false)",
        badValueJson: "true",
        category: "params_constraint",
      },
    ]);
  });

  it("rejects duplicate client names, naming the first tool", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:read_file", nameOverride: "grep" }] }));
    expect(out.violations).toEqual([
      {
        entryIndex: 1,
        toolId: "GrokBuild:read_file",
        fieldPath: "name_override",
        message: 'duplicate client_name "grep": already used by GrokBuild:grep. Use name_override to give each tool a unique client-facing name.',
        expected: "a unique client-facing tool name",
        badValueJson: '"grep"',
        category: "duplicate_client_name",
      },
    ]);
  });

  it("reports the same id twice as a duplicate client name, and under two names as a duplicate id", async () => {
    const same = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:grep" }] }));
    expect(same.violations[0]?.category).toBe("duplicate_client_name");
    const renamed = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:grep", nameOverride: "grep2" }] }));
    expect(renamed.violations).toEqual([
      {
        entryIndex: 1,
        toolId: "GrokBuild:grep",
        fieldPath: "id",
        message: 'tool "GrokBuild:grep" is listed more than once',
        expected: "each tool id at most once",
        badValueJson: '"GrokBuild:grep"',
        category: "duplicate_tool_id",
      },
    ]);
  });

  it("allows two same-named tools of different namespaces when one is renamed", async () => {
    const out = await session.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuildConcise:read_file", nameOverride: "read_concise" }] });
    expect(out.ok).toBe(true);
    const r = await session.execute({ toolName: "read_concise", inputJson: '{"target_file":"a"}' });
    expect(r.ok).toBe(true);
  });

  it("rejects mixing the standard and hashline file bundles", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuildHashline:hashline_read" }] }));
    expect(out.violations).toEqual([
      {
        toolId: "(file-toolset)",
        fieldPath: "tools",
        message:
          "mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.",
        category: "file_toolset_conflict",
      },
    ]);
    expect(out.message).toBe(
      "(file-toolset): tools; mixed standard and hashline file tools are not allowed. Use either the standard bundle (read_file, search_replace, grep) or the hashline bundle (hashline_read, hashline_edit, hashline_grep), not both.",
    );
  });
});

describe("toolset rules run once per id", () => {
  it("reports a rule that two namespaces declare once, from the first registered", async () => {
    const { defineToolsetRule } = await import("../src/index.js");
    const rule = (from: string) =>
      defineToolsetRule({ id: "shared_boundary", check: (t) => (t.hasTool("A:a") && t.hasTool("B:b") ? [{ message: `A and B do not mix (${from})` }] : []) });
    const tool = (id: string) =>
      defineTool({
        id,
        kind: "other",
        description: id,
        input: Type.Object({}),
        output: Type.Object({ type: Type.Literal("X") }),
        execute: async () => ({ output: { type: "X" as const }, promptText: "" }),
      });
    const a = defineNamespace({ name: "A", apiVersion: 1, tools: [tool("a")], toolsetRules: [rule("A")] });
    const b = defineNamespace({ name: "B", apiVersion: 1, tools: [tool("b")], toolsetRules: [rule("B")] });
    const s = new Session({ registry: ToolRegistry.of([a, b]), workspace: dirs.workspace, stateDir: dirs.stateDir });
    try {
      const out = failed(await s.finalize({ tools: [{ id: "A:a" }, { id: "B:b" }] }));
      expect(out.violations.map((v) => [v.message, v.category])).toEqual([["A and B do not mix (A)", "shared_boundary"]]);
    } finally {
      await s.close();
    }
  });
});

describe("requirements (§3.3)", () => {
  it("lists only the missing bash companions", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:run_terminal_cmd" }, { id: "GrokBuild:kill_task" }] }));
    expect(out.violations).toEqual([
      {
        entryIndex: 0,
        toolId: "GrokBuild:run_terminal_cmd",
        fieldPath: "params.enabled_background",
        message: "enabled_background=true requires GrokBuild:get_task_output so background bash tasks can be observed and cancelled",
        expected: "set enabled_background=false or include get_task_output and kill_task",
        badValueJson: "true",
        category: "requirements",
      },
    ]);
  });

  it("is satisfied by disabling background", async () => {
    const out = await session.finalize({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] });
    expect(out.ok).toBe(true);
  });

  it("collects the requirements of every tool", async () => {
    const out = failed(await session.finalize({ tools: [{ id: "GrokBuild:search_replace" }, { id: "GrokBuild:enter_plan_mode" }] }));
    expect(out.violations.map((v) => [v.toolId, v.category, v.message])).toEqual([
      ["GrokBuild:search_replace", "requirements", "skip_read_before_edit=false requires a Read tool in the toolset so files can be read before editing"],
      ["GrokBuild:enter_plan_mode", "requirements", "enter_plan_mode requires GrokBuild:exit_plan_mode so plan mode can always be exited"],
    ]);
    expect(out.violations[0]).toMatchObject({ entryIndex: 0, fieldPath: "params.skip_read_before_edit", badValueJson: "false" });
    expect(out.violations[1]).toMatchObject({ entryIndex: 1, fieldPath: "tools", expected: "include GrokBuild:exit_plan_mode" });
  });
});

describe("effective params and the locked toolset", () => {
  it("shallow-merges params_json over the defaults, keeping unknown keys of lenient params", async () => {
    const out = await session.finalize({
      tools: [...BASH_BUNDLE.slice(1), { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"timeout_secs":5,"extra":{"a":1}}' }],
    });
    if (!out.ok) throw new Error(out.message);
    expect(out.tools[2]?.params).toEqual({ enabled_background: true, auto_background_on_timeout: false, timeout_secs: 5, extra: { a: 1 } });
    const state = await session.snapshotState();
    expect(state).toEqual({ params: { "grok_build.Bash": { enabled_background: true, auto_background_on_timeout: false, timeout_secs: 5, extra: { a: 1 } } } });
  });

  it("refuses a second finalize with a PreconditionError, also after a failed first one succeeds", async () => {
    expect((await session.finalize({ tools: [{ id: "GrokBuild:nope" }] })).ok).toBe(false);
    expect((await session.finalize({ tools: [{ id: "GrokBuild:grep" }] })).ok).toBe(true);
    await expect(session.finalize({ tools: [{ id: "GrokBuild:grep" }] })).rejects.toThrow(PreconditionError);
    const error = await session.finalize({ tools: [] }).catch((e: unknown) => e);
    expect(PreconditionError.is(error)).toBe(true);
  });

  it("answers calls before finalize with TOOL_DISABLED telling to finalize", async () => {
    const r = await session.execute({ toolName: "grep", inputJson: '{"pattern":"x"}' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ErrorCode.TOOL_DISABLED);
    expect(r.error.message).toContain("finalized");
    expect(r.error.suggestion).toContain("Finalize");
  });

  it("answers unknown client names with TOOL_NOT_FOUND and suggestions", async () => {
    await session.finalize({ tools: [{ id: "GrokBuild:grep" }, { id: "GrokBuild:read_file" }] });
    const r = await session.execute({ toolName: "gerp", inputJson: "{}" });
    if (r.ok) throw new Error("expected failure");
    expect(r.error.code).toBe(ErrorCode.TOOL_NOT_FOUND);
    expect(r.error.message).toBe("Tool not found: gerp");
    expect(r.error.suggestion).toContain("'grep'");
  });

  it("lists only registered tools in the registry fixture", () => {
    expect(grokBuild.tools.length).toBeGreaterThan(5);
  });
});
