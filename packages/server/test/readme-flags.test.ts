// The server README documents every flag of the command and its GROK_TOOLS_* variable: a flag added
// later without its README row fails here, naming it.
import { expect, it, jest } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { BIN } from "./run-server.js";
import { envName } from "../src/config/flag-config.js";

// Each case starts real server processes; on a loaded machine one start can take several seconds.
jest.setTimeout(120_000);

it("every flag of --help, and its variable, is in the README's table", () => {
  const help = execFileSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
  const flags = [...new Set([...help.matchAll(/(?:^|\s)--([a-z][a-z0-9-]+)/g)].map((m) => m[1]!))].filter((f) => f !== "help" && f !== "version");
  expect(flags.length).toBeGreaterThan(20);
  const readme = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");
  const undocumented = flags.filter((f) => !readme.includes(`\`--${f}`));
  expect(undocumented).toEqual([]);
  const withoutVariable = flags.filter((f) => f !== "print-config" && !readme.includes(`\`${envName(f)}\``));
  expect(withoutVariable).toEqual([]);
});
