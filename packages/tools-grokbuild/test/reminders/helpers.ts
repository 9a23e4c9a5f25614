/** Temporary folders and sessions for the reminder tests. */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, type SessionOptions } from "@grok-tools/runtime/host";

export async function tempDirs(): Promise<{ workspace: string; stateDir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "grok-reminders-test-"));
  return { workspace: root, stateDir: path.join(root, ".state"), cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A session in these folders, checking outputs against their schemas. */
export function makeSession(dirs: { workspace: string; stateDir: string }, options: Pick<SessionOptions, "registry"> & Partial<SessionOptions>): Session {
  return new Session({ workspace: dirs.workspace, stateDir: dirs.stateDir, validateOutputs: true, ...options });
}
