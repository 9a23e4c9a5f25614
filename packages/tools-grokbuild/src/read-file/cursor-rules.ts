/**
 * Cursor project rules on read (`cursor_rules_on_read`, reference `cursor_rules_on_read.rs`): after
 * a successful read, rules under `.cursor/rules` of the folders between the workspace and the file
 * that apply to it are appended once per session. State: `cursor.RulesOnRead`. Rule folders and
 * files are read through checked descriptors (issue #12 item 6): nothing outside the session's
 * roots is ever shown.
 */
import path from "node:path";
import picomatch from "picomatch";
import { createRequire } from "node:module";
import { defineResource } from "@grok-tools/runtime";
import { isPlainObject } from "@grok-tools/runtime/helpers";
import { openDirConfined, readFileConfined, resolveRealPath, type CheckedDir, type FsScope } from "@grok-tools/runtime/fs";
import { type ResourceStore } from "@grok-tools/runtime/helpers";

/** yaml is required on the first parse, not at start-up (issue #18: most sessions never parse YAML). */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

/** How a rule applies (serde's external tagging of the reference's enum). */
type CursorRuleKind = "Global" | "AgentFetched" | "Manual" | { FileGlobbed: string[] };

interface ParsedCursorRule {
  full_path: string;
  scope_dir: string;
  body: string;
  kind: CursorRuleKind;
}

/** The tracker state, as serialized by the reference. */
export interface CursorRulesOnReadState {
  scanned_scope_dirs: string[];
  rules: ParsedCursorRule[];
  injected_rule_paths: string[];
}

/** `state.cursor.RulesOnRead`. */
export const CURSOR_RULES_ON_READ = defineResource<CursorRulesOnReadState>({
  id: "cursor.RulesOnRead",
  category: "state",
  initial: () => ({ scanned_scope_dirs: [], rules: [], injected_rule_paths: [] }),
  decode: (json) => {
    if (!isPlainObject(json)) return undefined;
    const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
    const rules = Array.isArray(json.rules)
      ? json.rules.filter(
          (r): r is ParsedCursorRule => isPlainObject(r) && typeof r.full_path === "string" && typeof r.scope_dir === "string" && typeof r.body === "string",
        )
      : [];
    return { scanned_scope_dirs: strings(json.scanned_scope_dirs), rules, injected_rule_paths: strings(json.injected_rule_paths) };
  },
});

const normalizeExisting = (p: string): Promise<string> => resolveRealPath(p).catch(() => p);

