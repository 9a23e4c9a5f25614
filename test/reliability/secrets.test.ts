// Secrets (issue #19): the auth token, the callback secret and the secrets in the server's own
// environment never reach a command (its environment, /proc, ps) or a log line or an answer.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import type { SpawnedServer } from "@grok-tools/client";
import { check } from "../../scripts/suite-report.mjs";
import { makeRoot, startWorkspaceServer, type TestRoot } from "./lib/server.js";

const TOKEN = "AUTHTOKEN-SENTINEL-5d1e2b";
const CALLBACK_SECRET = "CALLBACK-SENTINEL-91c0aa";
/** Secrets a host typically has in its environment, by the names that say they are secrets. */
const ENV_SECRETS: Record<string, string> = {
  GROK_TOOLS_AUTH_TOKEN: "ENV-SENTINEL-auth",
  OPENAI_API_KEY: "ENV-SENTINEL-apikey",
  GITHUB_TOKEN: "ENV-SENTINEL-ghtoken",
  AWS_SECRET_ACCESS_KEY: "ENV-SENTINEL-aws",
  DB_PASSWORD: "ENV-SENTINEL-dbpass",
  my_client_secret: "ENV-SENTINEL-lower",
};
const SENTINELS = [TOKEN, CALLBACK_SECRET, ...Object.values(ENV_SECRETS)];

let root: TestRoot;
let server: SpawnedServer;
let log = "";

beforeAll(async () => {
  root = await makeRoot("gtr-secrets-");
  server = await startWorkspaceServer(root, {
    authToken: TOKEN,
    env: { ...process.env, ...ENV_SECRETS, GROK_TOOLS_LOG_LEVEL: "debug", HARMLESS_SETTING: "visible" },
    onStderr: (text) => (log += text),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await root?.remove();
});

const leaks = (text: string) => SENTINELS.filter((s) => text.includes(s));

it("keeps every secret out of a command's environment, /proc and process list", async () => {
  await check("secrets: commands cannot find them", async () => {
    const probes = [
      "env",
      "cat /proc/self/environ | tr '\\0' '\\n'",
      "cat /proc/$PPID/environ | tr '\\0' '\\n'; cat /proc/1/environ | tr '\\0' '\\n'",
      "for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done 2>/dev/null",
      "ps -eo pid,args 2>&1 || true",
      "cat /proc/*/task/*/environ 2>/dev/null | tr '\\0' '\\n'",
      // (Not `grep -r /proc/1`: some /proc files block a reader, which made this probe hang under load.)
      "tr '\\0' ' ' < /proc/1/cmdline; echo; cat /proc/1/status",
    ];
    const problems: string[] = [];
    for (const command of probes) {
      const result = await server.client.executeTool("run_terminal_cmd", { command, description: "probe" });
      if (!result.ok) throw new Error(`${command}: ${result.error.message}`);
      const found = leaks(result.promptText + result.outputJson);
      if (found.length > 0) problems.push(`${command}: ${found.join(", ")}`);
    }
    // A setting that is no secret still reaches commands (the filter is by name, not wholesale).
    const env = await server.client.executeTool("run_terminal_cmd", { command: "echo $HARMLESS_SETTING", description: "probe" });
    expect(env.ok && env.promptText).toContain("visible");
    expect(problems).toEqual([]);
    return probes.length;
  });
}, 120_000);

it("keeps the callback secret and the token out of answers, state and the log", async () => {
  await check("secrets: answers and logs", async () => {
    const own = await makeRoot("gtr-secrets-cb-");
    let ownLog = "";
    const cb = await startWorkspaceServer(own, {
      authToken: TOKEN,
      env: { ...process.env, GROK_TOOLS_LOG_LEVEL: "debug" },
      onStderr: (t) => (ownLog += t),
      tools: [{ id: "GrokBuild:read_file" }],
    }).catch((e) => {
      throw e;
    });
    try {
      // A second finalize with a callback that cannot be dialled: the answer names the failure only.
      const answer = await cb.client
        .finalize({ tools: [{ id: "GrokBuild:todo_write" }], clientCallbackAddr: "127.0.0.1:1", clientCallbackSecret: CALLBACK_SECRET })
        .catch((e: Error) => ({ message: e.message }));
      expect(leaks(JSON.stringify(answer))).toEqual([]);
      const state = await cb.client.getToolState();
      expect(leaks(state.stateJson)).toEqual([]);
      const failed = await cb.client.executeTool("read_file", { target_file: TOKEN });
      expect(failed.ok).toBe(false);
    } finally {
      await cb.close();
      await own.remove();
    }
    // Requests carried the token on every call and the read above named it as a path; the
    // message of a failed read may echo the path, but no log line may carry the bearer token.
    expect(leaks(log)).toEqual([]);
    expect(ownLog.includes(CALLBACK_SECRET)).toBe(false);
    expect(ownLog.split("\n").filter((l) => l.includes(`Bearer ${TOKEN}`))).toEqual([]);
    return 4;
  });
}, 120_000);
