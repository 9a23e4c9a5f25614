/**
 * How much text a tool echoes back in one reply (issue 23.2). Tools that write files hold whole file
 * contents and edit strings in memory; above this budget they answer with a summary (sizes, line
 * numbers, a diff) instead, so a reply stays far below the 4 MiB default receive limit of gRPC clients
 * and never reports failure for a change that was made. The server still refuses replies over its
 * message limit as a last resort; this budget is what keeps ordinary tools from getting there.
 */

/** Echoed text (file contents, edit strings, context) a writer puts in one reply before summarizing. */
export const REPLY_TEXT_BUDGET_BYTES = 1024 * 1024;
