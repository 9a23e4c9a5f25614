// The runners through a real host and a raw client: the scripted runner's hold/release/cancel,
// and the command runner's stdin/stdout contract, failures, cancellation and resume transcripts.
import { afterEach, describe, expect, it } from "@jest/globals";
import { credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GrokToolsCallbackServiceClient, SpawnSubagentRequest, type SubagentResultMsg } from "@grok-tools/proto";
import { createCallbackHost, type CallbackHost, type SpawnSubagentHandler } from "../callback-host.js";
import { commandRunner } from "./command-runner.js";
import { scriptedRunner } from "./scripted-runner.js";

const SECRET = "s3cret";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function hostWith(onSpawnSubagent: SpawnSubagentHandler): Promise<InstanceType<typeof GrokToolsCallbackServiceClient>> {
  const host: CallbackHost = await createCallbackHost({ secret: SECRET, onSpawnSubagent });
  const client = new GrokToolsCallbackServiceClient(host.address, credentials.createInsecure());
  cleanups.push(
    () => host.close(100),
    () => client.close(),
  );
  return client;
}

function spawnCall(client: InstanceType<typeof GrokToolsCallbackServiceClient>, req: Partial<SpawnSubagentRequest>) {
  const metadata = new Metadata();
  metadata.set("authorization", `Bearer ${SECRET}`);
  let call: { cancel(): void } | undefined;
  const promise = new Promise<SubagentResultMsg>((resolve, reject) => {
    call = client.spawnSubagent(SpawnSubagentRequest.fromPartial(req), metadata, (e: ServiceError | null, r: SubagentResultMsg) =>
      e ? reject(e) : resolve(r),
    );
  });
  return { promise, cancel: () => call!.cancel() };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "gtcb-run-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("scriptedRunner", () => {
  it("answers from the script, holds children until released, and records cancellations", async () => {
    const runner = scriptedRunner((req) => (req.prompt === "hold" ? "hold" : { success: true, output: `did ${req.prompt}` }));
    const client = await hostWith(runner.run);
    await expect(spawnCall(client, { id: "a", prompt: "x" }).promise).resolves.toMatchObject({ success: true, output: "did x" });
    const held = spawnCall(client, { id: "b", prompt: "hold" });
    await runner.arrived(2);
    runner.release("b", { success: true, output: "released" });
    await expect(held.promise).resolves.toMatchObject({ output: "released" });
    const cancelled = spawnCall(client, { id: "c", prompt: "hold" });
    await runner.arrived(3);
    cancelled.cancel();
    await expect(cancelled.promise).rejects.toMatchObject({ code: 1 });
    const until = Date.now() + 10_000;
    while (runner.cancelled.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(runner.cancelled).toEqual(["c"]);
    expect(runner.requests.map((r) => r.id)).toEqual(["a", "b", "c"]);
  });
});

describe("commandRunner", () => {
  it("passes the request on stdin (with the child id as its session_id) and reads the result from stdout; a resumed child gets the transcript", async () => {
    const dir = await tempDir();
    const script = path.join(dir, "child.mjs");
    await writeFile(
      script,
      `let t="";for await (const c of process.stdin) t+=c;const r=JSON.parse(t);
       process.stdout.write(JSON.stringify({output:"ran "+r.prompt+" in "+process.cwd()+" with "+r.tool_names.join(",")+" after "+r.transcript.length+" turns as "+r.session_id+"; "+r.system_prompt, tool_calls:2, turns:3}));`,
    );
    const client = await hostWith(commandRunner({ command: `"${process.execPath}" "${script}"` }));
    const first = await spawnCall(client, { id: "c1", prompt: "look", cwd: dir, toolNames: ["read_file", "grep"], systemPrompt: "SP", subagentType: "explore" })
      .promise;
    expect(first).toMatchObject({ success: true, output: `ran look in ${dir} with read_file,grep after 0 turns as c1; SP`, toolCalls: 2, turns: 3 });
    const second = await spawnCall(client, { id: "c2", prompt: "more", cwd: dir, toolNames: [], resumeFrom: "c1" }).promise;
    expect(second.output).toContain("after 2 turns");
  });

  it("reports a program that fails or prints no JSON result", async () => {
    const client = await hostWith(commandRunner({ command: "echo broken >&2; exit 3" }));
    await expect(spawnCall(client, { id: "c1" }).promise).resolves.toMatchObject({ success: false, error: "the child program exited with code 3: broken" });
    const client2 = await hostWith(commandRunner({ command: "echo not json" }));
    await expect(spawnCall(client2, { id: "c2" }).promise).resolves.toMatchObject({
      success: false,
      error: "the child program did not print a JSON result with an output string",
    });
  });

  it("terminates the program's process group when the server cancels the call", async () => {
    const dir = await tempDir();
    const marker = path.join(dir, "started");
    const client = await hostWith(commandRunner({ command: `echo $$ > "${marker}"; exec sleep 600` }));
    const call = spawnCall(client, { id: "c1", cwd: dir });
    let pid = "";
    const until = Date.now() + 10_000;
    while (pid === "" && Date.now() < until) {
      pid = await readFile(marker, "utf8").then(
        (t) => t.trim(),
        () => "",
      );
      if (pid === "") await new Promise((r) => setTimeout(r, 20));
    }
    call.cancel();
    await expect(call.promise).rejects.toMatchObject({ code: 1 });
    const gone = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < gone) {
      try {
        process.kill(Number(pid), 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });
});
