#!/usr/bin/env node
// CommonJS consumer check: every workspace package must load with require() (Node's require(esm),
// Node >= 20.19 / 22.12) and give the same export names as import(). Run by check-packages.mjs.
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const warnings = [];
process.on("warning", (warning) => warnings.push(`${warning.name}: ${warning.message}`));

async function main() {
  let failed = 0;
  for (const folder of readdirSync(path.join(root, "packages")).sort()) {
    const { name } = JSON.parse(readFileSync(path.join(root, "packages", folder, "package.json"), "utf8"));
    try {
      const required = require(name);
      const imported = await import(name);
      // A required ES module is its namespace object (with an __esModule marker when it has a default
      // export): the same names, the same objects, one module instance for both kinds of consumer.
      const requiredNames = Object.keys(required)
        .filter((key) => key !== "__esModule")
        .sort()
        .join(",");
      const importedNames = Object.keys(imported).sort().join(",");
      const different = Object.keys(imported).filter((key) => required[key] !== imported[key]);
      if (requiredNames !== importedNames || different.length > 0) {
        failed++;
        console.error(`${name}: require() and import() differ: [${requiredNames}] / [${importedNames}], other objects: ${different.join(", ")}`);
      } else {
        console.log(`${name}: require() loads it (${Object.keys(imported).length} exports, the same objects as import())`);
      }
    } catch (error) {
      failed++;
      console.error(`${name}: require() fails: ${error.code ?? ""} ${String(error.message).split("\n")[0]}`);
    }
  }
  for (const warning of warnings) console.log(`note: ${warning}`);
  process.exitCode = failed === 0 ? 0 : 1;
}
main();
