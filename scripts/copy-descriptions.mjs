#!/usr/bin/env node
// Build step of the tool packages: copies the model-facing descriptions (src/**/description.md and
// description.<variant>.md) into dist/ beside the compiled modules that load them. Run from a package
// folder after tsc; removes copies whose source is gone, so dist/ never serves a stale description.
import { copyFileSync, mkdirSync, readdirSync, rmSync, existsSync } from "node:fs";
import path from "node:path";

const DESCRIPTION_FILE = /^description(\.[a-z0-9-]+)?\.md$/;
const src = path.resolve("src");
const dist = path.resolve("dist");

function* descriptions(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* descriptions(full);
    else if (DESCRIPTION_FILE.test(entry.name)) yield full;
  }
}

const wanted = new Set();
for (const file of descriptions(src)) {
  const target = path.join(dist, path.relative(src, file));
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(file, target);
  wanted.add(target);
}
if (existsSync(dist)) for (const file of descriptions(dist)) if (!wanted.has(file)) rmSync(file);
console.log(`copied ${wanted.size} descriptions into ${path.relative(process.cwd(), dist) || "dist"}/`);
