/**
 * Integration tests of run_terminal_cmd (both presets) through a real session: output,
 * exit codes, formats, validation, timeouts, cancellation, environment, truncation, logs.
 */
import { readFile } from "node:fs/promises";
import { jest } from "@jest/globals";
import { ErrorCode } from "@grok-tools/runtime";
import { eventually, processesWith, startHarness, type ShellHarness } from "./helpers.js";

jest.setTimeout(30_000);

let h: ShellHarness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function ok<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`call failed: ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}

function err<T extends { ok: boolean }>(r: T): Extract<T, { ok: false }> {
  if (r.ok) throw new Error(`call succeeded: ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: false }>;
}

describe("foreground", () => {
  it("runs a command and reports exit 0 with the DEFAULT format", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "echo hello", description: "greet" }));
    expect(r.promptText).toBe("exit: 0\nhello\n");
    const out = JSON.parse(r.outputJson);
    expect(out).toMatchObject({
      type: "Bash",
      output: "hello\n",
      exit_code: 0,
      command: "echo hello",
      truncated: false,
      signal: null,
      timed_out: false,
      description: "greet",
      current_dir: h.workspace,
      total_bytes: 6,
      was_bare_echo: true,
    });
    expect(out.output_file).toBe(`${h.session.sessionDir}/terminal/call-1.log`);
    expect(await readFile(out.output_file, "utf8")).toBe("hello\n");
  });

  it("merges stderr into stdout in order and keeps a non-zero exit as success", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "echo a; echo b >&2; echo c; exit 3", description: "" }));
    expect(r.promptText).toBe("exit: 3\na\nb\nc\n");
    expect(JSON.parse(r.outputJson).description).toBeNull();
  });

  it("uses the CONCISE format for output_format concise and the concise preset", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "printf 'x\\033[31mred\\033[0m'", description: "d" }, { outputFormat: "concise" }));
    expect(r.promptText).toBe(
      `Exit code: 0\n\nCommand output:\n\n\`\`\`\nxred\n\`\`\`\n\nCommand completed.\n\nThe previous shell command ended, so on the next invocation of this tool, you will be using a new shell session.\n\nOn the next terminal tool call, the directory of the shell will be ${h.workspace}.`,
    );
    const concise = await startHarness([{ id: "GrokBuildConcise:run_terminal_cmd", params_json: undefined, paramsJson: '{"enabled_background":false}' }]);
    try {
      const c = ok(await concise.call("run_terminal_cmd", { command: "exit 2", description: "d" }));
      expect(c.promptText.startsWith("Exit code: 2\n\nCommand output:\n\n```\n\n```")).toBe(true);
    } finally {
      await concise.close();
    }
  });

  it("strips ANSI escapes and soft-wraps long lines at 2000 characters", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "printf '\\033[1mbold\\033[0m\\n'; head -c 4500 /dev/zero | tr '\\0' x", description: "d" }));
    const lines = r.promptText.split("\n");
    expect(lines[1]).toBe("bold");
    expect(lines.slice(2).map((l) => l.length)).toEqual([2000, 2000, 500]);
  });

  it("keeps head and tail of a long output, with the truncation note", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "seq 1 20000", description: "d" }));
    const out = JSON.parse(r.outputJson);
    expect(out.truncated).toBe(true);
    expect(out.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(out.output).toContain("\n\n... (output truncated) ...\n\n");
    expect(out.output.endsWith("19999\n20000\n")).toBe(true);

    expect(r.promptText).toMatch(/^exit: 0 \[truncated: showing first\/last [\d.]+ KB of 106\.3 KB - full output at: .*call-1\.log\]\n1\n/);
    expect((await readFile(out.output_file, "utf8")).length).toBe(108894);
  });

  it("kills on timeout and reports killed (timeout), with the tree gone", async () => {
    const marker = `tmo${Date.now()}`;
    const started = Date.now();
    const r = ok(
      await h.call("run_terminal_cmd", {
        command: `echo start; (setsid bash -c 'sleep 1000; : ${marker}a' &); bash -c 'sleep 1000; : ${marker}b'`,
        description: "d",
        timeout: 500,
      }),
    );
    // The 500 ms timeout and the kill, far below the sleeps' 1000 s (the margin is for busy machines).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.promptText.startsWith("exit: killed (timeout)\nstart\n")).toBe(true);
    expect(JSON.parse(r.outputJson)).toMatchObject({ exit_code: -1, signal: "timeout", timed_out: true });
    expect(await processesWith(marker)).toEqual([]);
    expect(h.notifications.some((n) => n.type === "BashExecutionTimeout")).toBe(true);
  });

  it("leaves no setsid descendant or pipe-holding grandchild after a normal exit", async () => {
    const marker = `leak${Date.now()}`;
    const started = Date.now();
    const r = ok(
      await h.call("run_terminal_cmd", {
        command: `setsid bash -c 'sleep 1000; : ${marker}a' & (bash -c 'sleep 1000; : ${marker}b' &); echo done`,
        description: "d",
      }),
    );
    expect(r.promptText).toBe("exit: 0\ndone\n");
    // It did not wait for the descendants' 1000 s sleeps (the margin is for busy machines).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await processesWith(marker)).toEqual([]);
  });

  it("kills the command when the call is cancelled", async () => {
    const controller = new AbortController();
    const marker = `cancel${Date.now()}`;
    const pending = h.call("run_terminal_cmd", { command: `bash -c 'sleep 1000; : ${marker}'`, description: "d" }, { signal: controller.signal });
    expect(await eventually(async () => (await processesWith(marker)).length > 0)).toBe(true);
    controller.abort();
    const r = err(await pending);
    expect(r.error.code).toBe(ErrorCode.CANCELLED);
    expect(await eventually(async () => (await processesWith(marker)).length === 0)).toBe(true);
  });

  it("runs with the child environment of the spec and without the server's secrets", async () => {
    process.env.GROK_TOOLS_AUTH_TOKEN = "s3cret";
    process.env.GROK_TOOLS_CALLBACK_SECRET = "s3cret2";
    try {
      const r = ok(
        await h.call("run_terminal_cmd", {
          command:
            'echo "$TERM $NO_COLOR $FORCE_COLOR $GROK_AGENT $PAGER $GIT_PAGER [${GROK_TOOLS_AUTH_TOKEN-}] [${GROK_TOOLS_CALLBACK_SECRET-}]"; read -t 1 x; echo "stdin:$?"',
          description: "d",
        }),
      );
      expect(r.promptText).toBe("exit: 0\ndumb 1 0 1 cat cat [] []\nstdin:1\n");
    } finally {
      delete process.env.GROK_TOOLS_AUTH_TOKEN;
      delete process.env.GROK_TOOLS_CALLBACK_SECRET;
    }
  });

  it("prepends cmd_prefix and reports the unprefixed command", async () => {
    const p = await startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false,"cmd_prefix":"export X=7"}' }]);
    try {
      const r = ok(await p.call("run_terminal_cmd", { command: "echo $X", description: "d" }));
      expect(r.promptText).toBe("exit: 0\n7\n");
      expect(JSON.parse(r.outputJson).command).toBe("echo $X");
    } finally {
      await p.close();
    }
  });

  it("sanitizes the call id in the log file name", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "true", description: "d" }, { callId: "../evil/id" }));
    const file: string = JSON.parse(r.outputJson).output_file;
    expect(file.startsWith(`${h.session.sessionDir}/terminal/`)).toBe(true);
    expect(file.slice(`${h.session.sessionDir}/terminal/`.length)).toMatch(/^[A-Za-z0-9._-]+\.log$/);
  });

  it("fails with a Terminal error when the working directory is missing", async () => {
    const r = err(await h.call("run_terminal_cmd", { command: "true", description: "d" }, { workingDirectory: "no/such/dir" }));
    expect(r.error.code).toBe(ErrorCode.EXECUTION_FAILED);
    expect(r.error.message).toBe(`Terminal error: working directory does not exist: ${h.workspace}/no/such/dir`);
    expect(h.notifications.some((n) => n.type === "BashExecutionFailed")).toBe(true);
  });

  it("sends output chunk and completion notifications", async () => {
    ok(await h.call("run_terminal_cmd", { command: "echo hi", description: "d" }));
    const types = h.notifications.map((n) => n.type);
    expect(types[0]).toBe("BashOutputChunk");
    const complete = h.notifications.find((n) => n.type === "BashExecutionComplete")!;
    expect(complete).toMatchObject({ tool_call_id: "call-1", command: "echo hi", exit_code: 0, signal: null, total_bytes: 3 });
    expect(Buffer.from(complete.output as string, "base64").toString()).toBe("hi\n");
  });
});

