/**
 * Recognises "bare echo" narration commands (`echo "done"`, `printf 'hi'`): the bash output
 * marks them with `was_bare_echo` for statistics, as the reference does.
 */

function isSimpleNarrationTail(rest: string): boolean {
  if (rest === "" || /[;|&><$`()\n]/.test(rest)) return false;
  const message = rest.trim();
  return message !== "" && Buffer.byteLength(message) < 512;
}

/** `echo [-neE…] <message>` with no shell metacharacters. */
export function isBareEcho(command: string): boolean {
  const t = command.trimStart();
  if (!t.startsWith("echo")) return false;
  const after = t.slice(4);
  if (after !== "" && !/^\s/.test(after)) return false;
  let rest = after.trimStart();
  while (rest.startsWith("-")) {
    const flags = /^[-neE]*/.exec(rest)?.[0] ?? "";
    if (flags === "" || flags === "-") break;
    rest = rest.slice(flags.length).trimStart();
  }
  return isSimpleNarrationTail(rest);
}

/** `printf <message>` with no metacharacters (not `printf -v` / `printf --`). */
export function isBarePrintf(command: string): boolean {
  const t = command.trimStart();
  if (!t.startsWith("printf")) return false;
  const after = t.slice(6);
  if (after !== "" && !/^\s/.test(after)) return false;
  const rest = after.trimStart();
  if (rest.startsWith("-v") || rest.startsWith("--")) return false;
  return isSimpleNarrationTail(rest);
}
