// The subagent coordinator on its own: a child killed while it waits for a slot completes like any
// other child (notification, completed-children bound) and the queue moves on.
import type { SubagentHost, ToolNotification } from "@grok-tools/runtime";
import type { SubagentRunResult, SubagentSpawnRequest } from "@grok-tools/runtime/helpers";
import { MAX_COMPLETED_SUBAGENTS, SubagentCoordinator, type SubagentStart } from "./subagent-coordinator.js";

/** A host whose children run until their signal aborts or the test finishes them. */
function holdingHost(): SubagentHost & { started: string[]; finish(id: string): void } {
  const pending = new Map<string, () => void>();
  const started: string[] = [];
  return {
    started,
    spawn(request: SubagentSpawnRequest, signal: AbortSignal): Promise<SubagentRunResult> {
      started.push(request.id);
      return new Promise((resolve) => {
        const done = (cancelled: boolean) =>
          resolve({ success: !cancelled, output: request.id, cancelled, toolCalls: 0, turns: 0, durationMs: 1, tokensUsed: 0 });
        pending.set(request.id, () => done(false));
        signal.addEventListener("abort", () => done(true), { once: true });
      });
    },
    finish(id) {
      pending.get(id)?.();
    },
  };
}

function start(coordinator: SubagentCoordinator, host: SubagentHost, id: string, notes: ToolNotification[]): void {
  const spec: SubagentStart = {
    request: { id, prompt: "p", description: `child ${id}`, subagentType: "explore", parentSessionId: "parent", systemPrompt: "", toolNames: [] },
    host,
    background: true,
    notify: (n) => notes.push(n),
    maxConcurrent: 1,
    limitBehavior: "queue",
  };
  coordinator.start(spec);
}

describe("SubagentCoordinator", () => {
  it("a queued child that is cancelled completes as cancelled: notified, counted in the completed bound, the queue moves on", async () => {
    const coordinator = new SubagentCoordinator();
    const host = holdingHost();
    const notes: ToolNotification[] = [];
    start(coordinator, host, "running", notes);
    const queued = Array.from({ length: MAX_COMPLETED_SUBAGENTS + 1 }, (_, i) => `q${i}`);
    for (const id of queued) start(coordinator, host, id, notes);
    start(coordinator, host, "last", notes);
    expect(coordinator.queuedCount).toBe(queued.length + 1);

    for (const id of queued) expect(coordinator.cancel(id)).toEqual({ kind: "cancelled" });
    expect(coordinator.queuedCount).toBe(1);
    expect(coordinator.snapshot("q1")).toMatchObject({ status: "cancelled", error: "Subagent was cancelled" });
    await coordinator.completion("q1");
    expect(notes).toHaveLength(queued.length);
    expect(notes[0]).toMatchObject({ type: "SubagentCompleted", subagent_id: "q0", status: "cancelled", owner_session_id: "parent" });
    // 1025 completed children: the oldest is over the bound.
    expect(coordinator.snapshot("q0")!.evicted).toBe(true);
    expect(coordinator.snapshot("q1")!.evicted).toBe(false);

    host.finish("running");
    await coordinator.completion("running");
    await new Promise((r) => setImmediate(r));
    expect(host.started).toEqual(["running", "last"]);
    host.finish("last");
    await coordinator.completion("last");
    await coordinator.dispose();
  });
});
