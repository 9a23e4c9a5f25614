// enter_plan_mode through a session: the prompt and hints, plan-mode state, and the plan file seed (confined).
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { Type, defineNamespace, defineTool, type ToolNotification } from "@grok-tools/runtime";
import { type FsScope } from "@grok-tools/runtime/fs";
import { grokBuild } from "../namespace.js";
import { probeOrCreatePlanFile } from "./execute.js";
import { planModeSession } from "../shared/plan-mode-session.js";

/** A stand-in task-kind tool, so the prompt's subagent hint can be exercised. */
const fakeTask = defineTool({
  id: "task",
  kind: "task",
  description: "Run a subagent.",
  input: Type.Object({}),
  output: Type.Object({ type: Type.Literal("Text") }),
  execute: async () => ({ output: { type: "Text" as const }, promptText: "" }),
});
const testNamespace = defineNamespace({ name: "Test", apiVersion: 1, tools: [fakeTask] });

let tmp: string;
let notes: ToolNotification[];
const sessions: Session[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "plan-mode-"));
  await mkdir(path.join(tmp, "ws"));
  notes = [];
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await rm(tmp, { recursive: true, force: true });
});

function newSession(): Session {
  const s = new Session({
    registry: ToolRegistry.of([grokBuild, testNamespace]),
    workspace: path.join(tmp, "ws"),
    stateDir: path.join(tmp, "state"),
    onNotification: (_id, n) => notes.push(n),
  });
  sessions.push(s);
  return s;
}

