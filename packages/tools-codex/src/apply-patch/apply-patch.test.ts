/**
 * Codex:apply_patch as a tool: its model-facing text, notifications, all-or-nothing writes and
 * path confinement. The behaviour matrix lives in test/scenarios.
 */
import { afterEach, describe, expect, test } from "@jest/globals";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, type ToolNotification } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { readTracker, sha256Hex } from "@grok-tools/runtime/fs";
import { codex } from "../namespace.js";
import { loadDescription } from "../shared/description.js";

const APPLY_PATCH_DESCRIPTION = loadDescription(import.meta.url);

/** sha256 of the reference's DESCRIPTION constant (apply_patch/tool.rs), 3030 bytes. */
const REFERENCE_DESCRIPTION_SHA256 = "7dddbd7f90bd14a973cbcc4d707879e6b3c5e4a5457408cf826277161bcd3456";

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(options: { allowPaths?: string[] } = {}) {
  const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-apply-")));
  temps.push(temp);
  const workspace = path.join(temp, "ws");
  await mkdir(workspace);
  const notifications: ToolNotification[] = [];
  const session = new Session({
    registry: ToolRegistry.of([codex]),
    workspace,
    stateDir: path.join(temp, "state"),
    onNotification: (_id, n) => notifications.push(n),
    ...(options.allowPaths === undefined ? {} : { allowPaths: options.allowPaths }),
  });
  const finalized = await session.finalize({ tools: [{ id: "Codex:apply_patch" }] });
  expect(finalized.ok).toBe(true);
  const run = (patch: string) => session.execute({ toolName: "apply_patch", inputJson: JSON.stringify({ patch }) });
  return { temp, workspace, session, notifications, run };
}

