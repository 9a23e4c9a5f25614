/**
 * @grok-tools/tasks: the process supervisor. Contained process trees, the head/tail output buffer,
 * the launcher host and spare launchers, and the per-session task manager (one per session: a
 * service of the runtime's session) shared by the shell tools and the task-output/kill/wait tools.
 */
export { CHILD_ENV_OVERRIDES, SECRET_ENV_NAMES, addSecretEnvNames, childEnvironment } from "./child-env.js";
export { ISOLATION_ENV_VAR, PROCESS_GROUP_ISOLATION, detectProcessIsolation, detectProcessIsolationAsync, type ProcessIsolation } from "./process-isolation.js";
export {
  DEFAULT_MAX_PROCESSES,
  DEFAULT_MAX_SESSION_PROCESSES,
  MAX_PROCESSES_ENV_VAR,
  MAX_SESSION_PROCESSES_ENV_VAR,
  type SessionProcessLimit,
} from "./process-limit.js";
export { HEAD_TAIL_MARKER, OutputBuffer } from "./output-buffer.js";
export {
  MAX_SPARE_FAILURES,
  MAX_WARM_COMMAND_CHARS,
  SPARE_ACK_TIMEOUT_MS,
  SPARE_IDLE_DELAY_MS,
  SPARE_POOL_SIZE,
  SPARE_READY_WAIT_MS,
  SpareLauncher,
  WarmLaunch,
} from "./spare-launcher.js";
export {
  HOST_REPLY_TIMEOUT_MS,
  LauncherHost,
  MAX_HOST_STARTS,
  sharedLauncherHost,
  type HostedProcess,
  type HostedSpawnRequest,
  type LauncherExit,
} from "./launcher-host.js";
export {
  DRAIN_TIMEOUT_MS,
  KILL_GRACE_MS,
  MAX_LOG_FILE_BYTES,
  MAX_OUTPUT_BYTES_BEFORE_KILL,
  PROCESS_MARKER_ENV,
  REAP_GRACE_MS,
  RunningProcess,
  resolveShell,
  type ProcessExit,
  type SpawnCommandOptions,
} from "./process-runner.js";
export {
  BACKGROUND_MAX_RUNTIME_MS,
  COMPLETED_TASK_TTL_MS,
  MAX_RUNNING_TASKS_PER_SESSION,
  MAX_QUEUED_TASKS_PER_SESSION,
  MAX_QUEUE_WAIT_MS,
  QUEUE_RETRY_AFTER_MS,
  MAX_SNAPSHOT_BYTES,
  MAX_TASK_TOMBSTONES,
  OUTPUT_NOTIFY_INTERVAL_MS,
  ProcessTask,
  TaskManager,
  notificationSnapshot,
  readTaskLog,
  taskManagerService,
  type CommandSpec,
  type ForegroundOutcome,
  type ForegroundSpec,
  type KillOutcome,
  type KillReason,
  type TaskResult,
  type TaskSnapshot,
  type WaitOutcome,
} from "./task-manager.js";
export {
  DEFAULT_MAX_CONCURRENT_SUBAGENTS,
  EVICTED_SUBAGENT_OUTPUT,
  MAX_COMPLETED_SUBAGENTS,
  SubagentCoordinator,
  type SubagentCancelOutcome,
  type SubagentLimitBehavior,
  type SubagentSnapshot,
  type SubagentStart,
  type SubagentStatus,
} from "./subagent-coordinator.js";
