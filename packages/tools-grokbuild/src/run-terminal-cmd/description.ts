/**
 * The model-facing description templates of `run_terminal_cmd` (copied verbatim from the
 * reference; rendered at finalize with the session's tool and parameter names).
 */

/** Description when background execution is enabled (the default). */
export const BASH_DESCRIPTION_BACKGROUND_ENABLED = String.raw`Run a ${"$"}{%- if is_windows %} shell command${"$"}{%- else %} bash command${"$"}{%- endif %} and return its output.

Usage notes:
  - You can specify an optional ${"$"}{{ params.execute.timeout }} in milliseconds (up to ${"$"}{{ max_timeout_ms | default(300000) }}ms). ${"$"}{%- if auto_background_on_timeout %} If not specified, foreground commands exceeding the default timeout will be automatically backgrounded instead of killed. You will receive a task id to check output later.${"$"}{%- else %} If not specified, foreground commands will timeout after ${"$"}{{ default_timeout_ms | default(120000) }}ms.${"$"}{%- endif %} Background tasks are not bounded by the default: with ${"$"}{{ params.execute.timeout }} omitted or 0 they run until they exit or are killed; a positive ${"$"}{{ params.execute.timeout }} still applies.
  - Timeout enforcement: when the timeout fires, the wrapper${"$"}{%- if is_windows %} terminates the child's Job Object, killing every descendant process immediately (no graceful-termination grace period).${"$"}{%- else %} kills the child process group (SIGTERM, escalated to SIGKILL after a ~1s grace period). Descendants that did not detach via ${"`"}setsid${"`"} / ${"`"}nohup${"`"} will also be killed.${"$"}{%- endif %} ${"`"}${"$"}{{ params.execute.timeout }}: 0${"`"} in ${"`"}${"$"}{%- if params is defined and params.execute is defined and params.execute.is_background %}${"$"}{{ params.execute.is_background }}${"$"}{%- else %}background${"$"}{%- endif %}: true${"`"} mode disables the wrapper timeout entirely${"$"}{%- if tools.by_kind.kill_task_action %}; the child's lifetime is owned by the model via ${"$"}{{ tools.by_kind.kill_task_action }}${"$"}{%- endif %}.
  - If the output exceeds {max_output_bytes} characters, the middle is truncated (you keep the beginning and end) and the result includes the path to a log file with the full output, which you can read or search.
  - You can use the ${"$"}{{ params.execute.is_background }} parameter to run the command in the background (e.g., dev servers, long builds): it returns a task id immediately and keeps running in the background.${"$"}{%- if system_reminders_enabled %} You are notified on completion, so do not poll or sleep-wait for it.${"$"}{%- elif tools.by_kind.background_task_action %} Check on it later with the ${"$"}{{ tools.by_kind.background_task_action }} tool.${"$"}{%- endif %}${"$"}{%- if has_unix_utilities %} You do not need to use '&' at the end of the command when using this parameter.${"$"}{%- endif %}
${"$"}{%- if shell_uses_semicolon %}
  - '&&' is not supported in this shell; chain sequential commands with ';'.
${"$"}{%- endif %}
${"$"}{%- if not has_unix_utilities %}
  - The Unix utilities ${"`"}grep${"`"}, ${"`"}head${"`"}, ${"`"}tail${"`"}, ${"`"}sed${"`"}, ${"`"}awk${"`"}, and ${"`"}find${"`"} are NOT available in this shell. Use the dedicated tools instead.
${"$"}{%- endif %}`;

/** Description when background execution is disabled. */
export const BASH_DESCRIPTION_BACKGROUND_DISABLED = String.raw`Run a ${"$"}{%- if is_windows %} shell command${"$"}{%- else %} bash command${"$"}{%- endif %} and return its output.

Usage notes:
  - You can specify an optional ${"$"}{{ params.execute.timeout }} in milliseconds (up to ${"$"}{{ max_timeout_ms | default(300000) }}ms). If not specified, commands will timeout after ${"$"}{{ default_timeout_ms | default(120000) }}ms.
  - Timeout enforcement: when the timeout fires, the wrapper${"$"}{%- if is_windows %} terminates the child's Job Object, killing every descendant process immediately (no graceful-termination grace period).${"$"}{%- else %} kills the child process group (SIGTERM, escalated to SIGKILL after a ~1s grace period).${"$"}{%- endif %}
  - If the output exceeds {max_output_bytes} characters, output will be truncated before being returned to you.
${"$"}{%- if shell_uses_semicolon %}
  - '&&' is not supported in this shell; chain sequential commands with ';'.
${"$"}{%- endif %}
${"$"}{%- if not has_unix_utilities %}
  - The Unix utilities ${"`"}grep${"`"}, ${"`"}head${"`"}, ${"`"}tail${"`"}, ${"`"}sed${"`"}, ${"`"}awk${"`"}, and ${"`"}find${"`"} are NOT available in this shell. Use the dedicated tools instead.
${"$"}{%- endif %}`;

/** The `command` property description (Unix). */
export const COMMAND_PROPERTY_DESCRIPTION = "The bash command to run.";
/** The static `timeout` property description (rewritten per params at finalize). */
export const TIMEOUT_PROPERTY_DESCRIPTION = "Optional timeout in milliseconds (max 300000). Default: 120000 (2 minutes), enforced for foreground commands only.";
/** The `description` property description. */
export const DESCRIPTION_PROPERTY_DESCRIPTION = "One sentence explanation as to why this command needs to be run and how it contributes to the goal.";
/** The `is_background` property description (a template). */
export const IS_BACKGROUND_PROPERTY_DESCRIPTION = String.raw`Set to true for long-running commands that should run in the background (e.g., dev servers, long builds). Returns a task id immediately while the command keeps running in the background${"$"}{%- if system_reminders_enabled %}; you are notified on completion, so do not poll or sleep-wait for it${"$"}{%- elif tools.by_kind.background_task_action %}; check on it later with the ${"$"}{{ tools.by_kind.background_task_action }} tool${"$"}{%- endif %}.`;
