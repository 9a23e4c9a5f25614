/** `GrokBuild:read_file`. */
export { readFile, READ_FILE_PARAMS_ID, normalizeReadFileInput } from "./read-file.js";
export { readFileConcise } from "./read-file-concise.js";
export { GITIGNORE_POLICY, isGitignored, type GitignorePolicy } from "../shared/gitignore.js";
export { CURSOR_RULES_ON_READ } from "./cursor-rules.js";
export { ReadFileInput, ReadFileOutput, ReadFileParams } from "./schema.js";
