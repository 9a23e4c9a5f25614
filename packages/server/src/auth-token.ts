/**
 * Where the server's bearer token comes from (`--auth-token-file PATH|-`, `--auth-token`, or
 * GROK_TOOLS_AUTH_TOKEN), and wiping it from everywhere other processes could read it: the
 * environment commands inherit, the process's argv and environ blocks (see hide-secret.ts).
 */
import { readFileSync } from "node:fs";
import { hideSecretFromProcessView, type HideResult } from "./hide-secret.js";

/** The environment variable that may carry the token. */
export const AUTH_TOKEN_ENV = "GROK_TOOLS_AUTH_TOKEN";

/** Where the token came from. */
export type TokenSource = "file" | "stdin" | "flag" | "env";

/** A token and where it came from. */
export interface AuthToken {
  token: string;
  source: TokenSource;
}

/**
 * Reads the token from `--auth-token-file` (a path, or `-` for stdin: the whole input, trimmed, one
 * line) or `--auth-token` (giving both is refused), else from the environment. Throws an Error with
 * a message for the user when the source is unusable.
 */
export function readAuthToken(flags: { authToken?: string; authTokenFile?: string }, env: NodeJS.ProcessEnv): AuthToken | undefined {
  if (flags.authToken !== undefined && flags.authTokenFile !== undefined)
    throw new Error("--auth-token and --auth-token-file go one at a time: give the token once.");
  if (flags.authTokenFile !== undefined) {
    const fromStdin = flags.authTokenFile === "-";
    let text: string;
    try {
      text = readFileSync(fromStdin ? 0 : flags.authTokenFile, "utf8");
    } catch (error) {
      throw new Error(`Cannot read the token file ${fromStdin ? "(stdin)" : flags.authTokenFile}: ${(error as Error).message.replace(/^\w+: /, "")}`);
    }
    return {
      token: checkToken(text.trim(), fromStdin ? "the token read from stdin" : `the token file ${flags.authTokenFile}`),
      source: fromStdin ? "stdin" : "file",
    };
  }
  if (flags.authToken !== undefined) return { token: checkToken(flags.authToken, "--auth-token"), source: "flag" };
  const fromEnv = env[AUTH_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { token: checkToken(fromEnv, AUTH_TOKEN_ENV), source: "env" };
  return undefined;
}

function checkToken(token: string, where: string): string {
  if (token === "") throw new Error(`${where} is empty: the token must be at least one character.`);
  // A header value cannot hold line breaks or other control characters.
  if (/[\x00-\x1f\x7f]/.test(token)) throw new Error(`${where} holds a line break or control character: the token must be one line of printable text.`);
  return token;
}

/**
 * Removes the token from process.env (so commands never inherit it) and masks it in the argv and
 * environ blocks. Returns what could be masked.
 */
export function scrubAuthToken(token: string, env: NodeJS.ProcessEnv = process.env): HideResult {
  delete env[AUTH_TOKEN_ENV];
  return hideSecretFromProcessView(token, [AUTH_TOKEN_ENV]);
}
