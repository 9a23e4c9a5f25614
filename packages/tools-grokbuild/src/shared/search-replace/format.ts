/** Success texts of search_replace (DEFAULT and CONCISE), with the path exactly as the model passed it. */

/** Prompt texts after creating (or overwriting) a file with an empty `old_string`. */
export function createdTexts(filePath: string): { full: string; concise: string } {
  return { full: `The file ${filePath} has been created successfully.`, concise: `The file ${filePath} has been created.` };
}

/** Prompt texts after replacing one or several occurrences. */
export function updatedTexts(filePath: string, replacements: number): { full: string; concise: string } {
  if (replacements === 1) {
    return { full: `The file ${filePath} has been updated successfully.`, concise: `The file ${filePath} has been updated.` };
  }
  return {
    full: `The file ${filePath} has been updated. All occurrences were successfully replaced.`,
    concise: `The file ${filePath} has been updated. All occurrences were replaced.`,
  };
}
