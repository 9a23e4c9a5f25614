/**
 * The runtime names no tenant: no runtime source mentions a GrokBuild, Codex or OpenCode tool or
 * namespace, so everything namespace-specific is declared by the namespace (`defineNamespace`).
 * The one allowed id is the read tracker's state key, the reference's name for shared runtime state.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const src = path.resolve(import.meta.dirname, "..", "src");
const TENANT = /grok_?build|codex|open_?code|hashline/i;
const ALLOWED = [/"grok_build\.FileReadTracker"/, /`state\.grok_build\.FileReadTracker`/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

it("no runtime source names a tenant", () => {
  const hits: string[] = [];
  for (const file of sources(src)) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        let rest = line;
        for (const allowed of ALLOWED) rest = rest.replace(allowed, "");
        if (TENANT.test(rest)) hits.push(`${path.relative(src, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(hits).toEqual([]);
});
