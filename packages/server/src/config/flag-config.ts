/**
 * Settings from three more places than the command line, generic over commander's option table: every
 * flag `--some-flag` also reads the variable `GROK_TOOLS_SOME_FLAG` and the config-file key `some-flag`,
 * with the precedence flags > environment > config file > defaults. A flag added later with
 * `.option(...)` gets its variable and key without any change here.
 */
import type { Command, Option } from "commander";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// Required on use: only a server started with a YAML --config pays for loading the parser (issue #18's start-up budget).
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

/** Prefix of every flag's environment variable. */
export const ENV_PREFIX = "GROK_TOOLS_";

/** Where a setting's value came from. */
export type SettingSource = "flag" | "env" | "file" | "default" | "unset";

/** One configurable flag and its resolved value. */
export interface Setting {
  /** The config-file key: the long flag without dashes (`state-dir`). */
  key: string;
  /** commander's attribute name (`stateDir`). */
  attribute: string;
  /** The environment variable (`GROK_TOOLS_STATE_DIR`), absent for flags that cannot come from there. */
  env?: string;
  /** Whether it may be set in a config file. */
  inFile: boolean;
  /** A value never printed (a token, a password). */
  secret: boolean;
  value: unknown;
  source: SettingSource;
}

/** A setting that is not usable: the message names the variable or the file and key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** What the resolver needs besides the parsed program. */
export interface ResolveOptions {
  env: NodeJS.ProcessEnv;
  /** Already-loaded config file: its path (for messages) and its key/values. */
  file?: { path: string; values: Record<string, unknown> };
  /** Flags that only act (help, version, --print-config): no variable, no key. */
  actionFlags?: readonly string[];
  /** Flags that may come from a variable but not from the file (--config itself). */
  notInFile?: readonly string[];
}

/** Names that hold a secret value (not a path to one). */
const SECRET_KEY = /(^|-)(token|secret|password)$/;

/** The config-file key of an option: its long name without dashes (the positive name of `--no-x`). */
export function optionKey(option: Option): string | undefined {
  const long = option.long?.replace(/^--/, "");
  if (!long) return undefined;
  return option.negate ? long.replace(/^no-/, "") : long;
}

/** `state-dir` -> `GROK_TOOLS_STATE_DIR`. */
export function envName(key: string): string {
  return `${ENV_PREFIX}${key.toUpperCase().replace(/-/g, "_")}`;
}

/**
 * Fills in, for every option the command line left at its default, the value of its environment
 * variable, else of its config-file key; refuses unknown file keys. Returns every setting with its
 * source (for --print-config and for callers that treat a source specially).
 */
export function applyEnvAndFile(program: Command, options: ResolveOptions): Setting[] {
  const actionFlags = new Set(options.actionFlags ?? []);
  const notInFile = new Set(options.notInFile ?? []);
  const settings: Setting[] = [];
  const byKey = new Map<string, { option: Option; setting: Setting }>();
  for (const option of program.options as readonly Option[]) {
    const key = optionKey(option);
    if (key === undefined || actionFlags.has(key) || option.hidden) continue;
    // A `--x` and its `--no-x` share one setting; the first one declared describes it.
    if (byKey.has(key)) continue;
    const setting: Setting = {
      key,
      attribute: option.attributeName(),
      env: envName(key),
      inFile: !notInFile.has(key),
      secret: SECRET_KEY.test(key),
      value: undefined,
      source: "unset",
    };
    byKey.set(key, { option, setting });
    settings.push(setting);
  }

  const fileValues = options.file?.values ?? {};
  if (options.file) {
    for (const key of Object.keys(fileValues)) {
      const known = byKey.get(key);
      if (!known || !known.setting.inFile)
        throw new ConfigError(
          unknownKeyMessage(
            options.file.path,
            key,
            [...byKey.values()].filter((k) => k.setting.inFile).map((k) => k.setting.key),
          ),
        );
    }
  }

  for (const { option, setting } of byKey.values()) {
    const commanderSource = program.getOptionValueSource(setting.attribute) as string | undefined;
    if (commanderSource === "cli") {
      setting.source = "flag";
    } else {
      const fromEnv = setting.env === undefined ? undefined : options.env[setting.env];
      const fromFile = fileValues[setting.key];
      if (fromEnv !== undefined && fromEnv !== "") {
        program.setOptionValueWithSource(setting.attribute, envValue(option, fromEnv, setting.env!), "env");
        setting.source = "env";
      } else if (fromFile !== undefined && fromFile !== null) {
        program.setOptionValueWithSource(setting.attribute, fileValue(option, fromFile, `${options.file!.path}: key "${setting.key}"`), "config");
        setting.source = "file";
      } else {
        setting.source = commanderSource === undefined ? "unset" : "default";
      }
    }
    setting.value = program.getOptionValue(setting.attribute);
    if (setting.value === undefined) setting.source = "unset";
  }
  return settings;
}

