import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry, type ToolConfigInput } from "@grok-tools/runtime/host";
import { grokBuild, grokBuildConcise } from "../index.js";

async function finalized(tools: ToolConfigInput[]) {
  const s = new Session({ registry: ToolRegistry.of([grokBuild, grokBuildConcise]), workspace: os.tmpdir(), stateDir: path.join(os.tmpdir(), "desc-state") });
  const outcome = await s.finalize({ tools });
  await s.close();
  if (!outcome.ok) throw new Error(outcome.message);
  return new Map(outcome.tools.map((t) => [t.clientName, t]));
}

const NO_GUARD =
  "Replace an exact string in a file.\n\n" +
  '- `view` prefixes each line with "LINE_NUMBER→". That prefix is not part of the file: match only what comes after the →, with its exact indentation.\n' +
  "- `old` must match exactly one place in the file. If it appears more than once, add surrounding lines to make it unique, or set `all` to change every occurrence (handy for renaming an identifier).\n" +
  "- To create a new file, set `old` to an empty string.";

test("search_replace renders client names, and the guard sentence only with the guard param", async () => {
  const overrides = { old_string: "old", replace_all: "all" };
  const plain = await finalized([
    { id: "GrokBuild:read_file", nameOverride: "view" },
    { id: "GrokBuild:search_replace", paramsNameOverrides: overrides },
  ]);
  expect(plain.get("search_replace")!.description).toBe(NO_GUARD);
  const schema = plain.get("search_replace")!.inputSchema as { properties: Record<string, { description: string }>; required: string[] };
  expect(schema.required).toEqual(["file_path", "old", "new_string"]);
  expect(schema.properties.all!.description).toBe("Replace all occurrences of old (default false)");
  const guarded = await finalized([
    { id: "GrokBuild:read_file", nameOverride: "view" },
    { id: "GrokBuild:search_replace", paramsNameOverrides: overrides, paramsJson: JSON.stringify({ empty_old_string_does_not_override: true }) },
  ]);
  expect(guarded.get("search_replace")!.description).toBe(`${NO_GUARD} An empty \`old\` cannot overwrite an existing non-empty file.`);
});

test("without a read tool the read bullet disappears; the concise twin has its own text", async () => {
  const alone = await finalized([{ id: "GrokBuild:search_replace", paramsJson: JSON.stringify({ skip_read_before_edit: true }) }]);
  expect(alone.get("search_replace")!.description).toBe(
    "Replace an exact string in a file.\n\n- `old_string` must match exactly one place in the file. If it appears more than once, add surrounding lines to make it unique, or set `replace_all` to change every occurrence (handy for renaming an identifier).\n- To create a new file, set `old_string` to an empty string.",
  );
  const concise = await finalized([{ id: "GrokBuildConcise:search_replace" }]);
  expect(concise.get("search_replace")!.description).toBe(
    'Replace an exact string in a file.\n\n- Do not include the "LINE_NUMBER→" prefixes from file reads in old_string or new_string; keep the exact indentation.\n- old_string must match exactly one place in the file. If it appears more than once, add surrounding lines to make it unique, or set replace_all to change every occurrence (handy for renaming an identifier).\n- To create a new file, set old_string to an empty string.',
  );
});

test("list_dir, grep and todo_write render their parameter names", async () => {
  const tools = await finalized([
    { id: "GrokBuild:list_dir", paramsNameOverrides: { target_directory: "dir" } },
    { id: "GrokBuild:grep", paramsNameOverrides: { pattern: "regex", glob: "include" } },
    { id: "GrokBuild:todo_write" },
  ]);
  expect(tools.get("list_dir")!.description).toContain("\nThe 'dir' parameter can be relative to the workspace root or absolute.\n");
  expect(tools.get("grep")!.description).toContain("- Pass regex as a raw regex string — no surrounding quotes.\n");
  expect(tools.get("grep")!.description).toContain("- Only filter by 'type' or 'include' when you are sure of the file type;");
  expect(tools.get("todo_write")!.description).toBe(
    "Create and manage a structured task list. The user sees this list live — it is your primary way to show progress.\n\nUse for any task with 3+ steps. Skip for trivial single-step work.",
  );
});
