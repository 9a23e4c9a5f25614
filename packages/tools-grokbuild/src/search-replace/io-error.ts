/** Rust's display of an OS error (`Permission denied (os error 13)`), used in write-failure texts. */
import os from "node:os";

const STRERROR: Readonly<Record<string, string>> = {
  EPERM: "Operation not permitted",
  ENOENT: "No such file or directory",
  EIO: "Input/output error",
  EACCES: "Permission denied",
  EBUSY: "Device or resource busy",
  EEXIST: "File exists",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EINVAL: "Invalid argument",
  EMFILE: "Too many open files",
  ETXTBSY: "Text file busy",
  EFBIG: "File too large",
  ENOSPC: "No space left on device",
  EROFS: "Read-only file system",
  ENAMETOOLONG: "File name too long",
  ELOOP: "Too many levels of symbolic links",
  EDQUOT: "Disk quota exceeded",
};

/** `<strerror> (os error N)` for a Node errno error; its message otherwise. */
export function displayIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const errno = code === undefined ? undefined : (os.constants.errno as Record<string, number | undefined>)[code];
  const text = code === undefined ? undefined : STRERROR[code];
  if (text !== undefined && errno !== undefined) return `${text} (os error ${errno})`;
  return (error as Error | undefined)?.message ?? String(error);
}
