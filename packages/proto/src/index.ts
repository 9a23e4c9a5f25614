/**
 * @grok-tools/proto: the wire contract of `xai.grok.tools.v1`, generated from
 * `proto/grok-tools.proto` by buf + ts-proto, with `google.rpc.Status` (generated from
 * `proto/google/rpc/status.proto`) for rich errors. Hand-written here: this re-export, the message
 * size limit both ends share, and the status-details codec; regenerate with `nx run proto:generate`.
 */
export * from "./gen/grok-tools.js";
export { Any } from "./gen/google/protobuf/any.js";
export { Status as RpcStatus } from "./gen/google/rpc/status.js";
export { MAX_MESSAGE_BYTES } from "./message-limits.js";
export {
  FINALIZE_VALIDATION_DETAILS_TYPE_URL,
  STATUS_DETAILS_TRAILER,
  decodeFinalizeViolations,
  decodeRpcStatus,
  encodeFinalizeValidationStatus,
} from "./status-details.js";
export { decodeStringsStrictly } from "./strict-utf8.js";
