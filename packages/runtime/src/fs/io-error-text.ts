/**
 * Renders Node file-system errors the way Rust's `std::io::Error` displays them
 * (`No such file or directory (os error 2)`), because the reference's tool messages embed that
 * text (spec §13 item 2). One table for every tool package.
 */
import { constants } from "node:os";
import { ErrorCode } from "../errors/error-code.js";

/** glibc's `strerror` texts for the errors a file tool can meet. */
const STRERROR: Readonly<Record<string, string>> = {
  EPERM: "Operation not permitted",
  ENOENT: "No such file or directory",
  EIO: "Input/output error",
  ENXIO: "No such device or address",
  EBADF: "Bad file descriptor",
  EAGAIN: "Resource temporarily unavailable",
  ENOMEM: "Cannot allocate memory",
  EACCES: "Permission denied",
  EBUSY: "Device or resource busy",
  EEXIST: "File exists",
  EXDEV: "Invalid cross-device link",
  ENODEV: "No such device",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EINVAL: "Invalid argument",
  ENFILE: "Too many open files in system",
  EMFILE: "Too many open files",
  ETXTBSY: "Text file busy",
  EFBIG: "File too large",
  ENOSPC: "No space left on device",
  EROFS: "Read-only file system",
  EMLINK: "Too many links",
  ENAMETOOLONG: "File name too long",
  ENOTEMPTY: "Directory not empty",
  ELOOP: "Too many levels of symbolic links",
  EOVERFLOW: "Value too large for defined data type",
  EDQUOT: "Disk quota exceeded",
  ESTALE: "Stale file handle",
};

/** `No such file or directory (os error 2)` for a Node errno error; its message otherwise. */
export function rustIoErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const errno = code === undefined ? undefined : (constants.errno as Record<string, number | undefined>)[code];
  const text = code === undefined ? undefined : STRERROR[code];
  if (text !== undefined && errno !== undefined) return `${text} (os error ${errno})`;
  return error instanceof Error ? error.message : String(error);
}

/** The same text behind the `IO Error: ` prefix of the reference's file-system error type. */
export function ioErrorText(error: unknown): string {
  return `IO Error: ${rustIoErrorText(error)}`;
}

/**
 * The ErrorCode of a failed read of a file (decision D1): missing → FILE_NOT_FOUND, refused →
 * PERMISSION_DENIED, a folder where a file was expected → INVALID_INPUT, anything else → EXECUTION_FAILED.
 */
export function errorCodeOfFileReadFailure(error: unknown): ErrorCode {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
    case "ENOTDIR":
      return ErrorCode.FILE_NOT_FOUND;
    case "EACCES":
    case "EPERM":
      return ErrorCode.PERMISSION_DENIED;
    case "EISDIR":
      return ErrorCode.INVALID_INPUT;
    default:
      return ErrorCode.EXECUTION_FAILED;
  }
}