describe("apply_patch", () => {
  test("the description is the reference's, byte for byte", () => {
    expect(Buffer.byteLength(APPLY_PATCH_DESCRIPTION)).toBe(3030);
    expect(createHash("sha256").update(APPLY_PATCH_DESCRIPTION).digest("hex")).toBe(REFERENCE_DESCRIPTION_SHA256);
  });

  test("output_json carries every file with its old and new text", async () => {
    const { workspace, session, run } = await setup();
    await writeFile(path.join(workspace, "u.txt"), "foo\nbar\n");
    await writeFile(path.join(workspace, "d.txt"), "gone\n");
    const result = await run(
      "*** Begin Patch\n*** Add File: a.txt\n+new\n*** Update File: u.txt\n@@\n foo\n-bar\n+baz\n*** Delete File: d.txt\n*** Update File: m.txt\n*** Move to: n.txt\n@@\n-x\n+y\n*** End Patch",
    );
    // m.txt is missing: nothing may be written.
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(workspace, "a.txt"))).toBe(false);
    expect(await readFile(path.join(workspace, "u.txt"), "utf8")).toBe("foo\nbar\n");
    await writeFile(path.join(workspace, "m.txt"), "x\n");
    const ok = await run(
      "*** Begin Patch\n*** Add File: a.txt\n+new\n*** Update File: u.txt\n@@\n foo\n-bar\n+baz\n*** Delete File: d.txt\n*** Update File: m.txt\n*** Move to: n.txt\n@@\n-x\n+y\n*** End Patch",
    );
    if (!ok.ok) throw new Error(ok.error.message);
    expect(JSON.parse(ok.outputJson)).toEqual({
      type: "ApplyPatch",
      Success: {
        files: [
          { path: `${workspace}/a.txt`, action: "added", new_text: "new\n" },
          { path: `${workspace}/u.txt`, action: "modified", old_text: "foo\nbar\n", new_text: "foo\nbaz\n" },
          { path: `${workspace}/d.txt`, action: "deleted", old_text: "gone\n", new_text: "" },
          { path: `${workspace}/m.txt`, action: "moved", old_text: "x\n", new_text: "y\n", move_to: `${workspace}/n.txt` },
        ],
        tool_output_for_prompt: `Success. Updated the following files:\nA ${workspace}/a.txt\nM ${workspace}/u.txt\nD ${workspace}/d.txt\nM ${workspace}/m.txt\n`,
      },
    });
    await session.close();
  });

  test("FileWritten notifications, a move as a new file plus a deleted source", async () => {
    const { workspace, session, notifications, run } = await setup();
    await writeFile(path.join(workspace, "m.txt"), "x\n");
    const result = await run("*** Begin Patch\n*** Add File: a.txt\n+new\n*** Update File: m.txt\n*** Move to: n.txt\n@@\n-x\n+y\n*** End Patch");
    expect(result.ok).toBe(true);
    const written = notifications.filter((n) => n.type === "FileWritten").map(({ tool_call_id: _id, ...rest }) => rest);
    expect(written).toEqual([
      { type: "FileWritten", absolute_path: `${workspace}/a.txt`, content: "new\n", is_new_file: true },
      { type: "FileWritten", absolute_path: `${workspace}/n.txt`, content: "y\n", is_new_file: true },
      { type: "FileWritten", absolute_path: `${workspace}/m.txt`, content: "", previous_content: "x\n", is_new_file: false },
    ]);
    await session.close();
  });

  test("a write that fails midway undoes the earlier writes", async () => {
    const { workspace, session, run } = await setup();
    await writeFile(path.join(workspace, "first.txt"), "one\n");
    await writeFile(path.join(workspace, "blocker"), "a file, not a folder\n");
    const result = await run(
      "*** Begin Patch\n*** Update File: first.txt\n@@\n-one\n+ONE\n*** Add File: fresh.txt\n+x\n*** Add File: blocker/inside.txt\n+y\n*** End Patch",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCode.EXECUTION_FAILED);
    expect(await readFile(path.join(workspace, "first.txt"), "utf8")).toBe("one\n");
    expect(existsSync(path.join(workspace, "fresh.txt"))).toBe(false);
    await session.close();
  });

  // A patch of updates only, to different files, is written all at once (issue #18): the same
  // results and notifications, in patch order; a failing write restores every file.
  test("a patch of updates to several files: results and notifications in patch order", async () => {
    const { workspace, session, notifications, run } = await setup();
    for (const name of ["c.txt", "a.txt", "b.txt"]) await writeFile(path.join(workspace, name), `${name} old\n`);
    const result = await run(
      "*** Begin Patch\n" + ["c.txt", "a.txt", "b.txt"].map((n) => `*** Update File: ${n}\n@@\n-${n} old\n+${n} new\n`).join("") + "*** End Patch",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const files = (JSON.parse(result.outputJson) as { Success: { files: Array<{ path: string; action: string }> } }).Success.files;
    expect(files.map((f) => [path.basename(f.path), f.action])).toEqual([
      ["c.txt", "modified"],
      ["a.txt", "modified"],
      ["b.txt", "modified"],
    ]);
    expect(notifications.map((n) => path.basename((n as unknown as { absolute_path: string }).absolute_path))).toEqual(["c.txt", "a.txt", "b.txt"]);
    for (const name of ["a.txt", "b.txt", "c.txt"]) expect(await readFile(path.join(workspace, name), "utf8")).toBe(`${name} new\n`);
    await session.close();
  });

  test("a patch of updates whose one write fails leaves every file as it was and notifies nothing", async () => {
    const { workspace, session, notifications, run } = await setup();
    for (const name of ["a.txt", "b.txt", "c.txt"]) await writeFile(path.join(workspace, name), `${name} old\n`);
    // A second hard link makes the atomic replace of b.txt refused (it would break the link).
    const { link } = await import("node:fs/promises");
    await link(path.join(workspace, "b.txt"), path.join(workspace, "b-link.txt"));
    const result = await run(
      "*** Begin Patch\n" + ["a.txt", "b.txt", "c.txt"].map((n) => `*** Update File: ${n}\n@@\n-${n} old\n+${n} new\n`).join("") + "*** End Patch",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCode.PERMISSION_DENIED);
    for (const name of ["a.txt", "b.txt", "c.txt"]) expect(await readFile(path.join(workspace, name), "utf8")).toBe(`${name} old\n`);
    expect(notifications.filter((n) => n.type === "FileWritten")).toEqual([]);
    await session.close();
  });

  test("a symlink that leads outside the workspace is refused", async () => {
    const { temp, workspace, session, run } = await setup();
    const outside = path.join(temp, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "secret.txt"), "secret\n");
    const { symlink } = await import("node:fs/promises");
    await symlink(outside, path.join(workspace, "link"));
    const result = await run("*** Begin Patch\n*** Update File: link/secret.txt\n@@\n-secret\n+owned\n*** End Patch");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    await session.close();
  });

  test("an allowed extra root is writable", async () => {
    const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-extra-")));
    temps.push(temp);
    const { session, run } = await setup({ allowPaths: [temp] });
    const result = await run(`*** Begin Patch\n*** Add File: ${temp}/x.txt\n+x\n*** End Patch`);
    expect(result.ok).toBe(true);
    expect(await readFile(path.join(temp, "x.txt"), "utf8")).toBe("x\n");
    await session.close();
  });

  test("a UTF-8 BOM and CRLF endings are kept", async () => {
    const { workspace, session, run } = await setup();
    await writeFile(path.join(workspace, "bom.txt"), "\uFEFFa\r\nb\r\n");
    const result = await run("*** Begin Patch\n*** Update File: bom.txt\n@@\n a\n-b\n+c\n*** End Patch");
    expect(result.ok).toBe(true);
    expect(await readFile(path.join(workspace, "bom.txt"), "utf8")).toBe("\uFEFFa\r\nc\r\n");
    await session.close();
  });

  test("a file that is not UTF-8 is refused rather than rewritten", async () => {
    const { workspace, session, run } = await setup();
    const bytes = Buffer.from([0x61, 0x0a, 0xff, 0xfe, 0x0a]);
    await writeFile(path.join(workspace, "latin.txt"), bytes);
    const result = await run("*** Begin Patch\n*** Update File: latin.txt\n@@\n-a\n+b\n*** End Patch");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(`Failed to read file to update: ${workspace}/latin.txt, stream did not contain valid UTF-8`);
    expect(await readFile(path.join(workspace, "latin.txt"))).toEqual(bytes);
    await session.close();
  });

  test("written files are recorded in the read tracker", async () => {
    const { workspace, session, run } = await setup();
    await writeFile(path.join(workspace, "u.txt"), "a\n");
    const result = await run("*** Begin Patch\n*** Update File: u.txt\n@@\n-a\n+b\n*** Add File: n.txt\n+n\n*** End Patch");
    expect(result.ok).toBe(true);
    const tracker = readTracker(session);
    expect(tracker.get(path.join(workspace, "u.txt"))?.sha256).toBe(sha256Hex("b\n"));
    expect(tracker.get(path.join(workspace, "n.txt"))?.sha256).toBe(sha256Hex("n\n"));
    await session.close();
  });

  test("concurrent patches of one file never lose an update", async () => {
    const { workspace, session, run } = await setup();
    await writeFile(path.join(workspace, "log.txt"), "start\n");
    const lines = Array.from({ length: 8 }, (_, i) => `line ${i}`);
    const results = await Promise.all(lines.map((line) => run(`*** Begin Patch\n*** Update File: log.txt\n@@\n+${line}\n*** End Patch`)));
    expect(results.every((r) => r.ok)).toBe(true);
    const after = (await readFile(path.join(workspace, "log.txt"), "utf8")).split("\n");
    expect(after).toHaveLength(lines.length + 2);
    expect(new Set(after)).toEqual(new Set(["start", ...lines, ""]));
    await session.close();
  });
});
