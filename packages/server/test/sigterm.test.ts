// SIGTERM while a long command runs: the server stops taking calls, gives the running call its
// --shutdown-grace, then cuts it, kills the command, flushes the session state and exits 0 (what a
// Kubernetes pod stop or systemd does; terminationGracePeriodSeconds must exceed the grace).
import { afterEach, expect, it, jest } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import { ExecuteToolRequest, FinalizeToolServerConfigRequest, GrokToolsServiceClient } from "@grok-tools/proto";
import { cleanUp, startServer, tempDir } from "./run-server.js";
import { headers, statusOf, unary } from "./grpc-call.js";

// Each case starts real server processes; on a loaded machine one start can take several seconds.
jest.setTimeout(120_000);

afterEach(cleanUp);

const GRACE_MS = 3000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("exits 0 within its grace period, the command killed and the state on disk", async () => {
  const dir = tempDir("grok-sigterm-");
  const stateDir = path.join(dir, "state");
  const server = startServer(["--listen", "127.0.0.1:0", "--workspace", dir, "--state-dir", stateDir, "--shutdown-grace", String(GRACE_MS)]);
  const client = new GrokToolsServiceClient(await server.listening, credentials.createInsecure());
  const md = headers();
  await unary(
    client,
    "finalizeToolConfigRequest",
    FinalizeToolServerConfigRequest.fromPartial({
      tools: [{ id: "GrokBuild:todo_write" }, { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }],
    }),
    md,
  );
  const todo = await unary<{ result?: { $case: string } }>(
    client,
    "executeTool",
    ExecuteToolRequest.fromPartial({
      toolName: "todo_write",
      inputJson: JSON.stringify({ merge: false, todos: [{ id: "t1", content: "todo-before-sigterm-4e2", status: "in_progress" }] }),
    }),
    md,
  );
  expect(todo.result?.$case).toBe("success");

  const marker = `sigterm-marker-${process.pid}-${Date.now()}`;
  const long = new Promise<number>((resolve) =>
    client.executeTool(
      ExecuteToolRequest.fromPartial({ toolName: "run_terminal_cmd", inputJson: JSON.stringify({ command: `sleep 300 # ${marker}`, description: "wait" }) }),
      md,
      (error: ServiceError | null) => resolve(error ? error.code : status.OK),
    ),
  );
  await waitFor("the command to run", () => processesWith(marker).length > 0);

  const signalled = Date.now();
  server.child.kill("SIGTERM");
  // New calls are refused at once while the running one has its grace.
  await waitFor("new calls refused", async () => (await statusOf(client, "getToolState", {}, md)) !== status.OK);
  const exit = await server.exited;
  const elapsed = Date.now() - signalled;
  expect(exit).toEqual({ code: 0, signal: null });
  // It waited for the running call (most of the grace), and did not hang on the 300 s command.
  expect(elapsed).toBeGreaterThanOrEqual(GRACE_MS - 500);
  expect(elapsed).toBeLessThan(GRACE_MS + 20_000);
  // The client got an answer (cut), not a hang.
  expect([status.UNAVAILABLE, status.CANCELLED, status.INTERNAL, status.OK]).toContain(await long);
  await waitFor("the command killed", () => processesWith(marker).length === 0, 10_000);
  // The acknowledged todo is in the state folder.
  const stateFiles = filesUnder(stateDir).filter((f) => f.endsWith(".json"));
  expect(stateFiles.some((f) => readFileSync(f, "utf8").includes("todo-before-sigterm-4e2"))).toBe(true);
  // A clean stop leaves no lock behind.
  expect(filesUnder(stateDir).some((f) => path.basename(f) === "server.lock")).toBe(false);
  client.close();
});
