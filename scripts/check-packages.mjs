#!/usr/bin/env node
// Checks what each package would publish (`npm pack --dry-run`): only what a user needs
// (dist/, README.md, LICENSE, package.json, and bin/ or proto/ where the package has them),
// no tests, and every @grok-tools/* import of its built code declared as a dependency.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const allowedTop = new Set(["dist", "README.md", "LICENSE", "package.json", "bin", "proto"]);
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
    if (/\.test\.|\/test\/|tsbuildinfo/.test(file)) report(`publishes test or build-cache file ${file}`);
  }
  for (const needed of ["README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"]) {
    if (!files.includes(needed)) report(`does not publish ${needed}`);
  }
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
  for (const file of files.filter((f) => f.startsWith("dist/") && f.endsWith(".js"))) {
    const code = readFileSync(path.join(dir, file), "utf8");
    for (const match of code.matchAll(/from\s+"(@grok-tools\/[a-z-]+)/g)) {
      if (!declared.has(match[1])) report(`${file} imports ${match[1]} without declaring it`);
    }
  }
  checked++;
}
console.log(`packages: ${checked - failedPackages.size} passed, ${failedPackages.size} failed`);
process.exit(problems === 0 ? 0 : 1);
