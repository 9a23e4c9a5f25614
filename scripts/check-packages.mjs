#!/usr/bin/env node
// Checks what each package publishes (`npm pack` into a temporary folder): only what a user needs
// (dist/, the src/ its source maps point at, README.md, LICENSE, package.json, and bin/ or proto/ where
// the package has them), no tests, every source map pointing at published files, and every bare import
// of its built code declared as a dependency. Then it packs each package for real and runs publint
// and are-the-types-wrong (attw) on the tarball, both offline, checking import and require
// resolution, and loads every package with require() (check-require.cjs).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const allowedTop = new Set(["dist", "src", "README.md", "LICENSE", "package.json", "bin", "proto"]);
let problems = 0;
let checked = 0;
const failedPackages = new Set();
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const packDir = mkdtempSync(path.join(os.tmpdir(), "grok-tools-pack-"));
// attw rules left out, and why: a require() of our ESM entry is "cjs-resolves-to-esm" to TypeScript's
// node16 mode, but Node >= 20.19 loads it (require(esm), proven by check-require.cjs) and TypeScript
// >= 5.8 with module nodenext types it. Every other problem of either resolution fails the check.
const ATTW_IGNORED_RULES = ["cjs-resolves-to-esm"];
for (const name of readdirSync(path.join(root, "packages")).sort()) {
  const dir = path.join(root, "packages", name);
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  );
  const tarball = path.join(packDir, pack.filename);
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
    for (const [i, source] of (map.sources ?? []).entries()) {
      // A map that carries a source's text (the server's command bundle, whose sources are other
      // packages' and node_modules' files) needs no published file for it.
      if (typeof map.sourcesContent?.[i] === "string") continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? "", source));
      if (!published.has(target)) report(`${file} points at ${target}, which is not published`);
    }
  }
  for (const needed of ["README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"]) {
    if (!files.includes(needed)) report(`does not publish ${needed}`);
  }
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies }));
  // (The server's command bundle, dist/bundle/cli.mjs, holds other packages' string literals this
  // pattern would misread; scripts/bundle-server.mjs checks its imports from esbuild's own record.)
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
  // publint: the manifest's entry points, conditions and files against the tarball (warnings count).
  const publint = spawnSync(bin("publint"), ["run", tarball, "--strict", "--level", "warning"], { encoding: "utf8" });
  if (publint.status !== 0) report(`publint:\n${(publint.stdout + publint.stderr).trim()}`);
  // attw: every entry point's types under node10, node16 from CJS and from ESM, and bundler resolution.
  // Subpaths that export a data file (proto/grok-tools.proto) are no modules and have no types to check.
  const dataEntries = Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === "string" && !/\.(js|json)$/.test(target))
    .map(([subpath]) => subpath);
  const attwArgs = [tarball, "--format", "ascii", "--no-color", "--no-emoji", "--ignore-rules", ...ATTW_IGNORED_RULES];
  if (dataEntries.length > 0) attwArgs.push("--exclude-entrypoints", ...dataEntries);
  const attw = spawnSync(bin("attw"), attwArgs, { encoding: "utf8" });
  if (attw.status !== 0) report(`are-the-types-wrong:\n${(attw.stdout + attw.stderr).trim()}`);
  checked++;
}
rmSync(packDir, { recursive: true, force: true });
// require(esm): every package loads from a CommonJS module and gives the same exports as import().
const requireCheck = spawnSync(process.execPath, [path.join(root, "scripts", "check-require.cjs")], { encoding: "utf8" });
process.stdout.write(requireCheck.stdout);
if (requireCheck.status !== 0) {
  problems++;
  console.error(requireCheck.stderr.trim());
  for (const match of requireCheck.stderr.matchAll(/^(@grok-tools\/[^:]+):/gm)) failedPackages.add(match[1]);
}
console.log(`packages: ${checked - failedPackages.size} passed, ${failedPackages.size} failed`);
process.exit(problems === 0 ? 0 : 1);
