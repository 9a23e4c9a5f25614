/**
 * The `x-grok-session-id` header: reading it from call metadata, checking it, and the name of the
 * session's state folder (collision-free: an id that had to be cleaned gets a hash of the original).
 */
import { createHash } from "node:crypto";
import { status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import { sanitizeForFileName } from "@grok-tools/runtime/host";
import { grpcError } from "../grpc/unary-handler.js";

/** The metadata key that selects a session; calls without it use the default session. */
export const SESSION_ID_HEADER = "x-grok-session-id";
/** Longest session id accepted (characters). */
export const MAX_SESSION_ID_CHARS = 256;
/** Ids kept as they are in a folder name; anything else is cleaned and hashed. */
const FOLDER_SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,95}$/;

/** The session id a call names, or undefined for the default session; INVALID_ARGUMENT when unusable. */
export function sessionIdOf(metadata: Metadata): string | undefined {
  const values = metadata.get(SESSION_ID_HEADER);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw grpcError(GrpcStatus.INVALID_ARGUMENT, `Send ${SESSION_ID_HEADER} once per call; this call has ${values.length} values.`);
  const value = values[0];
  if (typeof value !== "string" || value.trim() === "") {
    throw grpcError(GrpcStatus.INVALID_ARGUMENT, `${SESSION_ID_HEADER} must be a non-empty text value (or left out for the default session).`);
  }
  if (value.length > MAX_SESSION_ID_CHARS) {
    throw grpcError(GrpcStatus.INVALID_ARGUMENT, `${SESSION_ID_HEADER} is ${value.length} characters long; at most ${MAX_SESSION_ID_CHARS} are accepted.`);
  }
  return value;
}

/**
 * The state folder name of a session id: the id itself when it is a plain file name, else the
 * cleaned id plus a hash of the original, so that `a/b` and `a_b` never share a folder.
 */
export function sessionFolderName(id: string): string {
  if (FOLDER_SAFE.test(id)) return id;
  const hash = createHash("sha256").update(id).digest("hex").slice(0, 16);
  return `${sanitizeForFileName(id).slice(0, 64)}-${hash}`;
}
