// The server README documents every flag of the command and its GROK_TOOLS_* variable: a flag added
// later without its README row fails here, naming it. The flags come from the command itself twice:
// its --help text and its --print-config keys (which list every option commander knows, so a flag
// whose help line is worded oddly is not missed), and a numeric default in the table must be the
// command's. Every other environment variable the server process reads (in its sources and those of
// the packages it runs) is named in the README too.
import { expect, it, jest } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { BIN, SERVER_TEST_TIMEOUT_MS } from "./run-server.js";
import { envName } from "../src/config/flag-config.js";

// Each case runs the server's command (a Node start and module loading; slow on a loaded machine).
jest.setTimeout(SERVER_TEST_TIMEOUT_MS);

const README = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");

/** The command's environment without any GROK_TOOLS_* setting, so that --print-config shows the defaults. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GROK_TOOLS_")));
}

function helpFlags(): string[] {
  const help = execFileSync(process.execPath, [BIN, "--help"], { encoding: "utf8", env: cleanEnv() });
  return [...new Set([...help.matchAll(/(?:^|\s)--([a-z][a-z0-9-]+)/g)].map((m) => m[1]!))].filter((f) => f !== "help" && f !== "version");
}

/** `key: value  # source` lines of --print-config: every configurable flag with its default. */
function printedDefaults(): Map<string, unknown> {
  const out = execFileSync(process.execPath, [BIN, "--print-config"], { encoding: "utf8", env: cleanEnv() });
  const settings = new Map<string, unknown>();
  for (const line of out.split("\n")) {
    const match = /^([a-z][a-z0-9-]*): (.*?)  # /.exec(line);
    if (match) settings.set(match[1]!, JSON.parse(match[2]!));
  }
  return settings;
}

/** The rows of the README's flag table (`| flag | variable | default | meaning |`), by each flag they name. */
function flagTableRows(): Map<string, string[][]> {
  const rows = new Map<string, string[][]>();
  for (const line of README.split("\n")) {
    if (!line.startsWith("| `--")) continue;
    // Split on cell borders, not on the escaped `\|` inside a cell.
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    for (const [, flag] of cells[0]!.matchAll(/`--([a-z][a-z0-9-]+)/g)) rows.set(flag!, [...(rows.get(flag!) ?? []), cells]);
  }
  return rows;
}

it("every flag of --help and of --print-config has one row in the README's table, with its variable", () => {
  const defaults = printedDefaults();
  const flags = [...new Set([...helpFlags(), ...defaults.keys()])];
  expect(flags.length).toBeGreaterThan(20);
  // The two sources agree: a flag in the help text that the settings do not know would escape the config file.
  expect(helpFlags().filter((f) => f !== "print-config" && !defaults.has(f))).toEqual([]);
  expect(flags).toContain("live-output-buffer-bytes");
  const rows = flagTableRows();
  expect(flags.filter((f) => !rows.has(f))).toEqual([]);
  // One row per flag: a second, stale table would contradict the first one sooner or later.
  expect(flags.filter((f) => rows.get(f)!.length > 1)).toEqual([]);
  const withoutVariable = flags.filter((f) => f !== "print-config" && rows.get(f)![0]![1] !== undefined && !rows.get(f)![0]![1]!.includes(`\`${envName(f)}\``));
  expect(withoutVariable).toEqual([]);
});

it("every numeric default in the table is the command's", () => {
  const rows = flagTableRows();
  const wrong: string[] = [];
  for (const [flag, value] of printedDefaults()) {
    if (typeof value !== "number") continue;
    const shown = rows.get(flag)?.[0]?.[2] ?? "";
    if (!new RegExp(`^\`?${value}\\b`).test(shown)) wrong.push(`--${flag}: README says "${shown}", the command ${value}`);
  }
  expect(wrong).toEqual([]);
});

/** The source files of the server and of the @grok-tools packages it depends on (not tests, not test helpers), and the image's health check. */
function serverSourceFiles(): string[] {
  const packages = path.resolve(import.meta.dirname, "../..");
  const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { dependencies: Record<string, string> };
  const names = ["server", ...Object.keys(manifest.dependencies).flatMap((dep) => (dep.startsWith("@grok-tools/") ? [dep.slice("@grok-tools/".length)] : []))];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return name === "__tests__" || name === "testing" ? [] : walk(file);
      return name.endsWith(".ts") && !/\.(test|d)\.ts$/.test(name) ? [file] : [];
    });
  // And the image's health check, whose variables the README lists beside the server's.
  return [...names.flatMap((name) => walk(path.join(packages, name, "src"))), path.resolve(packages, "../deploy/docker/healthcheck.mjs")];
}

/**
 * Environment variables the sources read: every `….env.NAME` / `env.NAME` member, and every string
 * literal shaped like one of ours (`GROK_…`, `XDG_…`: names kept in constants, read as
 * `process.env[CONSTANT]` or passed to a helper), with the files that name them. Comments do not count.
 */
function environmentNames(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of serverSourceFiles()) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      let name: string | undefined;
      if (ts.isStringLiteralLike(node) && /^(GROK|XDG)_[A-Z0-9_]*[A-Z0-9]$/.test(node.text)) name = node.text;
      else if (ts.isPropertyAccessExpression(node) && /(^|\.)env$/.test(node.expression.getText(source)) && /^[A-Z][A-Z0-9_]+$/.test(node.name.text))
        name = node.name.text;
      if (name) found.set(name, [...(found.get(name) ?? []), path.relative(path.resolve(import.meta.dirname, "../../.."), file)]);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

it("every environment variable read in the server's sources, its packages' and the health check's is named in the README", () => {
  const names = environmentNames();
  // The scan sees what it must: a constant read through process.env[...] and a name passed to a helper.
  expect([...names.keys()]).toEqual(
    expect.arrayContaining(["GROK_TOOLS_MAX_PROCESSES", "GROK_MAX_FOREGROUND_BLOCK_MS", "XDG_STATE_HOME", "GROK_TOOLS_HEALTH_CA"]),
  );
  const missing = [...names].filter(([name]) => !README.includes(`\`${name}\``)).map(([name, files]) => `${name} (${[...new Set(files)].join(", ")})`);
  expect(missing).toEqual([]);
});
