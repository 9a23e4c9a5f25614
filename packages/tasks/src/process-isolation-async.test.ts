// The asynchronous isolation detection the server starts at start-up (issue #18) must give the
// answer the synchronous one gives: the same probe verdicts, the same cached object.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "@jest/globals";
import { detectProcessIsolation, detectProcessIsolationAsync, namespaceIsolation, probeIsolation, probeIsolationAsync } from "./process-isolation.js";

describe("asynchronous isolation detection", () => {
  it("answers once, and the synchronous detection then returns that same answer without probing again", async () => {
    const [a, b] = await Promise.all([detectProcessIsolationAsync(), detectProcessIsolationAsync()]);
    expect(b).toBe(a);
    expect(detectProcessIsolation()).toBe(a);
    expect(await detectProcessIsolationAsync()).toBe(a);
    expect(["pid-namespace", "process-group"]).toContain(a.mode);
  });

  it("gives each probe the synchronous probe's verdict, a failing one included", async () => {
    const detected = await detectProcessIsolationAsync();
    expect(await probeIsolationAsync(detected)).toBe(probeIsolation(detected));
    if (detected.mode !== "pid-namespace") return;
    const which = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    // bash as the init's shell cannot tell kills from exits: the probe must fail both ways.
    const withBash = namespaceIsolation(
      { userNamespace: false, privateProc: true },
      { unshare: which("unshare"), env: which("env"), shell: which("bash"), mount: which("mount"), umount: which("umount") },
    )!;
    expect(probeIsolation(withBash)).toBe(false);
    expect(await probeIsolationAsync(withBash)).toBe(false);
    expect(await probeIsolationAsync(detected)).toBe(true);
  });
});