/** Reads a JSON or YAML config file (by extension; anything else is tried as YAML, which reads JSON too). */
export function loadConfigFile(file: string): { path: string; values: Record<string, unknown> } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`--config ${file}: ${(error as Error).message.replace(/^\w+: /, "")}`);
  }
  let parsed: unknown;
  try {
    parsed = path.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `--config ${file} is not valid ${path.extname(file).toLowerCase() === ".json" ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  if (parsed === null || parsed === undefined) return { path: file, values: {} }; // an empty file
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError(
      `--config ${file} must hold a mapping of flag names to values (like "listen: 0.0.0.0:50051"), not ${Array.isArray(parsed) ? "a list" : typeof parsed}.`,
    );
  }
  return { path: file, values: parsed as Record<string, unknown> };
}

/** The settings as YAML (a valid config file once secrets are filled in), each line saying where the value came from. */
export function formatSettings(settings: readonly Setting[]): string {
  const lines = ["# grok-tools-server configuration (precedence: flags > environment > config file > defaults)"];
  for (const s of settings) {
    const shown = s.value === undefined ? null : s.secret ? "***" : s.value;
    const where = s.source === "env" ? `env ${s.env}` : s.source === "flag" ? `flag --${s.key}` : s.source === "file" ? "config file" : s.source;
    lines.push(`${s.key}: ${JSON.stringify(shown)}  # ${where}${s.inFile ? "" : " (not a config-file key)"}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A variable's text as the option's value: booleans from true/false/1/0/yes/no, lists comma-separated. */
function envValue(option: Option, text: string, name: string): unknown {
  if (isBooleanOption(option)) {
    const value = parseBoolean(text);
    if (value === undefined) throw new ConfigError(`${name}=${JSON.stringify(text)}: use true or false (or 1/0, yes/no).`);
    return value;
  }
  const parts = option.variadic
    ? text
        .split(",")
        .map((p) => p.trim())
        .filter((p) => p !== "")
    : [text];
  return convert(option, parts, name);
}

/** A file value as the option's value: booleans as booleans, lists as lists (or one string), scalars as strings. */
function fileValue(option: Option, value: unknown, where: string): unknown {
  if (isBooleanOption(option)) {
    if (typeof value === "boolean") return value;
    const parsed = typeof value === "string" ? parseBoolean(value) : undefined;
    if (parsed === undefined) throw new ConfigError(`${where}: expected true or false, got ${JSON.stringify(value)}.`);
    return parsed;
  }
  const items = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && !option.variadic) throw new ConfigError(`${where}: expected one value, got a list.`);
  const texts = items.map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "number" || typeof item === "boolean") return String(item);
    throw new ConfigError(`${where}: expected ${option.variadic ? "a string or a list of strings" : "a string or a number"}, got ${JSON.stringify(item)}.`);
  });
  return convert(option, texts, where);
}

/** Runs the option's own parser (choices, numbers) over each part, the way commander does for flags. */
function convert(option: Option, parts: readonly string[], where: string): unknown {
  let value: unknown = undefined;
  for (const part of parts) {
    try {
      if (option.parseArg) value = option.parseArg(part, value as never);
      else value = option.variadic ? [...((value as string[] | undefined) ?? []), part] : part;
    } catch (error) {
      // A flag's parser refusing a value (commander's InvalidArgumentError, or any Error) is the user's mistake.
      if (error instanceof Error) throw new ConfigError(`${where}: ${JSON.stringify(part)} is not usable: ${error.message}`);
      throw error;
    }
  }
  return value;
}

function isBooleanOption(option: Option): boolean {
  return !option.required && !option.optional;
}

function parseBoolean(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(t)) return true;
  if (["false", "0", "no", "off"].includes(t)) return false;
  return undefined;
}

function unknownKeyMessage(file: string, key: string, known: readonly string[]): string {
  const kebab = key
    .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    .replace(/_/g, "-")
    .replace(/^--?/, "");
  const hint = kebab !== key && known.includes(kebab) ? ` (did you mean "${kebab}"?)` : "";
  return `--config ${file}: unknown key "${key}"${hint}. Known keys: ${known.join(", ")}.`;
}
