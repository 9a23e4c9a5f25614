/**
 * Confinement helpers shared by the Codex tools, on top of the runtime's file layer (decision D3):
 * where a path would land once created, refused when that is outside the session's roots. An early
 * check of the path string (nothing outside is opened in the ordinary case); what is then used is
 * checked again on its descriptor by the runtime, which is what holds while paths change.
 */
import { assertInsideRoots, resolveForCreate, type FsScope } from "@grok-tools/runtime/fs";
import { rejectNulByte } from "@grok-tools/runtime/helpers";

/**
 * The real path `absPath` resolves to (its nearest existing ancestor's realpath plus the missing
 * components), after checking that it lies inside the roots; PERMISSION_DENIED otherwise, and
 * INVALID_INPUT for a path with a NUL byte (no system call takes one).
 */
export async function confinedTarget(scope: FsScope, absPath: string): Promise<string> {
  rejectNulByte(absPath, "path");
  const real = await resolveForCreate(absPath);
  await assertInsideRoots(scope, real, absPath);
  return real;
}
