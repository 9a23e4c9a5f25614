/**
 * Detects a bash background `&` in a command (spec §3.5): the current contract scans the
 * whole command like a shell would (quotes, escapes, heredocs, `&&`, `&>`, `>&`, `<&`,
 * a trailing `wait`); the legacy-0.4.10 contract only looks at a trailing `&`.
 */

/** Legacy: the trimmed command ends with `&` that is not `&&` or `>&`. */
export function hasTrailingBackgroundOperator(command: string): boolean {
  const trimmed = command.trim();
  return trimmed.endsWith("&") && !trimmed.endsWith("&&") && !trimmed.endsWith(">&");
}

/** Whether the last statement is the `wait` builtin (`a & b & wait` blocks, so it is allowed). */
export function endsWithWaitBuiltin(command: string): boolean {
  const trimmed = command.trimEnd().replace(/;+$/, "").replace(/\n+$/, "").trimEnd();
  return trimmed === "wait" || [" wait", ";wait", "\twait", "\nwait"].some((suffix) => trimmed.endsWith(suffix));
}

interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
}

/** Parses `<<[-] WORD` at `start` (the first `<`); returns the delimiter and the index after it. */
function parseHeredocStart(chars: readonly string[], start: number): (Heredoc & { after: number }) | undefined {
  const len = chars.length;
  let i = start + 2;
  const stripTabs = i < len && chars[i] === "-";
  if (stripTabs) i++;
  while (i < len && (chars[i] === " " || chars[i] === "\t")) i++;
  if (i >= len || chars[i] === "\n") return undefined;
  let delimiter: string;
  const quote = chars[i];
  if (quote === "'" || quote === '"') {
    i++;
    const from = i;
    while (i < len && chars[i] !== quote) i++;
    if (i >= len) return undefined;
    delimiter = chars.slice(from, i).join("");
    i++;
  } else {
    const from = i;
    while (i < len && !/\s/u.test(chars[i]!) && !";&|()<>".includes(chars[i]!)) i++;
    if (i === from) return undefined;
    delimiter = chars
      .slice(from, i)
      .filter((c) => c !== "\\")
      .join("");
  }
  if (delimiter === "") return undefined;
  return { delimiter, stripTabs, after: i };
}

/** Skips a heredoc body starting at `start`; returns the index after the delimiter line. */
function skipHeredocBody(chars: readonly string[], start: number, heredoc: Heredoc): number {
  const len = chars.length;
  let i = start;
  while (i < len) {
    const lineStart = i;
    while (i < len && chars[i] !== "\n") i++;
    let line = chars.slice(lineStart, i).join("");
    if (heredoc.stripTabs) line = line.replace(/^\t+/, "");
    if (line === heredoc.delimiter) return i < len ? i + 1 : i;
    if (i < len) i++;
  }
  return len;
}

/** Whether `command` has a backgrounding `&` outside quotes, escapes, heredocs and redirects. */
export function containsBackgroundOperator(command: string): boolean {
  const chars = Array.from(command);
  const len = chars.length;
  let inSingle = false;
  let inDouble = false;
  const pending: Heredoc[] = [];
  let i = 0;
  while (i < len) {
    const ch = chars[i]!;
    if (ch === "\\" && !inSingle) {
      i += 2;
      continue;
    }
    if (ch === "'" && !inDouble) {
      inSingle = !inSingle;
      i++;
      continue;
    }
    if (ch === '"' && !inSingle) {
      inDouble = !inDouble;
      i++;
      continue;
    }
    if (ch === "\n" && !inSingle && !inDouble && pending.length > 0) {
      i++;
      for (const heredoc of pending.splice(0)) i = skipHeredocBody(chars, i, heredoc);
      continue;
    }
    if (ch === "<" && !inSingle && !inDouble && chars[i + 1] === "<" && chars[i + 2] !== "<") {
      const heredoc = parseHeredocStart(chars, i);
      if (heredoc) {
        pending.push({ delimiter: heredoc.delimiter, stripTabs: heredoc.stripTabs });
        i = heredoc.after;
        continue;
      }
    }
    if (ch === "&" && !inSingle && !inDouble) {
      if (chars[i + 1] === "&") {
        i += 2;
        continue;
      }
      if (chars[i + 1] === ">") {
        i += 2;
        if (chars[i] === ">") i++;
        continue;
      }
      if (i > 0 && (chars[i - 1] === ">" || chars[i - 1] === "<")) {
        i++;
        continue;
      }
      return true;
    }
    i++;
  }
  return false;
}

/** The contract's check: legacy looks only at a trailing `&`; current at any un-waited `&`. */
export function hasBackgroundOperator(command: string, legacy: boolean): boolean {
  if (legacy) return hasTrailingBackgroundOperator(command);
  return containsBackgroundOperator(command) && !endsWithWaitBuiltin(command);
}

/** The rejection message (spec §3.5), naming the client's background parameter. */
export function backgroundOperatorMessage(legacy: boolean, backgroundEnabled: boolean, paramName: string): string {
  if (backgroundEnabled) {
    return legacy
      ? `Command must not end with '&'. Remove the '&' and set ${paramName}=true to run the command in the background.`
      : `Remove the background '&' from your command and set ${paramName}=true instead.`;
  }
  return legacy
    ? "Command must not end with '&' because background execution is disabled. Remove the '&' and run the command in the foreground."
    : "Remove the background '&' from your command; background execution is disabled.";
}
