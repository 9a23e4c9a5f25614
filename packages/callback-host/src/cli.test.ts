// The grok-tools-callback-host command: the listening line, notifications as JSON lines, the
// secret check, usage errors, and a clean exit on SIGTERM.
import { describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { GrokToolsCallbackServiceClient } from "@grok-tools/proto";

const CLI = path.resolve(import.meta.dirname, "../dist/cli.js");

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (l) => {
    lines.push(JSON.parse(l) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const line = async (n: number) => {
    while (lines.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines[n - 1]!;
  };
  return { child, lines, line, exit, stderr: () => stderr };
}

describe("grok-tools-callback-host", () => {
  it("prints the listening line, then each notification; refuses a wrong secret; exits 0 on SIGTERM", async () => {
    const host = run(["--listen", "127.0.0.1:0"], { GROK_TOOLS_CALLBACK_SECRET: "from-env" });
    const listening = await host.line(1);
    expect(listening).toEqual({ event: "listening", address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    const client = new GrokToolsCallbackServiceClient(String(listening.address), credentials.createInsecure());
    const send = (secret: string) =>
      new Promise<ServiceError | null>((resolve) => {
        const md = new Metadata();
        md.set("authorization", `Bearer ${secret}`);
        client.sendNotification({ sessionId: "s", sequence: 7, notificationJson: '{"type":"PlanModeEntered","tool_call_id":"c1"}' }, md, (e) => resolve(e));
      });
    expect(await send("from-env")).toBeNull();
    expect((await send("wrong"))?.code).toBe(16);
    expect(await host.line(2)).toEqual({ event: "notification", session_id: "s", sequence: 7, notification: { type: "PlanModeEntered", tool_call_id: "c1" } });
    client.close();
    host.child.kill("SIGTERM");
    expect(await host.exit).toBe(0);
    expect(host.lines).toHaveLength(2);
  });

  it("exits 2 without a secret or with an unknown flag", async () => {
    const none = run([], { GROK_TOOLS_CALLBACK_SECRET: "" });
    expect(await none.exit).toBe(2);
    expect(none.stderr()).toContain("a secret is required");
    const bad = run(["--secret", "x", "--nope"]);
    expect(await bad.exit).toBe(2);
  });
});