/** Whether `child` equals `parent` or lies below it (whole components). */
function startsWithPath(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

function ancestorScopeDirs(root: string, readPath: string): string[] {
  const dirs: string[] = [];
  let current = path.dirname(readPath);
  if (!startsWithPath(current, root)) return dirs;
  for (;;) {
    if (!startsWithPath(current, root)) break;
    dirs.push(current);
    if (current === root) break;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return dirs.reverse();
}

function splitFrontmatter(content: string): [string, string] | undefined {
  const rest = content.startsWith("---\n") ? content.slice(4) : content.startsWith("---\r\n") ? content.slice(5) : undefined;
  if (rest === undefined) return undefined;
  for (const delimiter of ["\n---\n", "\n---\r\n", "\r\n---\r\n", "\r\n---\n"]) {
    const index = rest.indexOf(delimiter);
    if (index !== -1) return [rest.slice(0, index), rest.slice(index + delimiter.length)];
  }
  if (rest.trimEnd() === "---") return ["", ""];
  return undefined;
}

interface Frontmatter {
  alwaysApply: boolean;
  globs: string[] | undefined;
  description: string | undefined;
}

function globPatterns(value: unknown): string[] | undefined {
  const split = (s: string): string[] =>
    s
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "");
  if (typeof value === "string") return split(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.flatMap(split);
  return undefined;
}

/** YAML first (as serde_yaml), then the reference's line-by-line fallback. */
function parseFrontmatter(yaml: string): Frontmatter | undefined {
  try {
    const parsed: unknown = parseYaml(yaml);
    const doc = parsed === null || parsed === undefined ? {} : parsed;
    if (isPlainObject(doc)) {
      const always = doc.alwaysApply ?? false;
      const globs = doc.globs === undefined || doc.globs === null ? undefined : globPatterns(doc.globs);
      const description = doc.description ?? undefined;
      const typesOk =
        typeof always === "boolean" &&
        (doc.globs === undefined || doc.globs === null || globs !== undefined) &&
        (description === undefined || description === null || typeof description === "string");
      if (typesOk) return { alwaysApply: always, globs, description: typeof description === "string" ? description : undefined };
    }
  } catch {
    // Not valid YAML (e.g. `globs: *.ts`): fall back to the line parser below.
  }
  const out: Frontmatter = { alwaysApply: false, globs: undefined, description: undefined };
  let sawField = false;
  for (const line of yaml.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim();
    const value = line
      .slice(colon + 1)
      .trim()
      .replace(/^"+|"+$/g, "")
      .replace(/^'+|'+$/g, "");
    if (key === "alwaysApply") {
      out.alwaysApply = value.toLowerCase() === "true";
      sawField = true;
    } else if (key === "globs" && value !== "") {
      out.globs = globPatterns(value);
      sawField = true;
    } else if (key === "description" && value !== "") {
      out.description = value;
      sawField = true;
    }
  }
  return sawField ? out : undefined;
}

function parseRule(scopeDir: string, fullPath: string, content: string): ParsedCursorRule {
  const split = splitFrontmatter(content);
  const body = split ? split[1] : content;
  const fm = split ? parseFrontmatter(split[0]) : undefined;
  let kind: CursorRuleKind = "Manual";
  if (fm?.alwaysApply) kind = "Global";
  else if (fm) {
    if (fm.globs !== undefined && fm.globs.length > 0) kind = { FileGlobbed: fm.globs };
    else if (fm.description !== undefined && fm.description.trim() !== "") kind = "AgentFetched";
  }
  return { full_path: fullPath, scope_dir: scopeDir, body: body.trimStart(), kind };
}

/** Opens `<scopeDir>/.cursor/rules` as a checked folder, or undefined when it is missing or not inside the roots. */
async function openRulesDir(scope: FsScope, scopeDir: string): Promise<CheckedDir | undefined> {
  try {
    return await openDirConfined(scope, path.join(scopeDir, ".cursor", "rules"));
  } catch {
    // Missing, not a folder, or a link out of the session's roots: there are no rules there.
    return undefined;
  }
}

/** The text of the rule file `name` in `dir`, or undefined when it cannot be read inside the roots. */
async function readRuleText(scope: FsScope, dir: CheckedDir, name: string): Promise<{ text: string; realPath: string } | undefined> {
  try {
    // Through the folder's descriptor; a link is followed only to a file inside the roots (checked on what was opened).
    const read = await readFileConfined(scope, dir.at(name), { displayPath: dir.realPathOf(name) });
    return { text: read.bytes.toString("utf8"), realPath: read.realPath };
  } catch {
    return undefined;
  }
}

/**
 * The rules under `<scopeDir>/.cursor/rules`, depth first in name order. Every folder is reached
 * through the descriptor of its checked parent and every file is checked on what was opened, so a
 * rules folder (or rule) that is a link out of the session's roots, or is swapped for one, is never
 * read: its text would be shown to the model.
 */
async function scanScopeDir(scope: FsScope, scopeDir: string): Promise<ParsedCursorRule[]> {
  const rulesDir = await openRulesDir(scope, scopeDir);
  if (rulesDir === undefined) return [];
  const rules: ParsedCursorRule[] = [];
  const visit = async (dir: CheckedDir): Promise<void> => {
    const entries = await dir.entries().catch(() => []);
    const names = (keep: (entry: (typeof entries)[number]) => boolean): string[] =>
      entries
        .filter(keep)
        .map((e) => e.name)
        .sort();
    for (const name of names((e) => e.isFile() && /\.(mdc|md)$/i.test(e.name))) {
      const read = await readRuleText(scope, dir, name);
      if (read !== undefined) rules.push(parseRule(scopeDir, read.realPath, read.text));
    }
    for (const name of names((e) => e.isDirectory())) {
      const child = await dir.openChild(name).catch(() => undefined);
      if (child === undefined) continue;
      try {
        await visit(child);
      } finally {
        await child.close();
      }
    }
  };
  try {
    await visit(rulesDir);
  } finally {
    await rulesDir.close();
  }
  return rules;
}

function globMatches(pattern: string, candidate: string): boolean {
  try {
    return picomatch(pattern, { dot: true })(candidate);
  } catch {
    return false;
  }
}

function ruleMatches(rule: ParsedCursorRule, root: string, readPath: string): boolean {
  if (rule.kind === "Global") return rule.scope_dir !== root && startsWithPath(readPath, rule.scope_dir);
  if (typeof rule.kind !== "object") return false;
  const relative = startsWithPath(readPath, rule.scope_dir) ? path.relative(rule.scope_dir, readPath) : "";
  return rule.kind.FileGlobbed.some((glob) => {
    const normalized = glob.replaceAll("\\", "/");
    if (normalized.startsWith("/")) return globMatches(normalized, readPath);
    const relativeGlob = !normalized.includes("/") || normalized.endsWith("/") ? `**/${normalized}` : normalized;
    return globMatches(normalized, relative) || globMatches(relativeGlob, relative);
  });
}

function renderReminder(rules: ParsedCursorRule[]): string | undefined {
  if (rules.length === 0) return undefined;
  const lines = ["The following rule files are relevant to the files you just read:"];
  for (const rule of rules) {
    const body = rule.body.trim() === "" ? "(Rule file is empty.)" : rule.body.trimEnd();
    lines.push(`- ${rule.full_path}\n${body}`);
  }
  lines.push("Consider these rules if they affect your changes.");
  return lines.join("\n\n");
}

/** The reminder for a read of `readPath` (rules not yet injected in this session), or undefined. */
export async function cursorRuleReminderForRead(
  scope: FsScope,
  resources: ResourceStore,
  workspaceRoot: string,
  readPath: string,
): Promise<string | undefined> {
  const root = await normalizeExisting(workspaceRoot);
  const file = await normalizeExisting(readPath);
  const scopeDirs = ancestorScopeDirs(root, file);
  if (scopeDirs.length === 0) return undefined;
  const state = structuredClone(resources.get(CURSOR_RULES_ON_READ));
  const toScan = scopeDirs.filter((dir) => !state.scanned_scope_dirs.includes(dir));
  const discovered: ParsedCursorRule[] = [];
  for (const dir of toScan) discovered.push(...(await scanScopeDir(scope, dir)));
  const injected = new Set<string>();
  for (const p of state.injected_rule_paths) injected.add(await normalizeExisting(path.isAbsolute(p) ? p : path.join(root, p)));
  state.scanned_scope_dirs.push(...toScan);
  const known = new Set(state.rules.map((r) => r.full_path));
  for (const rule of discovered) {
    if (known.has(rule.full_path)) continue;
    known.add(rule.full_path);
    state.rules.push(rule);
  }
  const matching: ParsedCursorRule[] = [];
  for (const rule of state.rules) {
    if (injected.has(rule.full_path)) continue;
    if (ruleMatches(rule, root, file)) {
      injected.add(rule.full_path);
      matching.push(rule);
    }
  }
  state.injected_rule_paths = [...injected];
  resources.set(CURSOR_RULES_ON_READ, state);
  return renderReminder(matching);
}

/** Appends a reminder after content (separated by a blank line unless content is empty). */
export function appendReminder(content: string, reminder: string): string {
  return content === "" ? reminder : `${content}\n\n${reminder}`;
}