describe("validation", () => {
  it("accepts a background & when allowed (default params)", async () => {
    ok(await h.call("run_terminal_cmd", { command: "sleep 0.1 & wait", description: "d" }));
    ok(await h.call("run_terminal_cmd", { command: "true & echo x", description: "d" }));
  });

  it("rejects & when background is disabled, with current and legacy messages", async () => {
    const cur = await startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false}' }]);
    try {
      const e = err(await cur.call("run_terminal_cmd", { command: "sleep 1 & echo x", description: "d" }));
      expect(e.error).toMatchObject({
        code: ErrorCode.INVALID_INPUT,
        message: "Remove the background '&' from your command; background execution is disabled.",
      });
      ok(await cur.call("run_terminal_cmd", { command: "echo 'a & b' && echo \"&\" 2>&1 >/dev/null; cat <<EOF\nx & y\nEOF", description: "d" }));
      const bg = err(await cur.call("run_terminal_cmd", { command: "true", description: "d", is_background: true }));
      expect(bg.error.message).toBe("Background execution is disabled.");
    } finally {
      await cur.close();
    }
    const legacy = await startHarness(
      [
        { id: "GrokBuild:run_terminal_cmd", paramsJson: '{"allow_background_operator":false}' },
        { id: "GrokBuild:get_task_output" },
        { id: "GrokBuild:kill_task" },
      ],
      { behaviorPreset: "legacy-0.4.10" },
    );
    try {
      const e = err(await legacy.call("run_terminal_cmd", { command: "sleep 1 &", description: "d" }));
      expect(e.error.message).toBe("Command must not end with '&'. Remove the '&' and set is_background=true to run the command in the background.");
      ok(await legacy.call("run_terminal_cmd", { command: "true & echo mid", description: "d" }));
    } finally {
      await legacy.close();
    }
  });

  it("rejects a NUL in the command as invalid input naming the parameter, with nothing run", async () => {
    for (const is_background of [false, true]) {
      const r = err(await h.call("run_terminal_cmd", { command: "echo a\u0000b", description: "nul", is_background }));
      expect(r.error).toMatchObject({
        code: ErrorCode.INVALID_INPUT,
        message: "Invalid command: it contains a NUL character (\\0), which a shell command cannot contain.",
        suggestion: "Remove the NUL character; to produce a NUL byte, write printf '\\0' in the command.",
      });
    }
    expect(h.notifications.filter((n) => n.type !== "BashOutputChunk")).toEqual([]);
  });

  it("refuses a NUL in cmd_prefix at finalize", async () => {
    await expect(
      startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: JSON.stringify({ enabled_background: false, cmd_prefix: "set -e\u0000" }) }]),
    ).rejects.toThrow("cmd_prefix must not contain a NUL character");
  });

  it("rejects a self-matching pkill -f", async () => {
    const e = err(await h.call("run_terminal_cmd", { command: "pkill -f ./server; ./server", description: "d" }));
    expect(
      e.error.message.startsWith(
        "self-matching pkill/-f: `pkill -f <pat>` matches against the full /proc/PID/cmdline of every process, including the bash wrapper that runs this command (its argv contains `./server`).",
      ),
    ).toBe(true);
    ok(await h.call("run_terminal_cmd", { command: "pgrep -f zzz_not_running_here || true", description: "d" }));
  });

  it("accepts lenient timeout and is_background values", async () => {
    const r = ok(await h.call("run_terminal_cmd", { command: "echo ok", description: "d", timeout: "5000", is_background: "false" }));
    expect(r.promptText).toBe("exit: 0\nok\n");
  });
});

