/**
 * Renders an I/O failure the way the reference prints a Rust `std::io::Error` inside its tool
 * error (`IO Error: <strerror> (os error N)`, spec §13 item 2), from a Node errno error.
 */
import os from "node:os";

/** glibc strerror texts for the errno codes a read can meet. */
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
  ENODEV: "No such device",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EINVAL: "Invalid argument",
  ENFILE: "Too many open files in system",
  EMFILE: "Too many open files",
  ETXTBSY: "Text file busy",
  EFBIG: "File too large",
  ENAMETOOLONG: "File name too long",
  ELOOP: "Too many levels of symbolic links",
  EOVERFLOW: "Value too large for defined data type",
  ESTALE: "Stale file handle",
};

/** `IO Error: <strerror> (os error N)` for a Node errno error; its message otherwise. */
export function renderIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const errno = code === undefined ? undefined : (os.constants.errno as Record<string, number | undefined>)[code];
  const text = code === undefined ? undefined : STRERROR[code];
  if (text !== undefined && errno !== undefined) return `IO Error: ${text} (os error ${errno})`;
  return `IO Error: ${error instanceof Error ? error.message : String(error)}`;
}
