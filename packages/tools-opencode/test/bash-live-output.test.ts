/**
 * `OpenCode:bash` live output (issue 20) through a real runtime session: a caller that listens gets
 * the command's bytes while it still runs, with nothing lost or reordered; a caller that does not
 * listen gets none, and the result is the same either way.
 */
import { jest } from "@jest/globals";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import openCode from "../src/index.js";

jest.setTimeout(60_000);

let root: string;
let session: Session;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "opencode-live-")));
  session = new Session({ registry: ToolRegistry.of([openCode]), workspace: root, stateDir: path.join(root, ".state") });
  const out = await session.finalize({ tools: [{ id: "OpenCode:bash" }] });
  if (!out.ok) throw new Error(out.message);
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

const bash = (command: string) => JSON.stringify({ command, description: "live output test" });

test("a listening caller gets the first line of a slow loop before the command ends", async () => {
  const live: Array<{ text: string; at: number }> = [];
  let firstSeen: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (firstSeen = resolve));
  let resultAt = 0;
  const pending = session
    .execute({
      toolName: "bash",
      inputJson: bash("for i in 1 2 3; do echo $i; sleep 1; done"),
      onOutput: (chunk) => {
        live.push({ text: Buffer.from(chunk).toString("utf8"), at: Date.now() });
        firstSeen();
      },
    })
    .then((outcome) => {
      resultAt = Date.now();
      return outcome;
    });
  // Event-driven: wait for the first chunk or the end, whichever comes first; the chunk must win.
  await Promise.race([first, pending]);
  expect(live.length).toBeGreaterThan(0);
  expect(resultAt).toBe(0);
  expect(live[0]!.text).toBe("1\n");
  const outcome = await pending;
  // Two more `sleep 1` follow the first line, so the result comes well after it.
  expect(resultAt - live[0]!.at).toBeGreaterThanOrEqual(1_500);
  expect(live.map((c) => c.text).join("")).toBe("1\n2\n3\n");
  expect(outcome.ok).toBe(true);
  if (outcome.ok) {
    expect(outcome.promptText).toBe("1\n2\n3\n");
    expect(JSON.parse(outcome.outputJson)).toMatchObject({ type: "Bash", exit_code: 0, output: "1\n2\n3\n" });
  }
});

test("a caller that does not listen gets the same result and no live output", async () => {
  const outcome = await session.execute({ toolName: "bash", inputJson: bash("echo one; echo two") });
  expect(outcome.ok && outcome.promptText).toBe("one\ntwo\n");
});
