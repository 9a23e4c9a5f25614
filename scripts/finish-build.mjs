#!/usr/bin/env node
// Last build step of every package, run from its folder after tsc: removes compiled files whose
// source is gone (tsc -b never deletes outputs, so a removed module would still be published from a
// developer's dist/), and copies the model-facing descriptions (src/**/description.md and
// description.<variant>.md) into dist/ beside the modules that load them, removing stale copies.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

const DESCRIPTION_FILE = /^description(\.[a-z0-9-]+)?\.md$/;
const COMPILED_FILE = /\.(js|d\.ts)(\.map)?$/;
const src = path.resolve("src");
const dist = path.resolve("dist");
// The server's command bundle and the description copies it reads: scripts/bundle-server.mjs keeps them.
const bundleDir = path.join(dist, "bundle");

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === bundleDir) continue;
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

let removed = 0;
for (const file of files(dist)) {
  if (!COMPILED_FILE.test(file)) continue;
  const source = path.join(src, path.relative(dist, file)).replace(COMPILED_FILE, ".ts");
  if (!existsSync(source)) {
    rmSync(file);
    removed++;
  }
}

/**
 * Servers of other test suites read these descriptions from dist/ while `npm start` (a README test) rebuilds:
 * an unchanged copy is left alone, and a changed one is renamed into place, so a reader never sees a half-written file.
 */
function copyIfChanged(from, to) {
  const content = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(content)) return;
  const temporary = `${to}.${process.pid}.tmp`;
  copyFileSync(from, temporary);
  renameSync(temporary, to);
}

const wanted = new Set();
for (const file of files(src)) {
  if (!DESCRIPTION_FILE.test(path.basename(file))) continue;
  const target = path.join(dist, path.relative(src, file));
  mkdirSync(path.dirname(target), { recursive: true });
  copyIfChanged(file, target);
  wanted.add(target);
}
for (const file of files(dist)) if (DESCRIPTION_FILE.test(path.basename(file)) && !wanted.has(file)) rmSync(file);

if (removed > 0 || wanted.size > 0) console.log(`dist/: ${wanted.size} descriptions copied, ${removed} outputs of removed sources deleted`);
