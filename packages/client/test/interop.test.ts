// Runs the cross-language interop check (test/interop/run.sh at the repository root): a Python
// client generated from grok-tools.proto alone, against the real server over TCP and a unix socket.
// It needs Debian tools a Node-only machine lacks: there it is skipped with one line saying what to
// install; .ci/run installs them and sets GROK_TOOLS_REQUIRE_INTEROP=1, which makes a missing tool
// a failure so CI always runs it for real.
import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RUN_SH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "test", "interop", "run.sh");
const INTEROP_TIMEOUT_MS = 300_000;
const PYTHON = process.env.PYTHON ?? "/usr/bin/python3";
const DEBIAN_PACKAGES = "python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc";
const REQUIRE_VARIABLE = "GROK_TOOLS_REQUIRE_INTEROP";

/** What is missing for the check to run (empty when it can run). */
function missingTools(): string[] {
  const missing: string[] = [];
  for (const tool of ["protoc", "grpc_python_plugin"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status !== 0) missing.push(tool);
  }
  if (spawnSync(PYTHON, ["-c", "import grpc, google.protobuf"], { stdio: "ignore" }).status !== 0) missing.push(`${PYTHON} modules grpc, google.protobuf`);
  return missing;
}

const missing = missingTools();
const required = process.env[REQUIRE_VARIABLE] === "1";
const skip = missing.length > 0 && !required;
if (skip) {
  // Written straight to stderr so it is one line in any reporter (console.* adds a stack trace).
  process.stderr.write(`interop test skipped: missing ${missing.join(", ")}; install with: apt-get install ${DEBIAN_PACKAGES}\n`);
}

describe("interop with a Python client generated from the proto", () => {
  (skip ? it.skip : it)(
    "lists, finalizes, reads a file and streams it over TCP and over a unix socket; reassembles 64 MiB of live output",
    () => {
      if (missing.length > 0) {
        throw new Error(
          `${REQUIRE_VARIABLE}=1 but the interop test cannot run: missing ${missing.join(", ")}; install with: apt-get install ${DEBIAN_PACKAGES}`,
        );
      }
      const run = spawnSync("bash", [RUN_SH], { encoding: "utf8", timeout: INTEROP_TIMEOUT_MS - 5_000 });
      if (run.status !== 0) throw new Error(`run.sh exited with ${run.status ?? run.signal}\n${run.stdout}\n${run.stderr}`);
      expect(run.stdout).toContain("interop: OK (tcp and unix)");
      expect(run.stdout).toContain("interop: OK (live output, 64 MiB)");
      expect(run.stdout.match(/^\{"ok": true, /gm)).toHaveLength(3);
    },
    INTEROP_TIMEOUT_MS,
  );
});
