/**
 * Host shell flags of GrokBuild's description templates (`is_windows`, `shell_uses_semicolon`,
 * `has_unix_utilities`; Linux/macOS: false, false, true), declared as the namespace's flags.
 */
export const HOST_TEMPLATE_FLAGS = Object.freeze({
  is_windows: process.platform === "win32",
  shell_uses_semicolon: false,
  has_unix_utilities: process.platform !== "win32",
});
