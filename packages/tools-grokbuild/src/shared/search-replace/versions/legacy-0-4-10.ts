/**
 * `legacy-0.4.10` wording of search_replace failures (spec §3.5): no hints, and the historical
 * texts. Our error codes stay the specific D1 ones; only the words change.
 */

/** Names used by the legacy texts. */
export interface LegacyNames {
  filePath: string;
  readTool: string;
  replaceAllParam: string;
  oldStringParam: string;
}

export const legacyMessages = {
  fileAlreadyExists: (n: LegacyNames) => `${n.oldStringParam} is empty, which is only allowed when creating a new file or when the file is empty.`,
  fileNotFound: (n: LegacyNames) => `File not found: ${n.filePath}. Please check the path and try again.`,
  multipleMatches: (n: LegacyNames) =>
    `The string to replace was found multiple times in the file. Use ${n.replaceAllParam} to replace all occurrences, or include more context to only edit one occurrence.`,
  noMatches: (n: LegacyNames) => `The string to replace was not found in the file, use the ${n.readTool} tool to see the correct string.`,
};