async function planSession(extra: { id: string; nameOverride?: string }[] = []): Promise<Session> {
  const s = newSession();
  const result = await s.finalize({ tools: [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode" }, ...extra] });
  expect(result.ok).toBe(true);
  return s;
}

const ENTERED_PREFIX = "You have entered plan mode. You should now focus on exploring the codebase and creating an implementation plan.\n\n";

function expectedPrompt(planPath: string, status: string, ask = "ask_user_question", exit = "exit_plan_mode", taskHint = ""): string {
  return (
    ENTERED_PREFIX +
    `Write your plan to ${planPath}. ${status}\n\n` +
    "In plan mode, you should:\n" +
    `1. Thoroughly explore the codebase to understand existing patterns${taskHint}\n` +
    "2. Identify similar features, codebase architecture, and understand trade-offs\n" +
    `3. Use ${ask} if you need to clarify the approach\n` +
    "4. Design a concrete implementation strategy\n" +
    "5. Write your plan to the plan file above\n" +
    `6. When ready, use ${exit} to present your plan to the user.`
  );
}

describe("GrokBuild:enter_plan_mode", () => {
  test("finalize refuses enter_plan_mode without exit_plan_mode (spec §3.3)", async () => {
    const s = newSession();
    const result = await s.finalize({ tools: [{ id: "GrokBuild:enter_plan_mode" }] });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain("enter_plan_mode requires GrokBuild:exit_plan_mode so plan mode can always be exited");
    expect(JSON.stringify(result)).toContain("include GrokBuild:exit_plan_mode");
  });

  test("seeds an empty plan file in the session folder and notifies the host", async () => {
    const s = await planSession();
    const planPath = path.join(s.sessionDir, "plan.md");
    const r = await s.execute({ toolName: "enter_plan_mode", inputJson: "{}", callId: "call-42" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe(expectedPrompt(planPath, "The file exists and is empty."));
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "EnterPlanMode",
      Entered: {
        message: ENTERED_PREFIX.trimEnd(),
        plan_file_path: planPath,
        tool_hints: { ask_user: "ask_user_question", exit_plan: "exit_plan_mode", task: "" },
        plan_file_seed: "empty",
      },
    });
    expect(await readFile(planPath, "utf8")).toBe("");
    expect(notes).toEqual([{ type: "PlanModeEntered", tool_call_id: "call-42" }]);
    expect(s.service(planModeSession).active).toBe(true);
    expect(s.service(planModeSession).enteredByCallId).toBe("call-42");
  });

  test("never truncates an existing plan", async () => {
    const s = await planSession();
    const planPath = path.join(s.sessionDir, "plan.md");
    await mkdir(s.sessionDir, { recursive: true });
    await writeFile(planPath, "# prior plan\n");
    const r = await s.execute({ toolName: "enter_plan_mode", inputJson: "{}" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe(expectedPrompt(planPath, "The file exists but is not empty."));
    expect(JSON.parse(r.outputJson).Entered.plan_file_seed).toBe("non_empty");
    expect(await readFile(planPath, "utf8")).toBe("# prior plan\n");
  });

  test("a directory at the plan path is reported and left alone", async () => {
    const s = await planSession();
    const planPath = path.join(s.sessionDir, "plan.md");
    await mkdir(planPath, { recursive: true });
    const r = await s.execute({ toolName: "enter_plan_mode", inputJson: "{}" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe(expectedPrompt(planPath, "A directory already exists at that path."));
    expect(JSON.parse(r.outputJson).Entered.plan_file_seed).toEqual({ missing: "not_a_file" });
  });

  test("uses the client names of the ask_user, exit_plan and task tools", async () => {
    const s = await planSession([
      { id: "GrokBuild:ask_user_question", nameOverride: "AskUser" },
      { id: "Test:task", nameOverride: "delegate" },
    ]);
    const s2 = newSession();
    await s2.finalize({
      tools: [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode", nameOverride: "FinishPlan" }],
    });
    const r = await s.execute({ toolName: "enter_plan_mode", inputJson: "{}" });
    if (!r.ok) throw new Error(r.error.message);
    const planPath = path.join(s.sessionDir, "plan.md");
    const taskHint =
      '\n     You can use the delegate tool with subagent_type="explore" to parallelize codebase exploration without filling your context window.';
    expect(r.promptText).toBe(expectedPrompt(planPath, "The file exists and is empty.", "AskUser", "exit_plan_mode", taskHint));
    expect(JSON.parse(r.outputJson).Entered.tool_hints).toEqual({ ask_user: "AskUser", exit_plan: "exit_plan_mode", task: "delegate" });
    const r2 = await s2.execute({ toolName: "enter_plan_mode", inputJson: "{}" });
    if (!r2.ok) throw new Error(r2.error.message);
    expect(r2.promptText).toContain("6. When ready, use FinishPlan to present your plan to the user.");
  });

  test("plan-mode state is per session", async () => {
    const a = await planSession();
    const b = newSession();
    await b.finalize({ tools: [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode" }] });
    await a.execute({ toolName: "enter_plan_mode", inputJson: "{}" });
    expect(a.service(planModeSession).active).toBe(true);
    expect(b.service(planModeSession).active).toBe(false);
  });
});

describe("probeOrCreatePlanFile", () => {
  const scope = (): FsScope => ({ roots: [path.join(tmp, "root")], fsScope: "workspace" });

  test("creates missing parent folders", async () => {
    const target = path.join(tmp, "root", "nested", "dir", "plan.md");
    expect(await probeOrCreatePlanFile(scope(), target)).toBe("empty");
    expect(await readFile(target, "utf8")).toBe("");
  });

  test("an unreadable path (a file where a folder should be) is inaccessible and not written", async () => {
    await mkdir(path.join(tmp, "root"));
    await writeFile(path.join(tmp, "root", "file"), "x");
    expect(await probeOrCreatePlanFile(scope(), path.join(tmp, "root", "file", "plan.md"))).toEqual({ missing: "inaccessible" });
    expect(await readFile(path.join(tmp, "root", "file"), "utf8")).toBe("x");
  });

  test("a file that cannot be created is not_created", async () => {
    // A dangling symlink into a missing folder: reading says ENOENT, creating cannot succeed.
    await mkdir(path.join(tmp, "root"));
    const target = path.join(tmp, "root", "plan.md");
    await symlink(path.join(tmp, "root", "missing", "x.md"), target);
    expect(await probeOrCreatePlanFile(scope(), target)).toEqual({ missing: "not_created" });
  });

  test("a plan file or folder linked out of the roots is neither read nor written", async () => {
    await mkdir(path.join(tmp, "root"));
    await mkdir(path.join(tmp, "outside"));
    await writeFile(path.join(tmp, "outside", "secret.md"), "secret");
    await symlink(path.join(tmp, "outside", "secret.md"), path.join(tmp, "root", "plan.md"));
    expect(await probeOrCreatePlanFile(scope(), path.join(tmp, "root", "plan.md"))).toEqual({ missing: "inaccessible" });
    await symlink(path.join(tmp, "outside"), path.join(tmp, "root", "linked"));
    // Missing there, but outside: the same answer as for the outside file above (issue #19), nothing created.
    expect(await probeOrCreatePlanFile(scope(), path.join(tmp, "root", "linked", "plan.md"))).toEqual({ missing: "inaccessible" });
    expect(await readdir(path.join(tmp, "outside"))).toEqual(["secret.md"]);
  });
});
