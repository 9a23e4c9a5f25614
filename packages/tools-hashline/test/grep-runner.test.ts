/**
 * hashline_grep's ripgrep outcomes other than a result (the runtime's `runRipgrep` underneath): a
 * binary that cannot start is EXECUTION_FAILED with the reason, a cancelled search is CANCELLED.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import grokBuildHashline from "../src/index.js";

let root: string;
let session: Session;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "hashline-rg-")));
  await writeFile(path.join(root, "a.txt"), "hello\n");
  session = new Session({ registry: ToolRegistry.of([grokBuildHashline]), workspace: root, stateDir: path.join(root, ".state") });
  const out = await session.finalize({ tools: [{ id: "GrokBuildHashline:hashline_grep" }] });
  if (!out.ok) throw new Error(out.message);
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

const grep = (signal?: AbortSignal) =>
  session.execute({ toolName: "hashline_grep", inputJson: JSON.stringify({ pattern: "hello" }), ...(signal ? { signal } : {}) });

test("a ripgrep that cannot start is EXECUTION_FAILED with the reason", async () => {
  const saved = process.env.RG_BIN_PATH;
  process.env.RG_BIN_PATH = path.join(root, "no-such-rg");
  try {
    const outcome = await grep();
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: ErrorCode.EXECUTION_FAILED, message: expect.stringMatching(/^Error spawning rg: /) });
  } finally {
    if (saved === undefined) delete process.env.RG_BIN_PATH;
    else process.env.RG_BIN_PATH = saved;
  }
});

test("a cancelled search is CANCELLED, and the same search without a cancel finds the line", async () => {
  // Cancelled before it starts: the runtime never starts the search (issue #21: nothing ran, so a retry may run it).
  const controller = new AbortController();
  controller.abort();
  const cancelled = await grep(controller.signal);
  expect(cancelled.ok).toBe(false);
  if (!cancelled.ok) expect(cancelled.error).toMatchObject({ code: ErrorCode.CANCELLED, message: "Tool call was cancelled" });
  const found = await grep();
  expect(found.ok && JSON.parse(found.outputJson)).toMatchObject({ type: "GrepSearch", exit_code: 0, match_count: 1 });
});
