/**
 * The model-facing texts of `run_terminal_cmd` (verbatim from the reference; templates rendered at
 * finalize with the session's tool and parameter names). The long ones are the .md files beside this module.
 */
import { loadDescription } from "../shared/description.js";

/** Description when background execution is enabled (the default). */
export const BASH_DESCRIPTION_BACKGROUND_ENABLED = loadDescription(import.meta.url);

/** Description when background execution is disabled. */
export const BASH_DESCRIPTION_BACKGROUND_DISABLED = loadDescription(import.meta.url, "description.no-background.md");

/** The `command` property description (Unix). */
export const COMMAND_PROPERTY_DESCRIPTION = "The bash command to run.";
/** The static `timeout` property description (rewritten per params at finalize). */
export const TIMEOUT_PROPERTY_DESCRIPTION =
  "Optional timeout in milliseconds (max 300000). Default: 120000 (2 minutes), enforced for foreground commands only.";
/** The `description` property description. */
export const DESCRIPTION_PROPERTY_DESCRIPTION = "One sentence explanation as to why this command needs to be run and how it contributes to the goal.";
/** The `is_background` property description (a template). */
export const IS_BACKGROUND_PROPERTY_DESCRIPTION = loadDescription(import.meta.url, "description.is-background-param.md");
