/**
 * @grok-tools/proto: the wire contract of `xai.grok.tools.v1`, generated from
 * `proto/grok-tools.proto` by buf + ts-proto. Nothing here is hand-written
 * except this re-export and the message size limit both ends share; regenerate with
 * `nx run proto:generate`.
 */
export * from "./gen/grok-tools.js";
export { MAX_MESSAGE_BYTES } from "./message-limits.js";
