/**
 * Where a server keeps its state: one folder per workspace under the state root
 * (`<root>/<workspace name>-<hash of its real path>/`), session folders inside it. It checks the
 * workspace and that the folder can be written; the lock on the folder is state-folder-lock.ts.
 */
import { createHash } from "node:crypto";
import { mkdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { sanitizeForFileName } from "@grok-tools/runtime/host";

/** Hex digits of the workspace path's hash in the folder name: enough to never collide in practice. */
const WORKSPACE_HASH_CHARS = 16;

/** A setting the server cannot start with; `option` names the setting (CLI flag name without dashes). */
export class ServerSetupError extends Error {
  readonly option: "workspace" | "state-dir";
  constructor(option: "workspace" | "state-dir", message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ServerSetupError";
    this.option = option;
  }
}

/**
 * The workspace's real path, or a {@link ServerSetupError} saying why it cannot be served (missing,
 * not a folder, unreadable). Tools resolve every path against it, so it must exist before the first call.
 */
export function checkWorkspace(workspace: string): string {
  const resolved = path.resolve(workspace);
  let info;
  try {
    info = statSync(resolved);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ServerSetupError("workspace", `The workspace ${resolved} does not exist. Create it, or pass an existing folder as --workspace.`);
    }
    throw new ServerSetupError("workspace", `Cannot use the workspace ${resolved}: ${describeFsError(error)}.`, { cause: error });
  }
  if (!info.isDirectory()) {
    throw new ServerSetupError("workspace", `The workspace ${resolved} is not a folder. Pass a folder as --workspace.`);
  }
  return realpathSync(resolved);
}

/**
 * The state folder of a workspace under `stateRoot`: the workspace's folder name (for people
 * reading the state root) and a hash of its real path (so two workspaces never share a folder).
 */
export function workspaceStateFolder(stateRoot: string, workspaceRealPath: string): string {
  const hash = createHash("sha256").update(workspaceRealPath).digest("hex").slice(0, WORKSPACE_HASH_CHARS);
  const name = sanitizeForFileName(path.basename(workspaceRealPath) || "root").slice(0, 64);
  return path.join(path.resolve(stateRoot), `${name}-${hash}`);
}

/** Creates the folder (and its parents), or throws a {@link ServerSetupError} naming the problem. */
export function makeStateFolder(folder: string, stateRoot: string): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw unwritableStateError(stateRoot, error);
  }
}

/** The error for a state root that cannot hold this server's state. */
export function unwritableStateError(stateRoot: string, error: unknown): ServerSetupError {
  return new ServerSetupError(
    "state-dir",
    `Cannot write the state folder ${path.resolve(stateRoot)}: ${describeFsError(error)}. ` +
      `Tool state (todo lists, read records, logs) would not be saved; pass a folder this user can write as --state-dir.`,
    { cause: error },
  );
}

/** `permission denied (EACCES)` rather than Node's `EACCES: permission denied, mkdir '/x'`. */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EROFS: "read-only file system",
    ENOTDIR: "a part of the path is a file, not a folder",
    EEXIST: "a file is in the way",
    ENOSPC: "no space left on the device",
    ENOENT: "no such file or folder",
    ELOOP: "too many symbolic links",
  };
  if (e?.code && reasons[e.code]) return `${reasons[e.code]} (${e.code})`;
  return e?.message ?? String(error);
}
