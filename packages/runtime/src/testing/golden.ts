/**
 * Golden scenario runner: loads `test/golden/<tool_id>/<NNN_case>/` folders, runs each case in a fresh
 * temp workspace and returns actual vs expected artifacts. Framework-agnostic: the caller compares.
 */
import { cp, lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolRegistry } from "../registry/tool-registry.js";
import type { NamespaceDefinition } from "../tool/define-namespace.js";
import { Session } from "../session/session.js";
import { errorCodeName } from "../errors/error-code.js";
import type { ToolConfigInput } from "../finalize/finalize-types.js";
import type { TruncationConfigInput } from "../output/truncation-settings.js";
import type { ExecuteRequest } from "../execute/execute-types.js";

/** Placeholder written in expected files for the temp workspace path. */
export const WORKSPACE_PLACEHOLDER = "<WORKSPACE>";
/** Placeholder written in expected files for the temp state dir path. */
export const STATE_DIR_PLACEHOLDER = "<STATE_DIR>";

/** One golden case folder. */
export interface GoldenCase {
  /** `<tool_id>/<case>`, used as the test name. */
  readonly name: string;
  /** Absolute path of the case folder. */
  readonly dir: string;
}

/** The artifacts compared for one case. */
export interface GoldenArtifacts {
  /** `expected.json`: `{ok:true, output}` or `{ok:false, error:{code, message, ...}}`. */
  result: unknown;
  /** `expected.prompt.txt` (successful calls only). */
  promptText?: string;
  /** `expected/` file tree (path → content), only when the case has one. */
  files?: Record<string, string>;
  /** `expected.description.txt`: the called tool's finalized description, when the request sets `expect_description`. */
  description?: string;
}

/** Actual and expected artifacts of one case, ready for a deep-equality assertion. */
export interface GoldenComparison {
  actual: GoldenArtifacts;
  expected: GoldenArtifacts;
}

/** Options of {@link runGoldenCase}. */
export interface GoldenRunOptions {
  /** Namespaces to register (the package under test and any it needs). */
  namespaces: readonly NamespaceDefinition[];
  /** Rewrite the expected files from the actual run (defaults to `UPDATE_GOLDEN=1`). */
  update?: boolean;
}

/** Lists the case folders (those with a `request.json`) under `dir`, recursively, sorted by path. */
export async function loadGoldenCases(dir: string): Promise<GoldenCase[]> {
  const root = path.resolve(dir);
  const cases: GoldenCase[] = [];
  async function walk(folder: string): Promise<void> {
    if (existsSync(path.join(folder, "request.json"))) {
      cases.push({ name: path.relative(root, folder).split(path.sep).join("/"), dir: folder });
      return;
    }
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.isDirectory()) await walk(path.join(folder, entry.name));
    }
  }
  await walk(root);
  return cases;
}

/**
 * Registers one test per case through the caller's test function (jest's `test`, node:test, ...).
 * `assertEqual` performs the comparison so that the runtime never imports a test framework.
 */
export async function runGoldenSuite(
  dir: string,
  options: GoldenRunOptions & {
    test: (name: string, fn: () => Promise<void>) => void;
    assertEqual: (actual: GoldenArtifacts, expected: GoldenArtifacts) => void;
  },
): Promise<GoldenCase[]> {
  const cases = await loadGoldenCases(dir);
  for (const goldenCase of cases) {
    options.test(goldenCase.name, async () => {
      const { actual, expected } = await runGoldenCase(goldenCase, options);
      options.assertEqual(actual, expected);
    });
  }
  return cases;
}

/** One call of a case. */
interface GoldenCall {
  tool: string;
  input: unknown;
  options?: Record<string, unknown>;
}

/**
 * A case's `request.json`. `setup` calls run first and must succeed; each `save` entry names a
 * placeholder (`TASK` → `<TASK>`) for the value at a dotted path of that call's output, which later
 * inputs may use and which is written back as the placeholder in the results. `mask` lists
 * `[regex, replacement]` pairs applied to the results' texts (times, durations).
 */
interface GoldenRequest {
  tools: Record<string, unknown>[];
  preset?: string;
  truncation?: Record<string, unknown>;
  system_reminders_enabled?: boolean;
  initial_tool_state?: unknown;
  setup?: (GoldenCall & { save?: Record<string, string> })[];
  mask?: [string, string][];
  expect_description?: boolean;
  call: GoldenCall;
}

