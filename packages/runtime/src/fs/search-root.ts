/**
 * Confined searches (issue #12 item 6): how to start a program that walks a folder by path
 * (ripgrep) so that it reads only what lies inside the folder that was checked. The search root is
 * opened and checked on its descriptor; the program then starts inside that folder and is given
 * relative paths. A single file is handed over as an open descriptor. Because the program resolves
 * the paths it meets by itself, a folder below the root swapped for a link between its listing and
 * its opening would still be followed; where the kernel allows it, the program therefore runs in a
 * mount namespace of its own in which the root is bind-mounted onto itself with `nosymfollow`, so
 * that no link below the root is followed at all. Where no namespace can be made, only the root is
 * pinned: the server says so in a warning at start-up, and `GROK_TOOLS_SEARCH_SANDBOX=require` makes
 * such searches fail closed instead. This module does not spawn the search itself.
 */
import { spawn } from "node:child_process";
import { constants, realpathSync, accessSync } from "node:fs";
import { mkdtemp, mkdir, open, readdir, rm, symlink, writeFile, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { assertNoNul, isWithinRoot, outsideRootsError, realPathOfHandle, realRoots, rethrowConfined, type FsScope } from "./confinement.js";
import { PROC_FD_AVAILABLE } from "./descriptor-path.js";
import { isAlive } from "./temp-journal.js";
import { ErrorCode } from "../errors/error-code.js";
import { findOnPath } from "../core/host-facts.js";
import { ToolError } from "../errors/tool-error.js";

/**
 * How searches are sandboxed: unset or `auto` (a mount namespace where the kernel allows one, else
 * only the root pinned, with a warning at start-up), `off` (never: hosts that sandbox otherwise), or
 * `require` (refuse searches below a session root when no namespace can be made: fail closed).
 */
export const SEARCH_SANDBOX_ENV_VAR = "GROK_TOOLS_SEARCH_SANDBOX";

/** The values of {@link SEARCH_SANDBOX_ENV_VAR}. */
export type SearchSandboxPolicy = "auto" | "off" | "require";

/** How a search can be kept from following links below its root. */
export interface SearchSandbox {
  /** `nosymfollow-mount`: no link below the root is followed; `none`: only the root itself is pinned. */
  readonly mode: "nosymfollow-mount" | "none";
  /** What the operator asked for ({@link SEARCH_SANDBOX_ENV_VAR}). */
  readonly policy: SearchSandboxPolicy;
  /** The argv placed before the wrapper shell (empty for `none`). */
  readonly prefix: readonly string[];
  /** The mount command the wrapper runs. */
  readonly mountCommand: string;
  /** One line for logs. */
  readonly detail: string;
}

/** How a child process is started for a search. */
export interface SearchLaunch {
  file: string;
  args: string[];
  /** Working directory of the child (the checked folder, or a folder that holds nothing of it). */
  cwd?: string;
  /** Descriptors given to the child as fd 3, 4, ... (a single-file search target). */
  extraFds: number[];
}

/**
 * The shell wrapper run in the new mount namespace: `$0` mount, `$1` root to pin, `$2` cwd, then the
 * program. The root is bind-mounted onto itself recursively with `nosymfollow` (a plain bind would
 * hide what is mounted below it, and the search would silently miss it; the option reaches only the
 * top mount), then every mount below it is remounted `nosymfollow` too (mount keeps its other
 * flags). mountinfo escapes spaces as `\040`: only lines that may lie below the root are decoded
 * (printf %b), to spare a fork per mount of the system. A mount that cannot be restricted fails
 * the search rather than leave a gap.
 */
const SANDBOX_SCRIPT = [
  '"$0" -n --rbind -o nosymfollow -- "$1" "$1" || { echo "grok-tools: cannot prepare the search sandbox" >&2; exit 2; }',
  "mounts=$(cat /proc/self/mountinfo) || exit 2",
  'printf "%s\\n" "$mounts" | while read -r _ _ _ _ at _; do',
  '  case "$at" in "$1"/*|*\\\\*) ;; *) continue ;; esac',
  '  at=$(printf "%b" "$at")',
  '  case "$at" in "$1"/*) "$0" -n -o remount,bind,nosymfollow -- "$at" || { echo "grok-tools: cannot keep the search inside the workspace: $at cannot be made to refuse links" >&2; exit 2; } ;; esac',
  "done || exit 2",
  'cd -- "$2" 2>/dev/null || { echo "grok-tools: the search folder changed while the search started; search again" >&2; exit 2; }',
  "shift 2",
  'exec "$@"',
].join("\n");

const NO_SANDBOX: SearchSandbox = Object.freeze({ mode: "none", policy: "auto", prefix: Object.freeze([]) as readonly string[], mountCommand: "", detail: "" });

/** System folders searched after PATH for `unshare` and `mount` (a restricted PATH may lack them). */
const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

function run(file: string, args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.on("error", () => {
      clearTimeout(timer);
      resolve({ code: null, stdout });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

/** The policy {@link SEARCH_SANDBOX_ENV_VAR} asks for (an unknown value counts as `auto`). */
export function searchSandboxPolicy(env: NodeJS.ProcessEnv = process.env): SearchSandboxPolicy {
  const value = env[SEARCH_SANDBOX_ENV_VAR];
  return value === "off" || value === "require" ? value : "auto";
}

/** Scratch folders of the probe: `<tmp>/grok-tools-probe-<pid>-XXXXXX`. */
const PROBE_PREFIX = "grok-tools-probe-";

/**
 * Removes the probe's scratch folders of processes that are gone (a server killed during its
 * few-ms probe at start-up leaves one; issue #23 item 3: our own temporaries are cleaned at start).
 */
export async function removeStaleProbeFolders(): Promise<void> {
  const names = await readdir(os.tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    // Only names with a pid (`<prefix><pid>-`): a folder whose owner cannot be told is left alone.
    const match = new RegExp(`^${PROBE_PREFIX}(\\d+)-`).exec(name);
    const pid = match === null ? 0 : Number(match[1]);
    if (pid <= 0 || pid === process.pid || isAlive(pid, undefined)) continue;
    await rm(path.join(os.tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Tries each way of making a namespace on a scratch folder with a link in it; the first that refuses the link wins. */
async function probeSandbox(): Promise<SearchSandbox> {
  if (process.platform !== "linux") return { ...NO_SANDBOX, detail: `searches follow no link below their root only on Linux (platform ${process.platform})` };
  const unshare = findOnPath("unshare", { extraDirs: SYSTEM_DIRS });
  const mount = findOnPath("mount", { extraDirs: SYSTEM_DIRS });
  const unavailable = { ...NO_SANDBOX, detail: "mount namespaces unavailable (neither unshare --mount nor unshare --user --mount works here)" };
  if (unshare === undefined || mount === undefined) return unavailable;
  let scratch: string;
  try {
    await removeStaleProbeFolders();
    scratch = realpathSync(await mkdtemp(path.join(os.tmpdir(), `${PROBE_PREFIX}${process.pid}-`)));
  } catch (error) {
    return { ...unavailable, detail: `the search sandbox could not be probed (${(error as Error).message})` };
  }
  try {
    const root = path.join(scratch, "root");
    await mkdir(path.join(scratch, "outside"));
    await writeFile(path.join(scratch, "outside", "x"), "outside\n");
    await mkdir(root);
    await writeFile(path.join(root, "inside"), "inside\n");
    await symlink(path.join(scratch, "outside"), path.join(root, "link"));
    for (const prefix of [
      [unshare, "--mount"],
      [unshare, "--user", "--map-root-user", "--mount"],
    ]) {
      const check = "cat inside && ! cat link/x 2>/dev/null";
      const probe = await run(prefix[0]!, [...prefix.slice(1), "/bin/sh", "-c", SANDBOX_SCRIPT, mount, root, root, "/bin/sh", "-c", check], scratch);
      if (probe.code === 0 && probe.stdout === "inside\n") {
        return Object.freeze({
          mode: "nosymfollow-mount",
          policy: "auto",
          prefix: Object.freeze(prefix),
          mountCommand: mount,
          detail: `searches run in their own mount namespace (${prefix.slice(1).join(" ")}) where no link below the search root is followed`,
        });
      }
    }
    return unavailable;
  } catch (error) {
    return { ...unavailable, detail: `the search sandbox could not be probed (${(error as Error).message})` };
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

let probed: Promise<SearchSandbox> | undefined;

/**
 * How searches are kept from following links in this process: the kernel's means are probed once
 * (a few ms), the policy is read from the environment on each call.
 */
export async function detectSearchSandbox(): Promise<SearchSandbox> {
  const policy = searchSandboxPolicy();
  if (policy === "off")
    return {
      ...NO_SANDBOX,
      policy,
      detail: `${SEARCH_SANDBOX_ENV_VAR}=off: searches run without a mount namespace; a folder swapped for a link below a search root while the search runs can be followed`,
    };
  probed ??= probeSandbox();
  const found = await probed;
  if (found.mode !== "none") return { ...found, policy };
  const consequence =
    policy === "require"
      ? `${SEARCH_SANDBOX_ENV_VAR}=require: searches inside the session folders are refused`
      : `searches pin only their root: a folder swapped for a link below it while a search runs can be followed outside the workspace (allow mount or user namespaces, or set ${SEARCH_SANDBOX_ENV_VAR}=require to refuse such searches)`;
  return { ...found, policy, detail: `${found.detail}; ${consequence}` };
}

/** PERMISSION_DENIED for a search that the `require` policy refuses. */
function searchRefusedError(box: SearchSandbox): ToolError {
  return new ToolError(
    ErrorCode.PERMISSION_DENIED,
    `Permission denied: this server refuses searches, since it cannot keep them inside the workspace here (${box.detail}).`,
    {
      suggestion: "Read or list the files directly instead; the server operator decides whether searches may run without a sandbox.",
    },
  );
}

/** The real path of an executable program, or undefined when there is none. */
function realProgramPath(program: string): string | undefined {
  try {
    const real = realpathSync(program);
    accessSync(real, constants.X_OK);
    return real;
  } catch {
    return undefined;
  }
}

/** Joins a relative path onto a path the way ripgrep prints it (no doubled slash after a trailing one). */
function joinShown(base: string, rel: string): string {
  return base.endsWith("/") ? `${base}${rel}` : `${base}/${rel}`;
}

/** Options of {@link openSearchRoot}. */
export interface SearchRootOptions {
  /** The path as the caller wrote it, for messages. */
  displayPath?: string;
  /**
   * How paths below the root are shown in the program's output (what the program would have
   * printed had it been given the path itself). Default: `absPath`.
   */
  shownAs?: string;
}

/**
 * A checked search root: a folder or a single file, held open. Build the program's arguments with
 * {@link SearchRoot.pathArgument} in place of the search path, start it with
 * {@link SearchRoot.launch}, and map its output back with {@link SearchRoot.rewriteOutput}.
 */
export class SearchRoot {
  readonly #handle: FileHandle;
  readonly #shownAs: string;
  readonly #bindRoot: string | undefined;

  constructor(
    handle: FileHandle,
    readonly kind: "dir" | "file",
    /** Where the root was when it was checked. */
    readonly realPath: string,
    shownAs: string,
    bindRoot: string | undefined,
  ) {
    this.#handle = handle;
    this.#shownAs = shownAs;
    this.#bindRoot = bindRoot;
  }

  /** The path argument to give the program: `.` for a folder, the handed-over descriptor for a file. */
  get pathArgument(): string {
    if (this.kind === "dir") return ".";
    return PROC_FD_AVAILABLE ? "/proc/self/fd/3" : `./${path.basename(this.realPath)}`;
  }

  /**
   * How to start `program args` (absolute program path) confined to this root, with this process's
   * sandbox ({@link detectSearchSandbox}; tests may pass another). PERMISSION_DENIED when the
   * policy is `require` and there is no sandbox.
   */
  async launch(program: string, args: readonly string[], sandbox?: SearchSandbox): Promise<SearchLaunch> {
    if (this.kind === "file") {
      if (!PROC_FD_AVAILABLE) return { file: program, args: [...args], cwd: path.dirname(this.realPath), extraFds: [] };
      return { file: program, args: [...args], extraFds: [this.#handle.fd] };
    }
    const box = this.#bindRoot === undefined ? NO_SANDBOX : (sandbox ?? (await detectSearchSandbox()));
    if (box.mode === "none" && box.policy === "require" && this.#bindRoot !== undefined) throw searchRefusedError(box);
    // A real path has no link in it, so the program can still be started below the pinned root;
    // one that cannot be resolved is spawned directly, so that the caller sees the spawn fail.
    const realProgram = realProgramPath(program);
    if (box.mode === "nosymfollow-mount" && this.#bindRoot !== undefined && realProgram !== undefined) {
      const [file, ...prefixArgs] = box.prefix;
      return {
        file: file!,
        args: [...prefixArgs, "/bin/sh", "-c", SANDBOX_SCRIPT, box.mountCommand, this.#bindRoot, this.realPath, realProgram, ...args],
        extraFds: [],
      };
    }
    // The child enters the checked folder itself (the descriptor is still open when it changes directory).
    return { file: program, args: [...args], cwd: PROC_FD_AVAILABLE ? `/proc/self/fd/${this.#handle.fd}` : this.realPath, extraFds: [] };
  }

  /** The program's output with the paths it printed for this root shown the way the caller named them. */
  rewriteOutput(text: string): string {
    if (text === "") return text;
    const arg = this.pathArgument;
    return text
      .split("\n")
      .map((line) => {
        if (this.kind === "dir") {
          if (line.startsWith("./")) return joinShown(this.#shownAs, line.slice(2));
          if (line.startsWith("rg: ./")) return `rg: ${joinShown(this.#shownAs, line.slice(6))}`;
          return line;
        }
        if (line === arg || line.startsWith(`${arg}:`)) return this.#shownAs + line.slice(arg.length);
        if (line.startsWith(`rg: ${arg}`)) return `rg: ${this.#shownAs}${line.slice(arg.length + 4)}`;
        return line;
      })
      .join("\n");
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

/** Flags of a search root open: a folder or a file, never blocking on a FIFO. */
const ROOT_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens the search root `absPath` (a folder or a file) and checks on the descriptor that it lies
 * inside the session roots (PERMISSION_DENIED otherwise; no check with `fsScope: "any"`). Errno
 * failures (ENOENT, EACCES, ...) are rethrown as they are. The caller must close it.
 */
export async function openSearchRoot(scope: FsScope, absPath: string, options: SearchRootOptions = {}): Promise<SearchRoot> {
  const displayPath = options.displayPath ?? absPath;
  assertNoNul(absPath, displayPath);
  // ENOENT, ENOTDIR, ... of an outside path would tell what exists there: refused as outside first.
  const handle = await open(absPath, ROOT_FLAGS).catch((error: unknown) => rethrowConfined(scope, absPath, displayPath, error));
  try {
    const realPath = await realPathOfHandle(handle, absPath);
    let bindRoot: string | undefined;
    if (scope.fsScope !== "any") {
      const containing = (await realRoots(scope)).filter((root) => isWithinRoot(realPath, root)).sort((a, b) => b.length - a.length);
      if (containing.length === 0) throw outsideRootsError(displayPath, realPath, scope.roots);
      // Pinning "/" would forbid every link of the system to the program; nothing is outside it anyway.
      bindRoot = containing[0] === "/" ? undefined : containing[0];
    }
    const kind = (await handle.stat()).isDirectory() ? "dir" : "file";
    return new SearchRoot(handle, kind, realPath, options.shownAs ?? absPath, bindRoot);
  } catch (error) {
    await handle.close();
    throw error;
  }
}
