#!/usr/bin/env node
// Checks what each package would publish (`npm pack --dry-run`): only what a user needs
// (dist/, the src/ its source maps point at, README.md, LICENSE, package.json, and bin/ or proto/ where
// the package has them), no tests, every source map pointing at published files, and every bare import
// of its built code declared as a dependency.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const allowedTop = new Set(["dist", "src", "README.md", "LICENSE", "package.json", "bin", "proto"]);
let problems = 0;
let checked = 0;
const failedPackages = new Set();
for (const name of readdirSync(path.join(root, "packages")).sort()) {
  const dir = path.join(root, "packages", name);
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const [pack] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  const files = pack.files.map((f) => f.path);
  const report = (message) => {
    problems++;
    failedPackages.add(manifest.name);
    console.error(`${manifest.name}: ${message}`);
  };
  for (const file of files) {
    if (!allowedTop.has(file.split("/")[0])) report(`publishes ${file}`);
    if (/\.test\.|\/test\/|__snapshots__|tsbuildinfo/.test(file)) report(`publishes test or build-cache file ${file}`);
  }
  // Stack traces and go-to-definition follow the maps (.js.map, .d.ts.map) to their sources.
  const published = new Set(files);
  for (const file of files.filter((f) => f.endsWith(".map"))) {
    const map = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    for (const source of map.sources ?? []) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? "", source));
      if (!published.has(target)) report(`${file} points at ${target}, which is not published`);
    }
  }
  for (const needed of ["README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"]) {
    if (!files.includes(needed)) report(`does not publish ${needed}`);
  }
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies }));
  for (const file of files.filter((f) => f.startsWith("dist/") && f.endsWith(".js"))) {
    const code = readFileSync(path.join(dir, file), "utf8");
    // Every bare import of the published code must be a declared dependency (node: builtins aside).
    for (const match of code.matchAll(/(?:from\s+|import\()"([^."][^"]*)"/g)) {
      const specifier = match[1];
      if (specifier.startsWith("node:")) continue;
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (!declared.has(name)) report(`${file} imports ${name} without declaring it`);
    }
  }
  checked++;
}
console.log(`packages: ${checked - failedPackages.size} passed, ${failedPackages.size} failed`);
process.exit(problems === 0 ? 0 : 1);