/** Runs one case and returns its actual and expected artifacts (placeholders substituted). */
export async function runGoldenCase(goldenCase: GoldenCase, options: GoldenRunOptions): Promise<GoldenComparison> {
  const update = options.update ?? process.env.UPDATE_GOLDEN === "1";
  const request = JSON.parse(await readFile(path.join(goldenCase.dir, "request.json"), "utf8")) as GoldenRequest;
  const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "grok-golden-")));
  const workspace = path.join(temp, "ws");
  const stateDir = path.join(temp, "state");
  await mkdir(workspace, { recursive: true });
  const inputDir = path.join(goldenCase.dir, "input");
  if (existsSync(inputDir)) await cp(inputDir, workspace, { recursive: true, verbatimSymlinks: true });
  const saved = new Map<string, string>();
  const fill = (value: unknown): unknown =>
    [...saved].reduce((v, [name, text]) => replaceDeep(v, name, text), replaceDeep(value, WORKSPACE_PLACEHOLDER, workspace));
  const masks = (request.mask ?? []).map(([pattern, replacement]) => [new RegExp(pattern, "g"), replacement] as const);
  const blank = (text: string): string => {
    let out = text.split(workspace).join(WORKSPACE_PLACEHOLDER).split(stateDir).join(STATE_DIR_PLACEHOLDER);
    for (const [name, value] of saved) out = out.split(value).join(name);
    for (const [pattern, replacement] of masks) out = out.replace(pattern, replacement);
    return out;
  };
  const session = new Session({ registry: ToolRegistry.of(options.namespaces), workspace, stateDir });
  try {
    const finalized = await session.finalize({
      tools: request.tools.map((entry) => toConfigEntry(fill(entry) as Record<string, unknown>)),
      ...(request.preset === undefined ? {} : { behaviorPreset: request.preset }),
      ...(request.truncation === undefined ? {} : { truncation: toTruncation(request.truncation) }),
      ...(request.system_reminders_enabled === undefined ? {} : { systemRemindersEnabled: request.system_reminders_enabled }),
      ...(request.initial_tool_state === undefined ? {} : { initialToolStateJson: JSON.stringify(fill(request.initial_tool_state)) }),
    });
    if (!finalized.ok) throw new Error(`golden case ${goldenCase.name}: finalize failed: ${finalized.message}`);
    // Fixed call ids, so that what is named after them (terminal logs) is the same on every run.
    const run = (call: GoldenCall, callId: string) =>
      session.execute({
        toolName: call.tool,
        inputJson: JSON.stringify(fill(call.input)),
        callId,
        ...toExecuteOptions(fill(call.options ?? {}) as Record<string, unknown>),
      });
    for (const [index, setup] of (request.setup ?? []).entries()) {
      const done = await run(setup, `golden-setup-${index}`);
      if (!done.ok) throw new Error(`golden case ${goldenCase.name}: setup call ${index} (${setup.tool}) failed: ${done.error.message}`);
      for (const [name, dotted] of Object.entries(setup.save ?? {})) {
        const value = dotted.split(".").reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), JSON.parse(done.outputJson));
        if (typeof value !== "string" || value === "") throw new Error(`golden case ${goldenCase.name}: setup call ${index} has no string at ${dotted}`);
        saved.set(`<${name}>`, value);
      }
    }
    const outcome = await run(request.call, "golden-call");
    const actual: GoldenArtifacts = outcome.ok
      ? { result: { ok: true, output: JSON.parse(blank(outcome.outputJson)) as unknown }, promptText: blank(outcome.promptText) }
      : {
          result: {
            ok: false,
            error: {
              code: errorCodeName(outcome.error.code),
              message: blank(outcome.error.message),
              ...(outcome.error.suggestion === undefined ? {} : { suggestion: blank(outcome.error.suggestion) }),
              ...(outcome.error.filePath === undefined ? {} : { file_path: blank(outcome.error.filePath) }),
              ...(outcome.error.lineNumber === undefined ? {} : { line_number: outcome.error.lineNumber }),
              ...(outcome.error.detailsJson === undefined ? {} : { details: JSON.parse(blank(outcome.error.detailsJson)) as unknown }),
            },
          },
        };
    const expectedTree = path.join(goldenCase.dir, "expected");
    if (existsSync(expectedTree)) actual.files = await readTree(workspace);
    if (request.expect_description === true) {
      const tool = session.toolset?.byClientName(request.call.tool);
      if (!tool) throw new Error(`golden case ${goldenCase.name}: no configured tool is called ${request.call.tool}`);
      actual.description = blank(tool.description);
    }
    if (update) await writeExpected(goldenCase.dir, actual, workspace);
    return { actual, expected: await readExpected(goldenCase.dir) };
  } finally {
    await session.close();
    await rm(temp, { recursive: true, force: true });
  }
}

async function readExpected(dir: string): Promise<GoldenArtifacts> {
  const expected: GoldenArtifacts = { result: JSON.parse(await readFile(path.join(dir, "expected.json"), "utf8")) as unknown };
  const promptFile = path.join(dir, "expected.prompt.txt");
  if (existsSync(promptFile)) expected.promptText = await readFile(promptFile, "utf8");
  const tree = path.join(dir, "expected");
  if (existsSync(tree)) expected.files = await readTree(tree);
  const descriptionFile = path.join(dir, "expected.description.txt");
  if (existsSync(descriptionFile)) expected.description = await readFile(descriptionFile, "utf8");
  return expected;
}

