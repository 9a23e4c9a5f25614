/**
 * One line per check for the stress table, as the reliability suite writes them
 * (test/reliability/lib/report.ts): `scripts/run-suite.mjs stress` hands each script a file in
 * GROK_SUITE_REPORT and prints a row per `{ check, count, passed, note }` line it finds there.
 */
import { appendFileSync } from "node:fs";

/** The smoke form of a stress script (CI: `npm run stress -- --smoke`). */
export const SMOKE = process.env.GROK_SUITE_SMOKE === "1";

/** Appends one check's result to the run's report file, when there is one; always logs it. */
export function recordCheck(check: string, count: number, passed: boolean, note = ""): void {
  console.log(`check ${check}: ${count} ${passed ? "pass" : "FAIL"}${note ? ` (${note})` : ""}`);
  const file = process.env.GROK_SUITE_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ check, count, passed, note })}\n`);
}

/**
 * Runs `body`, which returns the number of cases it made, and records the check as passed when it
 * returns and failed when it throws (the error is rethrown for Jest); a failed check's count is
 * `planned`, the number of cases it was set to make.
 */
export async function check(name: string, body: () => Promise<number>, planned = 0): Promise<void> {
  let count: number;
  try {
    count = await body();
  } catch (error) {
    recordCheck(name, planned, false, error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error));
    throw error;
  }
  recordCheck(name, count, true);
}
