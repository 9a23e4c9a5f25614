// exit_plan_mode through a session: presenting the plan (read inside the roots only) and ending plan mode.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { type ToolNotification } from "@grok-tools/runtime";
import { grokBuild } from "../namespace.js";
import { planModeSession } from "../shared/plan-mode-session.js";

let tmp: string;
let notes: ToolNotification[];
let session: Session;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "exit-plan-"));
  await mkdir(path.join(tmp, "ws"));
  notes = [];
  session = new Session({
    registry: ToolRegistry.of([grokBuild]),
    workspace: path.join(tmp, "ws"),
    stateDir: path.join(tmp, "state"),
    onNotification: (_id, n) => notes.push(n),
  });
});
afterEach(async () => {
  await session.close();
  await rm(tmp, { recursive: true, force: true });
});

async function finalizeBoth(): Promise<string> {
  const result = await session.finalize({ tools: [{ id: "GrokBuild:enter_plan_mode" }, { id: "GrokBuild:exit_plan_mode" }] });
  expect(result.ok).toBe(true);
  return path.join(session.sessionDir, "plan.md");
}

async function writePlan(planPath: string, content: string): Promise<void> {
  await mkdir(path.dirname(planPath), { recursive: true });
  await writeFile(planPath, content);
}

describe("GrokBuild:exit_plan_mode", () => {
  test("finalize refuses exit_plan_mode without enter_plan_mode (spec §3.3)", async () => {
    const result = await session.finalize({ tools: [{ id: "GrokBuild:exit_plan_mode" }] });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain("exit_plan_mode requires GrokBuild:enter_plan_mode so plan mode can be entered before exiting");
    expect(JSON.stringify(result)).toContain("include GrokBuild:enter_plan_mode");
  });

  test("a plan file linked out of the session's roots is not shown", async () => {
    const planPath = await finalizeBoth();
    await writeFile(path.join(tmp, "secret.md"), "# Not the plan\n");
    await mkdir(path.dirname(planPath), { recursive: true });
    await symlink(path.join(tmp, "secret.md"), planPath);
    await session.execute({ toolName: "enter_plan_mode", inputJson: "{}", callId: "enter-1" });
    const r = await session.execute({ toolName: "exit_plan_mode", inputJson: "{}", callId: "exit-1" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.outputJson).not.toContain("Not the plan");
    expect(JSON.parse(r.outputJson).EmptyPlan).toBeDefined();
  });

  test("presents the plan written in plan mode and ends plan mode", async () => {
    const planPath = await finalizeBoth();
    const entered = await session.execute({ toolName: "enter_plan_mode", inputJson: "{}", callId: "enter-1" });
    expect(entered.ok).toBe(true);
    await writePlan(planPath, "# My Plan\n\n1. Do thing A\n2. Do thing B\n");
    const r = await session.execute({ toolName: "exit_plan_mode", inputJson: "{}", callId: "exit-1" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe(
      `Your plan has been approved. You can now start coding.\n\nYour plan has been saved at: ${planPath}\n\n## Plan:\n# My Plan\n\n1. Do thing A\n2. Do thing B\n`,
    );
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "ExitPlanMode",
      PlanReady: {
        message: "Your plan has been approved. You can now start coding.",
        plan_content: "# My Plan\n\n1. Do thing A\n2. Do thing B\n",
        plan_file_path: planPath,
      },
    });
    expect(notes).toEqual([
      { type: "PlanModeEntered", tool_call_id: "enter-1" },
      { type: "PlanModeExited", tool_call_id: "exit-1", plan_content: "# My Plan\n\n1. Do thing A\n2. Do thing B\n", plan_file_path: planPath },
    ]);
    expect(session.service(planModeSession).active).toBe(false);
  });

  test.each([
    ["a missing plan file", undefined],
    ["an empty plan file", ""],
    ["a whitespace-only plan file", "  \n\t\n"],
  ])("%s gives the empty-plan message", async (_label, content) => {
    const planPath = await finalizeBoth();
    if (content !== undefined) await writePlan(planPath, content);
    const r = await session.execute({ toolName: "exit_plan_mode", inputJson: "{}", callId: "exit-2" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("Plan mode exit approved. No plan content was found — you can proceed.");
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "ExitPlanMode",
      EmptyPlan: { message: "Plan mode exit approved. No plan content was found — you can proceed.", plan_file_path: planPath },
    });
    expect(notes).toEqual([{ type: "PlanModeExited", tool_call_id: "exit-2", plan_content: null, plan_file_path: planPath }]);
  });

  test("invalid UTF-8 in the plan is replaced, not refused", async () => {
    const planPath = await finalizeBoth();
    await mkdir(path.dirname(planPath), { recursive: true });
    await writeFile(planPath, Buffer.from([0x23, 0x20, 0xff, 0x0a]));
    const r = await session.execute({ toolName: "exit_plan_mode", inputJson: "{}" });
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.parse(r.outputJson).PlanReady.plan_content).toBe("# \uFFFD\n");
  });
});
