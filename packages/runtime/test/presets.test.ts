/**
 * Behaviour presets and per-tool versions (spec §3.5): resolution order, preset differences,
 * the exact error and warning texts, and contract_version in ToolInfo and ExecutionMetadata.
 */
import { describeTool, resolveContractVersion, versionCatalogOf, type Session, type VersionCatalog } from "../src/host.js";
import { grokBuild, makeSession, tempDirs } from "./fixtures.js";

const ALL = [
  { id: "GrokBuild:run_terminal_cmd" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuild:grep" },
  { id: "GrokBuild:get_task_output" },
  { id: "GrokBuild:kill_task" },
  { id: "GrokBuild:todo_write" },
];

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

async function versions(preset: string | undefined, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  const out = await session.finalize({
    tools: ALL.map((t) => (overrides[t.id] === undefined ? t : { ...t, behaviorVersion: overrides[t.id] })),
    ...(preset === undefined ? {} : { behaviorPreset: preset }),
  });
  if (!out.ok) throw new Error(out.message);
  return Object.fromEntries(out.tools.map((t) => [t.fqId.split(":")[1], t.contractVersion]));
}

describe("presets", () => {
  it("current (also the default for an absent or empty preset)", async () => {
    expect(await versions(undefined)).toEqual({
      run_terminal_cmd: "current",
      read_file: "current",
      search_replace: "current",
      grep: "current",
      get_task_output: "current",
      kill_task: "current",
      todo_write: "",
    });
    expect(resolveContractVersion("", "GrokBuild:grep", ["current"], undefined).ok).toBe(false);
  });

  it("legacy-0.4.10 pins six tools; grep falls back to current", async () => {
    expect(await versions("legacy-0.4.10")).toEqual({
      run_terminal_cmd: "legacy-0.4.10",
      read_file: "legacy-0.4.10",
      search_replace: "legacy-0.4.10",
      grep: "current",
      get_task_output: "legacy-0.4.10",
      kill_task: "legacy-0.4.10",
      todo_write: "",
    });
  });

  it("release-0.1.157 pins every managed tool to current", async () => {
    expect(await versions("release-0.1.157")).toEqual({
      run_terminal_cmd: "current",
      read_file: "current",
      search_replace: "current",
      grep: "current",
      get_task_output: "current",
      kill_task: "current",
      todo_write: "",
    });
  });

  it("a per-tool behavior_version wins over the preset", async () => {
    const v = await versions("legacy-0.4.10", { "GrokBuild:read_file": "current", "GrokBuild:search_replace": "legacy-0.4.10" });
    expect(v.read_file).toBe("current");
    expect(v.search_replace).toBe("legacy-0.4.10");
    expect(v.run_terminal_cmd).toBe("legacy-0.4.10");
  });

  it("an explicitly empty behavior_version is an override, and not a supported version", () => {
    expect(resolveContractVersion("current", "GrokBuild:read_file", ["current", "legacy-0.4.10"], "")).toEqual({
      ok: false,
      message: 'version "" is not supported for tool "GrokBuild:read_file"; supported versions: [current, legacy-0.4.10]',
    });
  });

  it("reports contract_version in ToolInfo and ExecutionMetadata", async () => {
    await versions("legacy-0.4.10");
    expect(describeTool(session, "read_file")?.contractVersion).toBe("legacy-0.4.10");
    expect(describeTool(session, "todo_write")?.contractVersion).toBe("");
    const r = await session.execute({ toolName: "run_terminal_cmd", inputJson: '{"command":"ls"}' });
    expect(r.metadata.contractVersion).toBe("legacy-0.4.10");
    expect(r.ok && r.promptText).toContain("version=legacy-0.4.10");
    const t = await session.execute({ toolName: "todo_write", inputJson: '{"todos":[]}' });
    expect(t.metadata.contractVersion).toBe("");
  });
});

describe("lifecycle messages", () => {
  const catalog: VersionCatalog = {
    presets: {
      ...versionCatalogOf([grokBuild]).presets,
      old: { lifecycle: { status: "deprecated" }, toolDefaults: { "GrokBuild:read_file": "legacy-0.4.10" } },
      gone: { lifecycle: { status: "removal_candidate" }, toolDefaults: {} },
    },
    versionLifecycles: {
      "GrokBuild:read_file": { "legacy-0.4.10": { status: "deprecated", note: "gitignore is ignored", replacement: "current" } },
      "GrokBuild:list_dir": { "legacy-0.4.10": { status: "deprecated" } },
      "GrokBuild:kill_task": { "legacy-0.4.10": { status: "removal_candidate", replacement: "current" } },
    },
  };

  it("words every resolution outcome as the reference does", () => {
    expect(resolveContractVersion("gone", "GrokBuild:grep", ["current"], undefined, catalog)).toEqual({
      ok: false,
      message: 'behavior_preset "gone" is scheduled for removal and cannot be used',
    });
    expect(resolveContractVersion("current", "GrokBuild:kill_task", ["current", "legacy-0.4.10"], "legacy-0.4.10", catalog)).toEqual({
      ok: false,
      message: 'behavior_version "legacy-0.4.10" for tool "GrokBuild:kill_task" is scheduled for removal. Use "current" instead.',
    });
    expect(resolveContractVersion("old", "GrokBuild:read_file", ["current", "legacy-0.4.10"], undefined, catalog)).toEqual({
      ok: true,
      version: "legacy-0.4.10",
      warnings: [
        {
          fqToolId: "",
          deprecatedVersion: "old",
          replacement: "current",
          message: 'behavior_preset "old" is deprecated and will be removed in a future release',
        },
        {
          fqToolId: "GrokBuild:read_file",
          deprecatedVersion: "legacy-0.4.10",
          replacement: "current",
          message: "GrokBuild:read_file version 'legacy-0.4.10' is deprecated: gitignore is ignored. Use 'current' instead.",
        },
      ],
    });
    expect(resolveContractVersion("current", "GrokBuild:list_dir", ["current", "legacy-0.4.10"], "legacy-0.4.10", catalog)).toMatchObject({
      ok: true,
      warnings: [{ message: "GrokBuild:list_dir version 'legacy-0.4.10' is deprecated: no details. Use 'current' instead." }],
    });
  });

  it("returns deprecation warnings from finalize (the preset's once) and removal as violations", async () => {
    const s = makeSession(dirs, { versionCatalog: catalog });
    const out = await s.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:grep" }], behaviorPreset: "old" });
    if (!out.ok) throw new Error(out.message);
    expect(out.warnings.map((w) => w.fqToolId)).toEqual(["", "GrokBuild:read_file"]);
    const s2 = makeSession(dirs, { versionCatalog: catalog });
    const bad = await s2.finalize({ tools: [{ id: "GrokBuild:grep" }], behaviorPreset: "gone" });
    expect(bad.ok || bad.violations).toEqual([
      {
        entryIndex: 0,
        toolId: "GrokBuild:grep",
        fieldPath: "behavior_version",
        message: 'behavior_preset "gone" is scheduled for removal and cannot be used',
        badValueJson: '""',
        category: "behavior_version",
      },
    ]);
    await s.close();
    await s2.close();
  });
});
