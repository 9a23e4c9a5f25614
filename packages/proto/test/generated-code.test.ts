// The committed generated code must be exactly what buf + ts-proto produce from
// the committed proto, and the committed proto must be the shared contract unchanged.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
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
      const fresh = readFileSync(path.join(out, "src/gen/grok-tools.ts"), "utf8");
      const committed = readFileSync(path.join(packageDir, "src/gen/grok-tools.ts"), "utf8");
      expect(fresh).toBe(committed);
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