async function writeExpected(dir: string, actual: GoldenArtifacts, workspace: string): Promise<void> {
  await writeFile(path.join(dir, "expected.json"), JSON.stringify(actual.result, null, 2) + "\n");
  const promptFile = path.join(dir, "expected.prompt.txt");
  if (actual.promptText === undefined) await rm(promptFile, { force: true });
  else await writeFile(promptFile, actual.promptText);
  const descriptionFile = path.join(dir, "expected.description.txt");
  if (actual.description === undefined) await rm(descriptionFile, { force: true });
  else await writeFile(descriptionFile, actual.description);
  if (actual.files !== undefined) {
    const tree = path.join(dir, "expected");
    await rm(tree, { recursive: true, force: true });
    await mkdir(tree, { recursive: true });
    await cp(workspace, tree, { recursive: true, verbatimSymlinks: true });
  }
}

/**
 * The files under `root` as relative path → content. Symlinks read as `-> target`, empty folders as
 * `dir/` → "", and non-UTF-8 files as `base64:<data>`.
 */
export async function readTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(folder: string, rel: string): Promise<void> {
    const entries = (await readdir(folder)).sort();
    if (entries.length === 0 && rel !== "") out[`${rel}/`] = "";
    for (const name of entries) {
      const full = path.join(folder, name);
      const key = rel === "" ? name : `${rel}/${name}`;
      const info = await lstat(full);
      if (info.isSymbolicLink()) out[key] = `-> ${await readlink(full)}`;
      else if (info.isDirectory()) await walk(full, key);
      else if (info.isFile()) {
        const bytes = await readFile(full);
        const text = bytes.toString("utf8");
        out[key] = Buffer.from(text, "utf8").equals(bytes) ? text : `base64:${bytes.toString("base64")}`;
      }
    }
  }
  await walk(root, "");
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function replaceDeep(value: unknown, placeholder: string, replacement: string): unknown {
  if (typeof value === "string") return value.split(placeholder).join(replacement);
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, placeholder, replacement));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceDeep(v, placeholder, replacement)]));
  }
  return value;
}

/** A request.json tool entry (snake_case or camelCase; `params` may be an object) → ToolConfigInput. */
function toConfigEntry(entry: Record<string, unknown>): ToolConfigInput {
  const pick = (...keys: string[]): unknown => keys.map((k) => entry[k]).find((v) => v !== undefined);
  const params = pick("params");
  const paramsJson = pick("params_json", "paramsJson") ?? (params === undefined ? undefined : JSON.stringify(params));
  const out: ToolConfigInput = { id: String(entry.id) };
  if (paramsJson !== undefined) out.paramsJson = String(paramsJson);
  const nameOverride = pick("name_override", "nameOverride");
  if (nameOverride !== undefined) out.nameOverride = String(nameOverride);
  const paramsNames = pick("params_name_overrides", "paramsNameOverrides");
  if (paramsNames !== undefined) out.paramsNameOverrides = paramsNames as Record<string, string>;
  const version = pick("behavior_version", "behaviorVersion");
  if (version !== undefined) out.behaviorVersion = String(version);
  const description = pick("description_override", "descriptionOverride");
  if (description !== undefined) out.descriptionOverride = String(description);
  return out;
}

function toTruncation(raw: Record<string, unknown>): TruncationConfigInput {
  const pick = (...keys: string[]): unknown => keys.map((k) => raw[k]).find((v) => v !== undefined);
  const out: TruncationConfigInput = {};
  const maxLines = pick("max_lines_read", "maxLinesRead");
  if (maxLines !== undefined) out.maxLinesRead = Number(maxLines);
  const defaultBytes = pick("default_max_output_bytes", "defaultMaxOutputBytes");
  if (defaultBytes !== undefined) out.defaultMaxOutputBytes = Number(defaultBytes);
  const perTool = pick("per_tool_max_output_bytes", "perToolMaxOutputBytes");
  if (perTool !== undefined) out.perToolMaxOutputBytes = perTool as Record<string, number>;
  return out;
}

function toExecuteOptions(raw: Record<string, unknown>): Partial<ExecuteRequest> {
  const pick = (...keys: string[]): unknown => keys.map((k) => raw[k]).find((v) => v !== undefined);
  const out: Partial<ExecuteRequest> = {};
  const timeout = pick("timeout_ms", "timeoutMs");
  if (timeout !== undefined) out.timeoutMs = Number(timeout);
  const background = pick("background");
  if (background !== undefined) out.background = Boolean(background);
  const format = pick("output_format", "outputFormat");
  if (format !== undefined) out.outputFormat = String(format).toLowerCase().includes("concise") ? "concise" : "default";
  const cwd = pick("working_directory", "workingDirectory");
  if (cwd !== undefined) out.workingDirectory = String(cwd);
  const include = pick("include_fields", "includeFields");
  if (include !== undefined) out.includeFields = include as string[];
  const exclude = pick("exclude_fields", "excludeFields");
  if (exclude !== undefined) out.excludeFields = exclude as string[];
  return out;
}
