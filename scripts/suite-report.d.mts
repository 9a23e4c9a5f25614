/**
 * One line per check for the stress table: every check records its name, how many cases or runs
 * it made and whether it passed; `scripts/run-suite.mjs stress` collects the lines (it hands each
 * script the file in GROK_SUITE_REPORT) and prints one table for the whole run.
 */

/** The smoke form of a stress script (CI: `npm run stress -- --smoke`). */
export declare const SMOKE: boolean;

/** Appends one check's result to the run's report file, when there is one; always logs it. */
export declare function recordCheck(check: string, count: number, passed: boolean, note?: string): void;

/**
 * Runs `body`, which returns the number of cases it made, and records the check as passed when it
 * returns and failed when it throws (the error is rethrown for Jest); a failed check's count is
 * `planned`, the number of cases it was set to make, when the caller knows it.
 */
export declare function check(name: string, body: () => Promise<number>, planned?: number): Promise<void>;
