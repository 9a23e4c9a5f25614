/**
 * Stops a server that npm started when npm goes away. `npx grok-tools-server` and an npm script
 * without `exec` run the server under `sh -c`: npm forwards SIGTERM to that shell, which dies without
 * passing it on, and the server would keep listening with nobody to stop it. Under npm, losing the
 * parent therefore counts as a stop request. Outside npm nothing is watched: a server started with
 * `nohup ... &` must outlive its shell.
 */

/** How often the parent pid is checked (a syscall; Node has no parent-death signal). */
export const LAUNCHER_POLL_MS = 500;

/** Whether npm (npm run, npm start, npx / npm exec) started this process or one of its ancestors. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Calls `onGone` once when this process's parent changes (the parent exited and the process was
 * re-parented), if npm started it. Returns a function that stops watching.
 */
export function watchLauncher(onGone: (formerParent: number) => void, env: NodeJS.ProcessEnv = process.env): () => void {
  if (!startedByNpm(env)) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, LAUNCHER_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
