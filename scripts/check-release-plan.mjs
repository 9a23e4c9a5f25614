#!/usr/bin/env node
// Checks the versioning rule (docs/decisions.md, "Versions"): a 0.x minor of @grok-tools/runtime moves
// the built-in namespace packages and the process supervisor (tasks) to the same minor (changesets `fixed`), never to 1.0.0 (their peer
// range spans 0.x and `onlyUpdatePeerDependentsWhenOutOfRange` is on), and the server gets a patch
// with its dependency ranges updated. Runs `changeset status` on a copy of the manifests and config
// with one sample changeset, so the repository's own pending changesets do not count.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(tmpdir(), "grok-release-plan-"));
const git = (...args) => execFileSync("git", ["-c", "user.email=check@localhost", "-c", "user.name=check", ...args], { cwd: work, stdio: "ignore" });
let failures = 0;
try {
  cpSync(path.join(root, "package.json"), path.join(work, "package.json"));
  mkdirSync(path.join(work, ".changeset"));
  cpSync(path.join(root, ".changeset", "config.json"), path.join(work, ".changeset", "config.json"));
  const versions = {};
  for (const name of readdirSync(path.join(root, "packages"))) {
    const manifest = path.join(root, "packages", name, "package.json");
    mkdirSync(path.join(work, "packages", name), { recursive: true });
    cpSync(manifest, path.join(work, "packages", name, "package.json"));
    const { name: pkg, version } = JSON.parse(readFileSync(manifest, "utf8"));
    versions[pkg] = version;
  }
  symlinkSync(path.join(root, "node_modules"), path.join(work, "node_modules"));
  writeFileSync(path.join(work, ".changeset", "sample-runtime-minor.md"), '---\n"@grok-tools/runtime": minor\n---\n\nA sample runtime minor.\n');
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "sample");
  execFileSync(process.execPath, [path.join(root, "node_modules", "@changesets", "cli", "bin.js"), "status", "--output", "plan.json"], {
    cwd: work,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const plan = JSON.parse(readFileSync(path.join(work, "plan.json"), "utf8"));
  const planned = Object.fromEntries(plan.releases.map((r) => [r.name, r.newVersion]));
  const nextMinor = (v) => v.replace(/^0\.(\d+)\.\d+$/, (_, minor) => `0.${Number(minor) + 1}.0`);
  const nextPatch = (v) => v.replace(/\.(\d+)$/, (_, patch) => `.${Number(patch) + 1}`);
  const expected = {
    "@grok-tools/runtime": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/tasks": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/tools-grokbuild": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/tools-codex": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/tools-opencode": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/tools-hashline": nextMinor(versions["@grok-tools/runtime"]),
    "@grok-tools/server": nextPatch(versions["@grok-tools/server"]),
  };
  for (const [pkg, version] of Object.entries(expected)) {
    if (planned[pkg] !== version) {
      failures++;
      console.error(`release plan: a runtime minor should take ${pkg} to ${version}, changesets plans ${planned[pkg] ?? "no release"}`);
    }
  }
  for (const [pkg, version] of Object.entries(planned)) {
    if (!(pkg in expected)) {
      failures++;
      console.error(`release plan: a runtime minor should not release ${pkg} (planned ${version})`);
    }
  }
  console.log(
    `release plan: runtime minor -> ${Object.entries(planned)
      .map(([p, v]) => `${p.replace("@grok-tools/", "")} ${v}`)
      .join(", ")}${failures ? " (WRONG)" : ""}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
