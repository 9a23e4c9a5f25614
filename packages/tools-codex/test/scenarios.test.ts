/**
 * Golden scenarios of Codex:apply_patch, in the shape of Codex's own fixture suite:
 * `scenarios/NNN_name/` holds `input/` (the starting files), `patch.txt`, `expected/` (the files after;
 * a failing patch must leave them as they were) and `expected.json` (the prompt text or the error;
 * `<WORKSPACE>` stands for the workspace and `<TMP>` for the folder around it).
 */
import { afterEach, describe, expect, test } from "@jest/globals";
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { codex } from "../src/index.js";

const SCENARIOS_DIR = path.join(import.meta.dirname, "scenarios");
const WORKSPACE = "<WORKSPACE>";
/** The folder around the workspace (for paths that escape it). */
const TMP = "<TMP>";

interface ExpectedResult {
  ok: boolean;
  prompt?: string;
  error?: { code: string; message?: string };
}

/** Files under `root` as relative path → content (`.gitkeep` placeholders and empty folders ignored). */
async function readTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(folder: string, rel: string): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const key = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(folder, entry.name), key);
      else if (entry.name !== ".gitkeep") out[key] = await readFile(path.join(folder, entry.name), "utf8");
    }
  }
  if (existsSync(root)) await walk(root, "");
  return out;
}

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("apply_patch scenarios", () => {
  const names = readdirSync(SCENARIOS_DIR)
    .filter((name) => /^\d{3}_/.test(name))
    .sort();

  test("the suite is complete", () => {
    expect(names.length).toBeGreaterThanOrEqual(30);
  });

  test.each(names)("%s", async (name) => {
    const dir = path.join(SCENARIOS_DIR, name);
    const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-scenario-")));
    temps.push(temp);
    const workspace = path.join(temp, "ws");
    await mkdir(workspace);
    if (existsSync(path.join(dir, "input"))) await cp(path.join(dir, "input"), workspace, { recursive: true });
    const patch = await readFile(path.join(dir, "patch.txt"), "utf8");
    const expected = JSON.parse(await readFile(path.join(dir, "expected.json"), "utf8")) as ExpectedResult;

    const session = new Session({ registry: ToolRegistry.of([codex]), workspace, stateDir: path.join(temp, "state") });
    try {
      const finalized = await session.finalize({ tools: [{ id: "Codex:apply_patch" }] });
      expect(finalized.ok).toBe(true);
      const result = await session.execute({ toolName: "apply_patch", inputJson: JSON.stringify({ patch }) });
      const blank = (text: string): string => text.split(workspace).join(WORKSPACE).split(temp).join(TMP);
      if (expected.ok) {
        if (!result.ok) throw new Error(`expected success, got ${errorCodeName(result.error.code)}: ${result.error.message}`);
        expect(blank(result.promptText)).toBe(expected.prompt);
      } else {
        if (result.ok) throw new Error(`expected an error, got success: ${result.promptText}`);
        expect(errorCodeName(result.error.code)).toBe(expected.error?.code);
        if (expected.error?.message !== undefined) expect(blank(result.error.message)).toBe(expected.error.message);
        expect(result.error.code).not.toBe(ErrorCode.INTERNAL);
      }
      expect(await readTree(workspace)).toEqual(await readTree(path.join(dir, "expected")));
    } finally {
      await session.close();
    }
  });
});
