// Runs the cross-language interop check (test/interop/run.sh at the repository root): a Python
// client generated from grok-tools.proto alone, against the real server over TCP and a unix socket.
import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RUN_SH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "test", "interop", "run.sh");
const INTEROP_TIMEOUT_MS = 150_000;

describe("interop with a Python client generated from the proto", () => {
  it(
    "lists, finalizes, reads a file and streams it over TCP and over a unix socket",
    () => {
      const run = spawnSync("bash", [RUN_SH], { encoding: "utf8", timeout: INTEROP_TIMEOUT_MS - 5_000 });
      if (run.status !== 0) throw new Error(`run.sh exited with ${run.status ?? run.signal}\n${run.stdout}\n${run.stderr}`);
      expect(run.stdout).toContain("interop: OK (tcp and unix)");
      expect(run.stdout.match(/^\{"ok": true, /gm)).toHaveLength(2);
    },
    INTEROP_TIMEOUT_MS,
  );
});
