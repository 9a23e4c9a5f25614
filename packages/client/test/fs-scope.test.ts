// Path confinement through the real server, after the descriptor-based file layer (issue #12
// item 6): with `--fs-scope any` every file tool still reaches any folder; by default the same calls
// are refused, while links inside the workspace keep working.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer, type SpawnedServer } from "../src/spawn-server.js";
import { spawnTimeoutMs } from "./timeouts.js";
import type { ToolCallResult } from "../src/tool-result.js";

const TOOLS = [
  { id: "GrokBuild:list_dir" },
  { id: "GrokBuild:grep" },
  { id: "GrokBuild:read_file" },
  { id: "GrokBuild:search_replace" },
  { id: "GrokBuildConcise:search_replace", nameOverride: "search_replace_concise" },
  { id: "Codex:list_dir", nameOverride: "codex_list_dir" },
  { id: "Codex:grep_files" },
  { id: "Codex:apply_patch" },
  { id: "Codex:read_file", nameOverride: "codex_read_file" },
];

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "gt-scope-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A workspace and a folder beside it, and a server over the workspace. */
async function start(name: string, args: string[]): Promise<{ server: SpawnedServer; ws: string; other: string }> {
  const ws = path.join(base, `${name}-ws`);
  const other = path.join(base, `${name}-other`);
  await mkdir(path.join(ws, "src"), { recursive: true });
  await mkdir(path.join(other, "deep"), { recursive: true });
  await writeFile(path.join(ws, "src", "in.txt"), "needle in\n");
  await writeFile(path.join(other, "deep", "o.txt"), "needle other\n");
  await symlink(path.join(ws, "src"), path.join(ws, "alias"));
  const server = await spawnServer({ workspace: ws, stateDir: path.join(base, `${name}-state`), args });
  const finalized = await server.client.finalize({ tools: TOOLS });
  if (!finalized.success) throw new Error(finalized.message);
  return { server, ws, other };
}

function calls(ws: string, other: string): Array<[string, unknown]> {
  return [
    ["list_dir", { target_directory: other }],
    ["grep", { pattern: "needle", path: other }],
    ["grep", { pattern: "needle", path: path.join(other, "deep", "o.txt") }],
    ["read_file", { target_file: path.join(other, "deep", "o.txt") }],
    ["codex_list_dir", { dir_path: other }],
    ["grep_files", { pattern: "needle", path: other }],
    ["search_replace", { file_path: path.join(other, "deep", "new.txt"), old_string: "", new_string: "made\n" }],
    ["apply_patch", { patch: `*** Begin Patch\n*** Add File: ${path.join(other, "made", "p.txt")}\n+patched\n*** End Patch` }],
    ["codex_read_file", { file_path: path.join(other, "deep", "o.txt") }],
    ["search_replace_concise", { file_path: path.join(other, "deep", "u.txt"), old_string: "", new_string: "needle u\n" }],
    ["search_replace_concise", { file_path: path.join(other, "deep", "o.txt"), old_string: "needle other", new_string: "needle other, edited" }],
    [
      "apply_patch",
      {
        patch: `*** Begin Patch\n*** Update File: ${path.join(other, "deep", "u.txt")}\n*** Move to: ${path.join(other, "deep", "m.txt")}\n@@\n-needle u\n+moved\n*** End Patch`,
      },
    ],
    ["apply_patch", { patch: `*** Begin Patch\n*** Delete File: ${path.join(other, "deep", "o.txt")}\n*** End Patch` }],
  ].map(([tool, input]) => [tool as string, input]) as Array<[string, unknown]>;
}

describe("--fs-scope any", () => {
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    env = await start("any", ["--fs-scope", "any"]);
  }, spawnTimeoutMs());
  afterAll(async () => {
    await env?.server.close();
  });

  it("lets every file tool reach a folder outside the workspace", async () => {
    const results: Array<[string, ToolCallResult]> = [];
    for (const [tool, input] of calls(env.ws, env.other)) results.push([tool, await env.server.client.executeTool(tool, input)]);
    expect(results.filter(([, r]) => !r.ok).map(([tool, r]) => `${tool}: ${JSON.stringify(r)}`)).toEqual([]);
    const text = (i: number) => (results[i]![1] as { promptText: string }).promptText;
    expect(text(0)).toContain("o.txt");
    expect(text(1)).toContain(`${env.other}/deep/o.txt`);
    expect(text(2)).toContain(`${env.other}/deep/o.txt\n1:needle other`);
    expect(text(5)).toBe(`${env.other}/deep/o.txt`);
    expect(await readFile(path.join(env.other, "deep", "new.txt"), "utf8")).toBe("made\n");
    expect(await readFile(path.join(env.other, "made", "p.txt"), "utf8")).toBe("patched\n");
    expect(text(8)).toBe("L1: needle other");
    expect(await readFile(path.join(env.other, "deep", "m.txt"), "utf8")).toBe("moved\n");
    expect((await readdir(path.join(env.other, "deep"))).sort()).toEqual(["m.txt", "new.txt"]);
  });
});

describe("the default scope", () => {
  let env: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    env = await start("default", []);
  }, spawnTimeoutMs());
  afterAll(async () => {
    await env?.server.close();
  });

  it("refuses the same calls with PERMISSION_DENIED and changes nothing outside", async () => {
    for (const [tool, input] of calls(env.ws, env.other)) {
      const result = await env.server.client.executeTool(tool, input);
      expect({ tool, code: result.ok ? "ok" : result.error.code }).toEqual({ tool, code: 204 });
    }
    expect((await readdir(env.other)).sort()).toEqual(["deep"]);
    expect(await readdir(path.join(env.other, "deep"))).toEqual(["o.txt"]);
  });

  it("follows links inside the workspace, and shows paths as they were written", async () => {
    const grep = await env.server.client.executeTool("grep", { pattern: "needle", path: "alias" });
    expect(grep.ok && grep.promptText).toContain(`${env.ws}/alias/in.txt\n1:needle in`);
    const files = await env.server.client.executeTool("grep_files", { pattern: "needle", path: path.join(env.ws, "alias") });
    expect(files.ok && files.promptText).toBe(`${env.ws}/alias/in.txt`);
    const list = await env.server.client.executeTool("list_dir", { target_directory: "alias" });
    expect(list.ok && list.promptText).toBe(`- ${env.ws}/alias/\n  - in.txt`);
    const written = await env.server.client.executeTool("apply_patch", { patch: "*** Begin Patch\n*** Add File: alias/new/n.txt\n+n\n*** End Patch" });
    expect(written.ok).toBe(true);
    expect(await readFile(path.join(env.ws, "src", "new", "n.txt"), "utf8")).toBe("n\n");
  });
});
