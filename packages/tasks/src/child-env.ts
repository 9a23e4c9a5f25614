/**
 * The environment of spawned commands: the server's own environment minus its secrets,
 * plus the fixed variables that keep tools non-interactive (decision D4, spec §4.1).
 * Process-wide configuration, not session state: the server registers its secret names once.
 */

/** Names that never reach a child: the server's auth token, callback secret and TLS key material. */
const secretEnvNames = new Set<string>([
  "GROK_TOOLS_AUTH_TOKEN",
  "GROK_TOOLS_CALLBACK_SECRET",
  "GROK_TOOLS_TLS_KEY",
  "GROK_TOOLS_TLS_KEY_PATH",
  "GROK_TOOLS_TLS_CERT",
  "GROK_TOOLS_TLS_CERT_PATH",
  "GROK_TOOLS_TLS_CA",
  "GROK_TOOLS_TLS_CA_PATH",
  "GROK_TOOLS_TLS_CLIENT_CA",
  "GROK_TOOLS_TLS_CLIENT_CA_PATH",
]);

/**
 * Names that say they hold a secret (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, ...): the
 * server's own such variables never reach a command, as in Codex's default environment policy. A
 * command that needs one gets it from the call or session variables (`extra`), which are meant for it.
 */
export const SECRET_NAME_PATTERN = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

/** The variable names stripped from every child environment (a live, read-only view). */
export const SECRET_ENV_NAMES: ReadonlySet<string> = secretEnvNames;

/** Adds names to strip (for example a `--tls-key` path the server read from a custom variable). */
export function addSecretEnvNames(...names: string[]): void {
  for (const name of names) if (name !== "") secretEnvNames.add(name);
}

/** Variables every command gets: no colours, no pagers, a dumb terminal, an agent marker. */
export const CHILD_ENV_OVERRIDES: Readonly<Record<string, string>> = Object.freeze({
  TERM: "dumb",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  GROK_AGENT: "1",
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "cat",
});

/**
 * The environment for a child: `base` (default `process.env`) without secrets (the registered
 * names and every name matching {@link SECRET_NAME_PATTERN}), then the
 * fixed overrides, then `extra` (session or call variables; secrets in it are dropped too).
 */
export function childEnvironment(extra: Record<string, string> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !secretEnvNames.has(name) && !SECRET_NAME_PATTERN.test(name)) env[name] = value;
  }
  Object.assign(env, CHILD_ENV_OVERRIDES);
  for (const [name, value] of Object.entries(extra)) {
    if (!secretEnvNames.has(name)) env[name] = value;
  }
  return env;
}
