/**
 * @grok-tools/callback-host: a reference implementation of GrokToolsCallbackService, the
 * service a host runs so the grok-tools server can push notifications and run subagents.
 */
export { createCallbackHost, DEFAULT_CALLBACK_LISTEN, DEFAULT_CLOSE_GRACE_MS } from "./callback-host.js";
export type { CallbackHost, CallbackHostOptions, ReceivedNotification, SpawnSubagentContext } from "./callback-host.js";
export { bearerChecker } from "./bearer.js";
