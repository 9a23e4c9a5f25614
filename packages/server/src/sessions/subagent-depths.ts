/**
 * Depth of subagent sessions (spec §4.9 depth limit, issue #15). A child connects back to this
 * server as its own routed session whose id is the child id the server gave it in
 * SpawnSubagentRequest.id (the `x-grok-session-id` header). The server remembers the ids of the
 * children it is running with their depth (the spawning session's depth + 1), and a routed session
 * opened under such an id starts at that depth, so its `task` calls meet the depth limit.
 *
 * An id is remembered from the SpawnSubagent call until that call settles (the child's run), so the
 * map holds running children only. A session that is open already when its id is spawned (a host
 * that connected first) gets the depth at once. Calls without the header (the default session), and
 * children that use a server of their own, stay at depth 0: the limit is only as good as the host's
 * children connecting back with their id, which the command runner of @grok-tools/callback-host
 * passes them as `session_id`.
 */
import { subagentHostService, type SubagentHost } from "@grok-tools/runtime";
import type { Session } from "@grok-tools/runtime/host";

export class SubagentDepths {
  readonly #depths = new Map<string, number>();

  /** The depth a routed session with this id starts at: its child depth while the child runs, else 0. */
  depthOf(sessionId: string): number {
    return this.#depths.get(sessionId) ?? 0;
  }

  /** Children running now (for tests). */
  get size(): number {
    return this.#depths.size;
  }

  /** Sets a new routed session's depth from the children running now. */
  applyTo(session: Session): void {
    const depth = this.#depths.get(session.id);
    if (depth !== undefined) session.service(subagentHostService).depth = depth;
  }

  /**
   * The `parent` session's host, wrapped so that each child it spawns is remembered at the parent's
   * depth + 1 while it runs; `peek` finds the child's session when it is open already.
   */
  track(host: SubagentHost, parent: Session, peek: (id: string) => Session | undefined): SubagentHost {
    return {
      spawn: async (request, signal) => {
        const depth = parent.service(subagentHostService).depth + 1;
        this.#depths.set(request.id, depth);
        const open = peek(request.id);
        if (open) open.service(subagentHostService).depth = depth;
        try {
          return await host.spawn(request, signal);
        } finally {
          this.#depths.delete(request.id);
        }
      },
    };
  }
}
