/**
 * @grok-tools/runtime/fs: the confined file operations. Tools reach files only through these and
 * their context's session (`ctx.session` is an `FsScope`): checked on the opened descriptor, atomic
 * writes with journalled temporaries, confined ripgrep launches and the one ripgrep runner, per-path locks and the read tracker.
 */
export {
  MAX_SYMLINK_HOPS,
  assertInsideRoots,
  assertPathInsideRoots,
  assertNoNul,
  isWithinRoot,
  outsideRootsError,
  realPathOfHandle,
  realRoots,
  replacedWhileOpeningError,
  resolveForCreate,
  type FsScope,
  type TemporaryNotes,
} from "./fs/confinement.js";
export { expandTilde, resolveModelPath, sanitizeModelPathArg } from "./fs/model-path.js";
export { errorCodeOfFileReadFailure, ioErrorText, rustIoErrorText } from "./fs/io-error-text.js";
export { PROC_FD_AVAILABLE, descriptorPath } from "./fs/descriptor-path.js";
export { CheckedDir, assertEntryName, openDirConfined, openDirUnconfined, type OpenDirOptions } from "./fs/checked-dir.js";
export { errnoCode, errnoError } from "./fs/errno.js";
export { realpathFast } from "./fs/sync-fast-path.js";
export {
  DEFAULT_MAX_READ_BYTES,
  openConfined,
  readFileConfined,
  readFileConfinedNow,
  specialFileError,
  specialKind,
  type OpenedFile,
  type ReadNowOptions,
  type ReadResult,
} from "./fs/safe-read.js";
export {
  createFileConfined,
  createUniqueFileInDir,
  removeFileConfined,
  replaceFileAtomic,
  writeFileConfined,
  writeFilesConfined,
  type ConfinedWrite,
  type UniqueFileOptions,
  type WriteResult,
} from "./fs/atomic-write.js";
export { resolveRealPath, statPath, statPathConfined, statPathSync } from "./fs/path-facts.js";
export { TEMP_JOURNAL_DIR_NAME, TempJournal, temporaryNameFor, temporaryWriterPid, type JournalEntry, type RecoveryReport } from "./fs/temp-journal.js";
export {
  SEARCH_SANDBOX_ENV_VAR,
  SearchRoot,
  detectSearchSandbox,
  openSearchRoot,
  searchSandboxPolicy,
  type SearchLaunch,
  type SearchRootOptions,
  type SearchSandbox,
  type SearchSandboxPolicy,
} from "./fs/search-root.js";
export {
  MAX_RIPGREP_STDOUT_BYTES,
  RIPGREP_PATH_ENV_VAR,
  ripgrepPath,
  ripgrepStatus,
  runRipgrep,
  type RipgrepRun,
  type RipgrepRunOptions,
  type RipgrepStatus,
} from "./fs/ripgrep-run.js";
export { decodeText, detectTextFormat, encodeText, type TextFormat } from "./fs/text-format.js";
export { PATH_LOCKS, PathLocks } from "./fs/path-lock.js";
export {
  FILE_READ_TRACKER,
  FileReadTracker,
  readTracker,
  sha256Hex,
  type CheckBeforeEditOptions,
  type FileReadRecord,
  type FileReadTrackerState,
} from "./fs/read-tracker.js";
