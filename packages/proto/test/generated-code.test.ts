// The committed generated code must be exactly what buf + ts-proto produce from
// the committed protos (the contract and google.rpc.Status), and the committed contract must be the
// shared one unchanged.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";

const packageDir = path.resolve(import.meta.dirname, "..");
const repoRoot = path.resolve(packageDir, "../..");

describe("generated proto code", () => {
  it("matches a fresh buf generate of the committed proto", () => {
    const out = mkdtempSync(path.join(tmpdir(), "grok-proto-gen-"));
    try {
      execFileSync(path.join(repoRoot, "node_modules/.bin/buf"), ["generate", "--output", out], {
        cwd: packageDir,
        stdio: "pipe",
      });
      const generated = (dir: string) =>
        readdirSync(dir, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".ts"))
          .sort();
      const files = generated(path.join(out, "src/gen"));
      expect(files).toEqual(["google/protobuf/any.ts", "google/rpc/status.ts", "grok-tools.ts"]);
      expect(generated(path.join(packageDir, "src/gen"))).toEqual(files);
      for (const file of files) {
        const fresh = readFileSync(path.join(out, "src/gen", file), "utf8");
        const committed = readFileSync(path.join(packageDir, "src/gen", file), "utf8");
        expect({ file, text: fresh }).toEqual({ file, text: committed });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("keeps the proto identical to the shared contract when it is present", () => {
    const shared = path.resolve(repoRoot, "../shared/proto/grok-tools.proto");
    if (!existsSync(shared)) return; // a published tarball or a lone checkout has no shared/ folder
    expect(readFileSync(path.join(packageDir, "proto/grok-tools.proto"), "utf8")).toBe(readFileSync(shared, "utf8"));
  });
});
