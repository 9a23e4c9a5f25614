/**
 * The lint rule that keeps OpenCode and GrokBuildHashline vendor-shaped: their sources may import
 * the runtime's public entries (and @grok-tools/tasks) only. Checked by linting would-be files of
 * both packages with the repository's own ESLint configuration.
 */
import path from "node:path";
import { ESLint } from "eslint";

const REPO = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: REPO });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe.each(["packages/tools-opencode/src/bash/probe.ts", "packages/tools-hashline/src/hashline-read/probe.ts"])("%s", (file) => {
  test.each([
    ['import { grokBuild } from "@grok-tools/tools-grokbuild";'],
    ['import { codex } from "@grok-tools/tools-codex";'],
    ['import { createToolsServer } from "@grok-tools/server";'],
    ['import { Session } from "@grok-tools/runtime/host";'],
    ['import { loadGoldenCases } from "@grok-tools/runtime/testing";'],
    ['import { x } from "../../../runtime/src/fs/model-path.js";'],
    ['import { x } from "@grok-tools/runtime/src/fs/model-path.js";'],
  ])("refuses %s", async (line) => {
    const messages = await restrictedImports(file, `${line}\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("public entries");
  });

  test.each([
    ['import { defineTool } from "@grok-tools/runtime";'],
    ['import { resolveModelPath } from "@grok-tools/runtime/fs";'],
    ['import { lenientBool } from "@grok-tools/runtime/helpers";'],
    ['import { taskManagerService } from "@grok-tools/tasks";'],
    ['import { loadDescription } from "../shared/description.js";'],
  ])("allows %s", async (line) => {
    expect(await restrictedImports(file, `${line}\n`)).toEqual([]);
  });
});
