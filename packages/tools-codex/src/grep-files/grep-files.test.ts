/**
 * Codex:grep_files: ripgrep arguments, modification-time order, include globs, limits, errors, and
 * cancellation and failures of the ripgrep child (the runner itself is tested in the runtime).
 */
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { chmod, mkdir, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@grok-tools/runtime";
import { Session, ToolRegistry, describeTools } from "@grok-tools/runtime/host";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { codex } from "../namespace.js";
import { parseResults, ripgrepArgs } from "./ripgrep.js";

let dir = "";
let session: Session;
const call = (input: Record<string, unknown>) => session.execute({ toolName: "grep_files", inputJson: JSON.stringify(input) });

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "codex-grep-")));
  await mkdir(path.join(dir, "src"));
  const files: [string, string, number][] = [
    ["src/old.rs", "fn needle() {}\n", 1_000_000],
    ["src/new.ts", "const needle = 1;\n", 3_000_000],
    ["src/mid.rs", "// needle\n", 2_000_000],
    ["src/none.rs", "nothing here\n", 4_000_000],
    ["-dash.txt", "-leading dash\n", 5_000_000],
  ];
  for (const [name, content, seconds] of files) {
    await writeFile(path.join(dir, name), content);
    await utimes(path.join(dir, name), seconds, seconds);
  }
  session = new Session({ registry: ToolRegistry.of([codex]), workspace: dir, stateDir: path.join(os.tmpdir(), `codex-grep-state-${path.basename(dir)}`) });
  await session.finalize({ tools: [{ id: "Codex:grep_files" }] });
});
afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

describe("grep_files", () => {
  test("the description names the pattern parameter", () => {
    const tool = describeTools(session).find((t) => t.name === "grep_files");
    expect(tool?.description).toBe("Finds files whose contents match the pattern and lists them by modification time.");
  });

  test("matching files, newest first, relative to the search path", async () => {
    const result = await call({ pattern: "  needle " });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe(`${dir}/src/new.ts\n${dir}/src/mid.rs\n${dir}/src/old.rs`);
    expect(JSON.parse(result.outputJson)).toEqual({ type: "CodexGrepFiles", Matches: { content: result.promptText, file_count: 3 } });
  });

  test("include, limit and a relative path", async () => {
    const rs = await call({ pattern: "needle", include: " *.rs ", path: "src", limit: 1 });
    expect(rs.ok ? rs.promptText : rs.error.message).toBe(`${dir}/src/mid.rs`);
  });

  test("a pattern that starts with a dash is a pattern, not a flag", async () => {
    const result = await call({ pattern: "-leading" });
    expect(result.ok ? result.promptText : result.error.message).toBe(`${dir}/-dash.txt`);
  });

  test("no matches is a success", async () => {
    const result = await call({ pattern: "absent_[0-9]+_token" });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.promptText).toBe("No matches found.");
    expect(JSON.parse(result.outputJson)).toEqual({ type: "CodexGrepFiles", NoMatches: "No matches found." });
  });

  test.each([
    [{ pattern: "   " }, "INVALID_INPUT", "pattern must not be empty"],
    [{ pattern: "x", limit: 0 }, "INVALID_INPUT", "limit must be greater than zero"],
    [{ pattern: "x", path: "missing" }, "FILE_NOT_FOUND", "unable to access `<DIR>/missing`: No such file or directory (os error 2)"],
    [{ pattern: "(" }, "EXECUTION_FAILED", "rg failed: "],
  ])("%j fails with %s", async (input, code, message) => {
    const result = await call(input);
    if (result.ok) throw new Error("expected an error");
    expect(errorCodeName(result.error.code)).toBe(code);
    expect(result.error.message.startsWith(message.replace("<DIR>", dir))).toBe(true);
  });

  test("a path outside the workspace is refused", async () => {
    const result = await call({ pattern: "root", path: "/etc" });
    expect(result.ok ? undefined : result.error.code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});

describe("ripgrep runner", () => {
  test("arguments", () => {
    expect(ripgrepArgs("-x", "*.rs", "/p")).toEqual([
      "--files-with-matches",
      "--sortr=modified",
      "--regexp",
      "-x",
      "--no-messages",
      "--glob",
      "*.rs",
      "--",
      "/p",
    ]);
    expect(ripgrepArgs("x", undefined, "/p")).toEqual(["--files-with-matches", "--sortr=modified", "--regexp", "x", "--no-messages", "--", "/p"]);
  });

  test("output parsing skips empty and non-UTF-8 lines and stops at the limit", () => {
    const stdout = Buffer.concat([Buffer.from("a\n\n"), Buffer.from([0xff, 0x0a]), Buffer.from("b\nc\n")]);
    expect(parseResults(stdout, 10)).toEqual(["a", "b", "c"]);
    expect(parseResults(stdout, 2)).toEqual(["a", "b"]);
  });

  describe("with RG_BIN_PATH pointing at a stand-in", () => {
    let fake = "";
    const saved = process.env.RG_BIN_PATH;
    beforeAll(async () => {
      fake = path.join(dir, "slow-rg.sh");
      await writeFile(fake, "#!/bin/sh\nsleep 30\n");
      await chmod(fake, 0o755);
      process.env.RG_BIN_PATH = fake;
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env.RG_BIN_PATH;
      else process.env.RG_BIN_PATH = saved;
      await rm(fake, { force: true });
    });

    test("a cancelled call kills it and says so", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await session.execute({ toolName: "grep_files", inputJson: JSON.stringify({ pattern: "x" }), signal: controller.signal });
      expect(result.ok ? "ok" : errorCodeName(result.error.code)).toBe("CANCELLED");
    });

    test("a binary that does not exist is EXECUTION_FAILED with the launch hint", async () => {
      process.env.RG_BIN_PATH = path.join(dir, "no-such-rg");
      const result = await call({ pattern: "x" });
      process.env.RG_BIN_PATH = fake;
      expect(result.ok ? "ok" : errorCodeName(result.error.code)).toBe("EXECUTION_FAILED");
      expect(result.ok ? "" : result.error.message).toMatch(/^failed to launch rg: .*\. Ensure ripgrep is installed and on PATH\.$/);
    });

    test("an exit status other than 0 and 1 is EXECUTION_FAILED with ripgrep's stderr", async () => {
      const failing = path.join(dir, "failing-rg.sh");
      await writeFile(failing, "#!/bin/sh\necho 'rg: something broke' >&2\nexit 2\n");
      await chmod(failing, 0o755);
      process.env.RG_BIN_PATH = failing;
      const result = await call({ pattern: "x" });
      process.env.RG_BIN_PATH = fake;
      await rm(failing, { force: true });
      expect(result.ok ? "ok" : [errorCodeName(result.error.code), result.error.message]).toEqual(["EXECUTION_FAILED", "rg failed: rg: something broke\n"]);
    });
  });
});
