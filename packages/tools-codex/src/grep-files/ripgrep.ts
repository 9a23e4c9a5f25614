/**
 * The ripgrep side of Codex:grep_files: its arguments (file names only, newest first), its 30 s
 * deadline and the parsing of its output. The run itself is the runtime's shared runner.
 */
/** How long ripgrep may run. */
export const RG_TIMEOUT_MS = 30_000;
/** Cap on ripgrep's output: 2 000 paths of the longest length (4 KiB) fit several times over. */
export const RG_MAX_STDOUT_BYTES = 32 * 1024 * 1024;

/** The ripgrep arguments of a search (the pattern always goes through `--regexp`, so a leading `-` is safe). */
export function ripgrepArgs(pattern: string, include: string | undefined, searchPath: string): string[] {
  const args = ["--files-with-matches", "--sortr=modified", "--regexp", pattern, "--no-messages"];
  if (include !== undefined) args.push("--glob", include);
  args.push("--", searchPath);
  return args;
}

/** The first `limit` non-empty, valid UTF-8 lines of ripgrep's output. */
export function parseResults(stdout: Buffer, limit: number): string[] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const results: string[] = [];
  let start = 0;
  while (start <= stdout.length && results.length < limit) {
    let end = stdout.indexOf(0x0a, start);
    if (end === -1) end = stdout.length;
    const line = stdout.subarray(start, end);
    start = end + 1;
    if (line.length === 0) continue;
    try {
      results.push(decoder.decode(line));
    } catch {
      // The reference skips paths that are not valid UTF-8.
    }
  }
  return results;
}
