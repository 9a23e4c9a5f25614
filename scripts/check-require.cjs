#!/usr/bin/env node
// CommonJS consumer check: every entry of every workspace package (the root entry and each subpath
// its `exports` declares, such as @grok-tools/runtime/host or /fs) must load with require() (Node's
// require(esm), Node >= 20.19 / 22.12, hence `engines.node` ">=20.19") and give the same export names,
// bound to the same objects, as import(). Entries that are not JavaScript (./package.json, a .proto
// file) are skipped. Run by check-packages.mjs.
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const warnings = [];
process.on("warning", (warning) => warnings.push(`${warning.name}: ${warning.message}`));

const JS_TARGET = /\.(c|m)?js$/;

/** The file an export target points at for a CommonJS consumer (nested conditions followed), if any. */
function targetFile(target) {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map(targetFile).find((file) => file !== undefined);
  if (target === null || typeof target !== "object") return undefined;
  for (const condition of ["node", "require", "default", "import"]) {
    if (condition in target) {
      const file = targetFile(target[condition]);
      if (file !== undefined) return file;
    }
  }
  return undefined;
}

/** The module specifiers of a package's JavaScript entries: its name, then name + each subpath. */
function entriesOf(manifest) {
  const exports = manifest.exports;
  if (exports === undefined) return [manifest.name];
  // `exports` is either one target (the root entry) or a map of subpaths.
  const subpaths =
    typeof exports === "object" && !Array.isArray(exports) && Object.keys(exports).every((key) => key.startsWith(".")) ? exports : { ".": exports };
  return Object.entries(subpaths)
    .filter(([subpath, target]) => !subpath.includes("*") && JS_TARGET.test(targetFile(target) ?? ""))
    .map(([subpath]) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
}

// Failures are reported as `<package name>: ...` (check-packages.mjs counts failed packages by that prefix).

async function check(name, specifier) {
  const required = require(specifier);
  const imported = await import(specifier);
  // A required ES module is its namespace object (with an __esModule marker when it has a default
  // export): the same names, the same objects, one module instance for both kinds of consumer.
  const requiredNames = Object.keys(required)
    .filter((key) => key !== "__esModule")
    .sort()
    .join(",");
  const importedNames = Object.keys(imported).sort().join(",");
  const different = Object.keys(imported).filter((key) => required[key] !== imported[key]);
  if (requiredNames !== importedNames || different.length > 0) {
    console.error(`${name}: require("${specifier}") and import() differ: [${requiredNames}] / [${importedNames}], other objects: ${different.join(", ")}`);
    return false;
  }
  console.log(`${specifier}: require() loads it (${Object.keys(imported).length} exports, the same objects as import())`);
  return true;
}

async function main() {
  let failed = 0;
  let checked = 0;
  const seen = new Set();
  for (const folder of readdirSync(path.join(root, "packages")).sort()) {
    const manifest = JSON.parse(readFileSync(path.join(root, "packages", folder, "package.json"), "utf8"));
    for (const specifier of entriesOf(manifest)) {
      if (seen.has(specifier)) continue;
      seen.add(specifier);
      checked++;
      try {
        if (!(await check(manifest.name, specifier))) failed++;
      } catch (error) {
        failed++;
        console.error(`${manifest.name}: require("${specifier}") fails: ${error.code ?? ""} ${String(error.message).split("\n")[0]}`);
      }
    }
  }
  for (const warning of warnings) console.log(`note: ${warning}`);
  console.log(`${checked - failed}/${checked} entries load the same with require() and import()`);
  process.exitCode = failed === 0 ? 0 : 1;
}
main();
