/**
 * Errno-style errors of the file layer, shaped as Node's fs throws them (`code` plus message), so
 * that each tool words a failure its own way (io-error-text.ts) whichever layer raised it.
 */

/** An errno-style error, as Node's fs throws it. */
export function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** The `code` of an errno error, or undefined. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
