import { afterEach, describe, expect, it } from "@jest/globals";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { silentLogger } from "../core/logger.js";
import type { ExecuteOutcome } from "../execute/execute-types.js";
import { CALL_RESULTS_FILE_NAME, CallResults, callFingerprint } from "./call-results.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "call-results-"));
  dirs.push(d);
  return d;
}
const ok = (callId: string, text: string): ExecuteOutcome => ({
  ok: true,
  callId,
  outputJson: JSON.stringify({ type: "T", text }),
  promptText: text,
  metadata: { durationMs: 1, estimatedTokens: 1, truncated: false, toolVersion: "1", contractVersion: "" },
});
const fp = (input: string) => callFingerprint({ toolName: "edit", inputJson: input });

describe("CallResults", () => {
  it("replays a kept answer, refuses a reused id with another input, and reloads from disk", async () => {
    const d = dir();
    const results = new CallResults({ maxEntries: 10, maxAgeMs: 60_000 }, silentLogger);
    await results.open(d);
    expect(results.lookup("a", fp("1")).kind).toBe("new");
    await results.track("a", fp("1"), "edit", Promise.resolve(ok("a", "first")));
    const replay = results.lookup("a", fp("1"));
    expect(replay.kind).toBe("replay");
    expect(replay.kind === "replay" && (await replay.outcome)).toMatchObject({ promptText: "first" });
    expect(results.lookup("a", fp("2"))).toEqual({ kind: "conflict", toolName: "edit" });

    // A torn last line (a crash mid-append) is skipped; the rest loads.
    appendFileSync(path.join(d, CALL_RESULTS_FILE_NAME), '{"id":"b","finger');
    const reloaded = new CallResults({ maxEntries: 10, maxAgeMs: 60_000 }, silentLogger);
    await reloaded.open(d);
    expect(reloaded.lookup("a", fp("1")).kind).toBe("replay");
    expect(reloaded.lookup("b", fp("1")).kind).toBe("new");
  });

  it("a repeat while the first runs waits for the same answer", async () => {
    const results = new CallResults({ maxEntries: 10, maxAgeMs: 60_000 }, silentLogger);
    await results.open(dir());
    let finish!: (o: ExecuteOutcome) => void;
    const first = results.track("a", fp("1"), "edit", new Promise((r) => (finish = r)));
    const repeat = results.lookup("a", fp("1"));
    expect(repeat.kind).toBe("replay");
    finish(ok("a", "only once"));
    expect(await first).toMatchObject({ promptText: "only once" });
    expect(repeat.kind === "replay" && (await repeat.outcome)).toMatchObject({ promptText: "only once" });
  });

  it("keeps at most maxEntries answers, none older than maxAgeMs, and never a cancelled one", async () => {
    const d = dir();
    const results = new CallResults({ maxEntries: 3, maxAgeMs: 60_000 }, silentLogger);
    await results.open(d);
    for (const id of ["a", "b", "c", "d"]) await results.track(id, fp(id), "edit", Promise.resolve(ok(id, id)));
    expect(results.lookup("a", fp("a")).kind).toBe("new");
    expect(results.lookup("d", fp("d")).kind).toBe("replay");
    expect(results.lookup("b", fp("b"), Date.now() + 120_000).kind).toBe("new");
    const cancelled: ExecuteOutcome = {
      ok: false,
      callId: "x",
      error: { code: 302, message: "cancelled", retryable: true },
      metadata: { durationMs: 1, estimatedTokens: 1, truncated: false, toolVersion: "1", contractVersion: "" },
    };
    await results.track("x", fp("x"), "edit", Promise.resolve(cancelled));
    expect(results.lookup("x", fp("x")).kind).toBe("new");
    expect(readFileSync(path.join(d, CALL_RESULTS_FILE_NAME), "utf8")).not.toContain('"id":"x"');
  });

  it("the fingerprint covers tool, input and options", () => {
    const base = { toolName: "edit", inputJson: "{}" };
    const all = [base, { ...base, toolName: "other" }, { ...base, inputJson: "{ }" }, { ...base, timeoutMs: 5 }, { ...base, workingDirectory: "sub" }];
    expect(new Set(all.map(callFingerprint)).size).toBe(all.length);
  });
});
