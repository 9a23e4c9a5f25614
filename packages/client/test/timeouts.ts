// Jest timeouts of integration tests that start real servers. A test's own bound must stay above
// spawnServer's wait for the listening line, so that on a loaded machine the test fails (if at all)
// with spawnServer's message and the server's stderr, not with Jest's bare "Exceeded timeout".
import { DEFAULT_STARTUP_TIMEOUT_MS } from "../src/spawn-server.js";

/**
 * The timeout of a test or hook that starts `servers` servers one after another: each start may
 * take its whole wait, plus one more such span for the test's own work.
 */
export function spawnTimeoutMs(servers = 1): number {
  return (servers + 1) * DEFAULT_STARTUP_TIMEOUT_MS;
}
