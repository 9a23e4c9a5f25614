/**
 * The finalize request of a routed session, kept in its state folder (`finalize_request.json`) so
 * that the session warm-starts with the same toolset after an idle eviction or a server restart.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic, type FinalizeInput } from "@grok-tools/runtime/host";
import { type Logger } from "@grok-tools/runtime";

/** File name beside the session's `resources_state.json`. */
export const SAVED_FINALIZE_FILE = "finalize_request.json";
const SAVED_FINALIZE_VERSION = 1;

/** Writes the finalize input (durably) minus `initial_tool_state_json`, which the state file supersedes. */
export async function saveFinalize(sessionDir: string, input: FinalizeInput): Promise<void> {
  const { initialToolStateJson: _initial, restoring: _restoring, ...kept } = input;
  await writeFileAtomic(path.join(sessionDir, SAVED_FINALIZE_FILE), JSON.stringify({ version: SAVED_FINALIZE_VERSION, input: kept }, null, 2) + "\n");
}

/** The saved finalize input, or undefined when there is none or it cannot be read (logged). */
export async function loadSavedFinalize(sessionDir: string, log: Logger): Promise<FinalizeInput | undefined> {
  const file = path.join(sessionDir, SAVED_FINALIZE_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn({ err: error, file }, "cannot read the saved finalize request");
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as { version?: unknown; input?: FinalizeInput };
    if (parsed.version !== SAVED_FINALIZE_VERSION || typeof parsed.input !== "object" || !Array.isArray(parsed.input?.tools)) {
      log.warn({ file }, "the saved finalize request has an unknown layout; the session starts unfinalized");
      return undefined;
    }
    return parsed.input;
  } catch (error) {
    log.warn({ err: error, file }, "the saved finalize request is not valid JSON; the session starts unfinalized");
    return undefined;
  }
}
