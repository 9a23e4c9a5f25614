// A gRPC deadline or a client cancel kills the foreground command and its whole tree (issue 6, D4).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe("cancelling a running command over gRPC", () => {
  let dir: string;
  let server: ToolsServer;
  let client: GrokToolsServiceClient;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "grok-cancel-"));
    server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state") });
    const address = await server.listen("127.0.0.1:0");
    client = new GrokToolsServiceClient(address, credentials.createInsecure());
    const fin = await new Promise<{ success: boolean; message: string }>((resolve, reject) =>
      client.finalizeToolConfigRequest(
        FinalizeToolServerConfigRequest.fromPartial({ tools: [{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }] }),
        (e: ServiceError | null, r) => (e ? reject(e) : resolve(r)),
      ),
    );
    expect(fin).toMatchObject({ success: true });
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the command; `cancel()` cancels the call from the client. */
  const run = (marker: string, options: { deadline?: number }) => {
    let cancel!: () => void;
    const pending = new Promise<ServiceError>((resolve, reject) => {
      // Every process of the tree carries the marker in its arguments: a background child, a
      // setsid grandchild that leaves the process group, and the foreground sleep.
      // (Quoted for an inner shell: a bare `&` is refused when background execution is disabled.)
      const command = `bash -c 'sleep 300.${marker} & setsid sleep 301.${marker} & sleep 302.${marker}'`;
      const request = ExecuteToolRequest.fromPartial({
        toolName: "run_terminal_cmd",
        inputJson: JSON.stringify({ command, description: "cancel test", timeout: 290_000 }),
      });
      const call = client.executeTool(request, new Metadata(), options.deadline ? { deadline: Date.now() + options.deadline } : {}, (error, response) =>
        error ? resolve(error) : reject(new Error(`the call finished instead of being cancelled: ${JSON.stringify(response)}`)),
      );
      cancel = () => call.cancel();
    });
    return { pending, cancel };
  };

  // The command would run 290 s, so an answer within the test's 40 s means the deadline or the cancel
  // ended it. No step waits a fixed time (a loaded machine starts processes slowly): the cancel comes
  // once the whole tree is seen running, and what is judged is the status and that the tree is gone.
  it.each([
    ["a deadline", { deadline: 8_000 } as { deadline?: number }, status.DEADLINE_EXCEEDED],
    ["a client cancel", {} as { deadline?: number }, status.CANCELLED],
  ])(
    "%s kills the command tree",
    async (_label, options, expectedStatus) => {
      const marker = String(100000 + Math.floor(Math.random() * 899999));
      const { pending, cancel } = run(marker, options);
      // While it runs, the whole tree is visible (so the check after the end means something). A
      // deadline must not pass before the tree is up: it is long enough for a slow start.
      expect(await eventually(() => processesWith(`.${marker}`).length >= 4, 7_000)).toBe(true);
      if (!options.deadline) cancel();
      const error = await pending;
      expect(error.code).toBe(expectedStatus);
      expect(await eventually(() => processesWith(`.${marker}`).length === 0, 10_000)).toBe(true);
    },
    40_000,
  );
});