describe("finalize", () => {
  it("requires the task tools when background is enabled, and checks params", async () => {
    await expect(startHarness([{ id: "GrokBuild:run_terminal_cmd" }])).rejects.toThrow(
      "enabled_background=true requires GrokBuild:get_task_output and GrokBuild:kill_task so background bash tasks can be observed and cancelled",
    );
    await expect(
      startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false,"auto_background_on_timeout":true}' }]),
    ).rejects.toThrow("auto_background_on_timeout requires enabled_background to be true");
    await expect(startHarness([{ id: "GrokBuild:get_task_output" }])).rejects.toThrow("get_task_output requires a background-capable bash tool");
    await expect(startHarness([{ id: "GrokBuild:kill_task" }])).rejects.toThrow("unsatisfied requirements");
  });

  it("shapes the input schema from the params", async () => {
    const tool = h.session.toolset!.byClientName("run_terminal_cmd")!;
    const props = (tool.inputSchema as { properties: Record<string, { description: string; maximum?: number }> }).properties;
    expect(props.timeout!.description).toBe("Optional timeout in milliseconds (max 300000). Default: 120000, enforced for foreground commands only.");
    expect(props.timeout!.maximum).toBeUndefined();
    expect(Object.keys(props)).toEqual(["command", "timeout", "description", "is_background"]);
    const off = await startHarness([{ id: "GrokBuild:run_terminal_cmd", paramsJson: '{"enabled_background":false,"max_timeout_secs":10,"timeout_secs":5}' }]);
    try {
      const t = off.session.toolset!.byClientName("run_terminal_cmd")!;
      const p = (t.inputSchema as { properties: Record<string, { description: string; maximum?: number }> }).properties;
      expect(Object.keys(p)).toEqual(["command", "timeout", "description"]);
      expect(p.timeout).toMatchObject({ description: "Optional timeout in milliseconds (max 10000). Default: 5000.", maximum: 10000 });
      expect(t.description).toContain("If not specified, commands will timeout after 5000ms.");
    } finally {
      await off.close();
    }
  });
});
