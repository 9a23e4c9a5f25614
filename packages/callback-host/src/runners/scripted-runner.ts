/**
 * The scripted runner (tests and demos): answers each child from a script instead of running an
 * agent, records the requests it saw and the ones the server cancelled, and can hold a child
 * open until it is cancelled or released.
 */
import type { DeepPartial, SpawnSubagentRequest, SubagentResultMsg } from "@grok-tools/proto";
import type { SpawnSubagentHandler } from "../callback-host.js";

/** What the script says for one child: a result, or `"hold"` to keep it running until released or cancelled. */
export type ScriptStep = DeepPartial<SubagentResultMsg> | "hold";

/** A scripted runner and what it observed. */
export interface ScriptedRunner {
  /** Pass as `onSpawnSubagent`. */
  run: SpawnSubagentHandler;
  /** Every request, in arrival order. */
  readonly requests: SpawnSubagentRequest[];
  /** Ids of children the server cancelled. */
  readonly cancelled: string[];
  /** Finishes a held child with `result`. */
  release(id: string, result: DeepPartial<SubagentResultMsg>): void;
  /** Resolves once `count` requests have arrived. */
  arrived(count: number): Promise<void>;
}

/** Creates a runner that answers each request with `script(request)`. */
export function scriptedRunner(script: (request: SpawnSubagentRequest) => ScriptStep | Promise<ScriptStep>): ScriptedRunner {
  const requests: SpawnSubagentRequest[] = [];
  const cancelled: string[] = [];
  const held = new Map<string, (result: DeepPartial<SubagentResultMsg>) => void>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const notifyArrival = () => {
    for (const w of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  return {
    requests,
    cancelled,
    run: async (request, { signal }) => {
      const step = await script(request);
      // Counted as arrived once a held child can be released.
      requests.push(request);
      if (step !== "hold") {
        notifyArrival();
        return step;
      }
      return new Promise((resolve) => {
        held.set(request.id, resolve);
        notifyArrival();
        signal.addEventListener(
          "abort",
          () => {
            // A released child is finished; the call's end is no cancellation.
            if (held.get(request.id) !== resolve) return;
            cancelled.push(request.id);
            held.delete(request.id);
            resolve({ success: false, cancelled: true, error: "cancelled by the server" });
          },
          { once: true },
        );
      });
    },
    release(id, result) {
      const resolve = held.get(id);
      if (!resolve) throw new Error(`no held child ${id}`);
      held.delete(id);
      resolve(result);
    },
    arrived: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
  };
}
