/**
 * @grok-tools/callback-host: a reference implementation of GrokToolsCallbackService, the
 * service a host runs so the grok-tools server can push notifications and run subagents, with
 * runners that execute the children (scripted, or a configured program per child).
 */
export { createCallbackHost, DEFAULT_CALLBACK_LISTEN, DEFAULT_CLOSE_GRACE_MS } from "./callback-host.js";
export type { CallbackHost, CallbackHostOptions, ReceivedNotification, SpawnSubagentContext, SpawnSubagentHandler } from "./callback-host.js";
export { bearerChecker } from "./bearer.js";
export { isKnownNotification, parseNotification } from "./notifications.js";
export type * from "./notifications.js";
export { scriptedRunner, type ScriptStep, type ScriptedRunner } from "./runners/scripted-runner.js";
export {
  COMMAND_KILL_GRACE_MS,
  MAX_COMMAND_OUTPUT_BYTES,
  commandRunner,
  type CommandRunnerInput,
  type CommandRunnerOptions,
  type CommandRunnerOutput,
  type TranscriptTurn,
} from "./runners/command-runner.js";
